/**
 * Reply → one Discord embed (plus the chart, or the chat's media, as an attachment). Every string is escaped, every
 * per-field limit kept, and the 6,000-character total of a message's embeds kept by trimming:
 * discord.js checks each field but not the total, which Discord refuses.
 */
import type { APIEmbed, APIEmbedField } from "discord.js";
import type { Block, Field, Footer, Reply, Tone } from "../../core/reply.js";
import { safeHttpUrl } from "../../core/format/index.js";
import { escapeCodeBlock, escapeMarkdown, length, truncate } from "./text.js";
import { DEFAULT_LOCALE, displayWidth, messages, type Translator } from "../../i18n/index.js";

/** Discord's embed limits (characters). */
export const EMBED_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

/** Embed colour per tone. */
export const TONE_COLOURS: Readonly<Record<Tone, number>> = {
  info: 0x3b82f6,
  good: 0x22c55e,
  warn: 0xf59e0b,
  danger: 0xef4444,
};

/** The description always keeps at least this much room before fields are dropped. */
const DESCRIPTION_RESERVE = 300;
/** Table cells wider than this are cut, so that rows stay readable on a phone. */
const CELL_MAX = 24;

export interface EmbedFile {
  name: string;
  data: Buffer;
  description: string;
  /** MIME type. */
  type: string;
}

export interface RenderedEmbeds {
  embeds: APIEmbed[];
  /** Files to upload with the message; the embed shows the image as `attachment://<name>`. */
  files: EmbedFile[];
}

export interface RenderEmbedOptions {
  /** Clock for the footer's "data 3m old" (epoch ms). Default Date.now. */
  now?: () => number;
}

function age(ms: number, i18n: Translator): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 10) return i18n.t("age-just-now");
  if (s < 60) return i18n.t("discord-old", { age: i18n.t("age-s", { n: s }) });
  if (s < 3600) return i18n.t("discord-old", { age: i18n.t("age-m", { n: Math.floor(s / 60) }) });
  if (s < 86_400) return i18n.t("discord-old", { age: i18n.t("age-h", { n: Math.floor(s / 3600) }) });
  return i18n.t("discord-old", { age: i18n.t("age-d", { n: Math.floor(s / 86_400) }) });
}

function footerText(footer: Footer, now: number, i18n: Translator): string {
  const parts = [footer.source];
  if (footer.asOf !== undefined) parts.push(i18n.t("discord-data-age", { age: age(now - footer.asOf, i18n) }));
  // The core says why the data is older, in a note atop the description: a cause named here could contradict it.
  if (footer.stale === true) parts.push(i18n.t("discord-stale"));
  return truncate(parts.map((p) => p.replace(/[\u0000-\u001f]/g, " ")).join(" · "), EMBED_LIMITS.footer);
}

function fieldOf(f: Field): APIEmbedField {
  const name = truncate(escapeMarkdown(f.label), EMBED_LIMITS.fieldName);
  const value = truncate(escapeMarkdown(f.value), EMBED_LIMITS.fieldValue);
  // Discord refuses empty names and values.
  return { name: name === "" ? "—" : name, value: value === "" ? "—" : value, inline: f.inline ?? true };
}

function pad(cell: string, width: number, align: "left" | "right"): string {
  const gap = " ".repeat(Math.max(0, width - displayWidth(cell)));
  return align === "right" ? gap + cell : cell + gap;
}

/** A table as a code block of at most `max` characters; rows that do not fit are counted, in the reply's language. */
export function tableBlock(block: Extract<Block, { kind: "table" }>, max: number, i18n: Translator): string {
  const clean = (c: string): string => truncate(escapeCodeBlock(c).replace(/\s+/g, " "), CELL_MAX);
  const header = block.columns.map(clean);
  const rows = block.rows.map((r) => block.columns.map((_, i) => clean(r[i] ?? "")));
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))));
  const line = (cells: string[]): string =>
    cells.map((c, i) => pad(c, widths[i] ?? 0, block.align?.[i] ?? "left")).join("  ").trimEnd();
  const fence = "```";
  const lines = [line(header)];
  let used = length(fence) * 2 + 2 + length(lines[0] ?? "");
  let shown = 0;
  for (const row of rows) {
    const text = line(row);
    // Room for this row and for a "… N more" line after it.
    if (used + length(text) + 1 + 20 > max) break;
    lines.push(text);
    used += length(text) + 1;
    shown += 1;
  }
  if (shown < rows.length) lines.push(truncate(i18n.t("discord-table-more", { count: rows.length - shown }), 20));
  const out = `${fence}\n${lines.join("\n")}\n${fence}`;
  return length(out) <= max ? out : "";
}

/** The description: text and table blocks, and fields blocks too when `withFields`, in the reply's order. */
function descriptionOf(blocks: readonly Block[], withFields: boolean, max: number, i18n: Translator): string {
  const parts: string[] = [];
  let used = 0;
  const add = (text: string): void => {
    const sep = parts.length > 0 ? 2 : 0;
    const room = max - used - sep;
    if (room <= 1 || text === "") return;
    const piece = truncate(text, room);
    parts.push(piece);
    used += sep + length(piece);
  };
  for (const block of blocks) {
    if (block.kind === "text") add(escapeMarkdown(block.text));
    if (block.kind === "table") add(tableBlock(block, max - used - (parts.length > 0 ? 2 : 0), i18n));
    if (block.kind === "fields" && withFields) add(block.fields.map((f) => `${escapeMarkdown(f.label)}: ${escapeMarkdown(f.value)}`).join("\n"));
  }
  return parts.join("\n\n");
}

function fieldChars(f: APIEmbedField): number {
  return length(f.name) + length(f.value);
}

function safeFilename(name: string): string {
  return /^[A-Za-z0-9_-]{1,60}\.png$/.test(name) ? name : "chart.png";
}

/**
 * Renders a Reply as one embed: colour by tone, title (linked only to an http(s) URL),
 * description from text and table blocks, label–value fields, footer with source, data age and
 * staleness, and the image as an attachment. Keeps every Discord limit, the 6,000-character
 * total included.
 */
export function renderReplyEmbeds(reply: Reply, opts: RenderEmbedOptions = {}): RenderedEmbeds {
  const now = (opts.now ?? Date.now)();
  const title = truncate(escapeMarkdown(reply.title), EMBED_LIMITS.title);
  const embed: APIEmbed = { color: TONE_COLOURS[reply.tone] };
  if (title !== "") embed.title = title;
  const url = safeHttpUrl(reply.url);
  if (url !== undefined && title !== "") embed.url = url;

  const i18n = messages().translator(reply.locale ?? DEFAULT_LOCALE);
  const footer = reply.footer === undefined ? "" : footerText(reply.footer, now, i18n);
  if (footer !== "") embed.footer = { text: footer };
  if (reply.footer?.asOf !== undefined && Number.isFinite(reply.footer.asOf)) {
    embed.timestamp = new Date(reply.footer.asOf).toISOString();
  }

  const fields = reply.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : [])).map(fieldOf);
  const fixed = length(title) + length(footer);
  const fieldTotal = fields.reduce((sum, f) => sum + fieldChars(f), 0);
  // Discord shows the description above the fields: fields that cannot all be fields (past 25,
  // or past the total) are all written in the description where the reply has them, so that a
  // long list (/help's commands) keeps its order instead of its end reading above its start.
  const asFields = fields.length <= EMBED_LIMITS.fields && fieldTotal <= EMBED_LIMITS.total - fixed - DESCRIPTION_RESERVE;
  if (asFields && fields.length > 0) embed.fields = fields;

  const descriptionMax = Math.min(EMBED_LIMITS.description, EMBED_LIMITS.total - fixed - (asFields ? fieldTotal : 0));
  const description = descriptionOf(reply.blocks, !asFields, descriptionMax, i18n);
  if (description !== "") embed.description = description;

  const files: EmbedFile[] = [];
  if (reply.image !== undefined) {
    const name = safeFilename(reply.image.filename);
    files.push({ name, data: Buffer.from(reply.image.png), description: truncate(reply.image.alt, 1024), type: "image/png" });
    embed.image = { url: `attachment://${name}` };
  } else if (reply.media?.file !== undefined && /^[A-Za-z0-9_-]{1,60}\.[A-Za-z0-9]{1,5}$/.test(reply.media.file.name)) {
    // The bot's own copy goes up with each post: a link to the member's upload would have expired.
    const { name, type, data } = reply.media.file;
    files.push({ name, data: Buffer.from(data), description: "", type });
    // An embed shows a picture or GIF; a video is shown as the message's attachment.
    if (reply.media.kind !== "video") embed.image = { url: `attachment://${name}` };
  }
  // Discord refuses an embed with nothing in it.
  if (embed.title === undefined && embed.description === undefined && embed.fields === undefined && embed.image === undefined) {
    embed.description = "—";
  }
  return { embeds: [embed], files };
}
