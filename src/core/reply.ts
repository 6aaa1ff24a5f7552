/**
 * What every command returns: plain text only. Adapters render it (HTML, embeds, terminal),
 * escape every string and keep within their platform's limits. Nothing here is markup.
 */

export type Tone = "info" | "good" | "warn" | "danger";

/** A label–value pair; `inline` hints that it may sit beside its neighbours (Discord). */
export interface Field {
  label: string;
  value: string;
  inline?: boolean;
}

export type Block =
  /** A paragraph. */
  | { kind: "text"; text: string }
  /** Label–value pairs. */
  | { kind: "fields"; fields: Field[] }
  /** A small table; `align` per column, default left. Rendered monospaced. */
  | { kind: "table"; columns: string[]; rows: string[][]; align?: ("left" | "right")[] };

/**
 * A button. `command` runs a command with arguments when pressed; `edit: true` means the
 * answer replaces the message the button sits on (refresh, paging, chart interval), else it
 * is posted as a new message (open a card). `url` opens a link (http(s) only).
 */
export type Action =
  | { kind: "command"; label: string; command: string; args: string[]; edit: boolean }
  | { kind: "url"; label: string; url: string };

export interface ReplyImage {
  png: Uint8Array;
  alt: string;
  /** File name for attachments, e.g. `chart.png`. */
  filename: string;
}

/**
 * A chat's own picture, GIF or video shown with a post (a whale buy): the platform's file id
 * the bot may send again (Telegram), or the copy the bot keeps and uploads with the message
 * (Discord, whose links to a member's upload expire). The post's text is its caption.
 */
export interface ReplyMedia {
  kind: "photo" | "animation" | "video";
  /** Telegram's `file_id` of the file. */
  fileId?: string;
  /** The bot's copy: a file name (`[A-Za-z0-9_-]+.<ext>`), its MIME type and bytes. */
  file?: { name: string; type: string; data: Uint8Array };
}

export interface Footer {
  /** Where the data came from, e.g. "Token Market Data Service" or "demo data (sandbox)". */
  source: string;
  /** When the data was fetched (epoch ms). */
  asOf?: number;
  /** True when served from a stale cache entry because the service failed. */
  stale?: boolean;
}

export interface Reply {
  title: string;
  /** Optional http(s) link for the title. */
  url?: string;
  tone: Tone;
  /** The title opens with a mark of its own (a risk verdict's "🟡"): adapters put no tone mark before it. */
  titleMarked?: boolean;
  blocks: Block[];
  image?: ReplyImage;
  /** The chat's media shown with the post (Telegram: the post is its caption). */
  media?: ReplyMedia;
  /** Rows of buttons. */
  actions: Action[][];
  footer?: Footer;
  /**
   * Set on replies to failures: "user" for a UserError (the caller can fix it; Discord answers
   * ephemerally), "internal" for anything else (already logged).
   */
  error?: "user" | "internal";
  /** The locale it is written in (`en`, `zh`), for the words adapters add (footer, notes); default `en`. */
  locale?: string;
  /** A token list's ids in the order shown: a scheduled post keeps them as the next post's `previousRanking`. Adapters ignore it. */
  ranking?: string[];
  /** The topic of the chat a scheduled post goes to (`ChatSettings.postTopic`); an answer goes where its command was. */
  topic?: string;
}

/** A reply that is one sentence about what went wrong. */
export function errorReply(message: string, error: "user" | "internal"): Reply {
  return { title: message, tone: error === "user" ? "warn" : "danger", blocks: [], actions: [], error };
}
