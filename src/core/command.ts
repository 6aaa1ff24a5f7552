/**
 * A command is data plus one function. The registry of commands is the single source from
 * which Telegram (`setMyCommands`), Discord (slash commands) and `/help` are derived.
 */
import type { Logger } from "pino";
import type { CachedMarket } from "../cache/types.js";
import type { CallRules } from "../calls/rules.js";
import type { ChartRenderer } from "../chart/types.js";
import type { ChatKey, Store } from "../store/types.js";
import type { Catalog, Translator } from "../i18n/index.js";
import type { Reply } from "./reply.js";

export type ArgType =
  /** A token: symbol, name, address, `address-chain`, or a pasted link. Autocompleted on Discord. */
  | "token"
  | "chain"
  | "topic"
  /** A chart interval such as 1m 5m 15m 1h 4h 1d 1w. */
  | "interval"
  | "int"
  | "text";

export interface ArgSpec {
  name: string;
  description: string;
  type: ArgType;
  required: boolean;
  /** Takes the rest of the words (e.g. `/price a b c`); only the last argument. */
  variadic?: boolean;
  /** Allowed values (chains, topics, intervals, u/r/m). */
  choices?: readonly string[];
  /** Bounds for `int`. */
  min?: number;
  max?: number;
  /** Values the description's words take (a setting's limits), in every language. */
  descriptionArgs?: Readonly<Record<string, string>>;
}

/** Parsed arguments by name; a variadic argument is a list. */
export type ArgValues = Record<string, string | string[] | undefined>;

/** A member as the chat shows them: a name to show (never to mention), and what kind of sender they are. */
export interface Member {
  /** Display name (Telegram first and last name, Discord server nickname or global name). */
  name: string;
  /** The @handle without "@", when they have one; found by `/calls @handle`, never printed with "@". */
  handle?: string;
  /** A bot, or someone posting as the group or a channel (Telegram anonymous admins), makes no calls. */
  kind: "person" | "bot" | "anonymous";
}

/**
 * A file a command comes with: the photo, GIF or video of the message it replies to (Telegram),
 * or the file in its attachment option (Discord).
 */
export interface AttachedFile {
  /** What the platform says it is: `other` for anything but a photo, GIF or video. */
  kind: "photo" | "animation" | "video" | "other";
  /** Telegram's `file_id`, which the bot may send again for as long as it likes. */
  fileId?: string;
  /** A file the bot must keep a copy of (Discord): its name, MIME type, size in bytes, and its bytes when read. */
  file?: { name: string; type: string; size: number; read(): Promise<Uint8Array> };
}

export interface ChatContext extends ChatKey {
  userId: string;
  /** A private (one-to-one) chat. */
  isPrivate: boolean;
  /** Whether the caller may change this chat's settings; asked lazily (it may cost a call). */
  isAdmin(): Promise<boolean>;
  /** Discord server of the channel, if any. */
  guildId?: string;
  /** The bot's own username on the platform, for sentences that name it. */
  botName?: string;
  /**
   * Whether the platform shows the bot this chat's ordinary messages (auto-detect needs them);
   * asked lazily. Absent: it does.
   */
  seesMessages?(): Promise<boolean>;
  /** When the message or interaction reached the bot (epoch ms); its answer deadline runs from here. Default when the core got it. */
  receivedAt?: number;
  /** The caller's language as the platform says it (Telegram `language_code`, Discord `locale`, console `--lang`). */
  userLanguage?: string;
  /** The server's language (Discord `guild_locale`). */
  serverLanguage?: string;
  /**
   * Who wrote what the bot answers, when a member wrote it: a typed or slash command, a pasted
   * address, Discord's "Token card". Absent for buttons, inline queries and scheduled posts,
   * which make no calls.
   */
  member?: Member;
  /** The member whose message the command replies to (Telegram), for commands about a member. */
  repliedTo?: Member & { userId: string };
  /** The file the command came with, for a command that takes one (`Command.file`). */
  attached?: AttachedFile;
  /** The topic of the chat the command was written in (a Telegram forum's thread); absent: the main thread. */
  topic?: string;
}

export interface CommandContext {
  market: CachedMarket;
  store: Store;
  chat: ChatContext;
  /** Epoch ms. */
  now(): number;
  log: Logger;
  charts: ChartRenderer;
  /** Footer source label, e.g. "demo data (sandbox)". */
  source: string;
  /** Words in the chat's language (see src/i18n/choose.ts): `ctx.i18n.t("key", args)`, `throw ctx.i18n.fail("key")`. */
  i18n: Translator;
  /** How calls are kept (`CALLS_WINDOW_DAYS`, `CALLS_SWEEP_MINUTES`); default 30 days and 60 minutes. */
  calls?: CallRules;
  /** Every language's words, for what a chat reads in another language than its own (`/settings language`). */
  catalog: Catalog;
  /** A scheduled post's previous ranking (token ids, best first): a list marks each row's movement since then. */
  previousRanking?: readonly string[];
  /**
   * Set when the core asks again for a fresher answer (`core/fresher.ts`): when the first
   * answer ran (epoch ms). What the first answer recorded is shown as it was, never recorded twice.
   */
  reasked?: FirstRun;
  /**
   * Another command's answer in this chat, for a button that changes something and then draws
   * its own message again (a card's "Not a call"). Its errors are thrown as a command's are.
   */
  redraw?(command: string, args: readonly string[]): Promise<Reply>;
}

/** When a command's first answer ran, from its start to its reply (epoch ms). */
export interface FirstRun {
  from: number;
  to: number;
}

export interface Command {
  /** Lowercase, `^[a-z0-9_]{1,32}$` (valid for both Telegram and Discord). */
  name: string;
  aliases?: readonly string[];
  /** One line, ≤ 100 characters. */
  description: string;
  args: readonly ArgSpec[];
  /** Full example invocations, e.g. "/price pepe eth". */
  examples: readonly string[];
  /**
   * The command takes a file (`ChatContext.attached`): on Discord an optional attachment option
   * of this name; on Telegram the message the command replies to.
   */
  file?: { name: string; description: string };
  /** Throws only UserError for things the user can fix. */
  run(ctx: CommandContext, args: ArgValues): Promise<Reply>;
}

/** One bound word: one of the spec's `choices` when it has them (bound lowercase), else any word. */
type WordOf<S extends ArgSpec> = S extends { choices: readonly (infer C extends string)[] } ? C : string;

/** What one spec binds to: a list for a variadic argument, one word otherwise. */
type ValueOf<S extends ArgSpec> = S extends { variadic: true } ? WordOf<S>[] : WordOf<S>;

/** A command's arguments typed from its own declaration: a required one is always there. */
export type ArgsOf<A extends readonly ArgSpec[]> = {
  readonly [S in A[number] as S["name"]]: S extends { required: true } ? ValueOf<S> : ValueOf<S> | undefined;
};

/**
 * A command whose `run` reads its arguments typed from its `args`, without casts. The one
 * conversion is here, and it holds: `bindArgs` binds words to exactly these specs (a required
 * argument present, a variadic one a list).
 */
export function defineCommand<const A extends readonly ArgSpec[]>(
  cmd: Omit<Command, "args" | "run"> & { args: A; run(ctx: CommandContext, args: ArgsOf<A>): Promise<Reply> },
): Command {
  return { ...cmd, run: (ctx, args) => cmd.run(ctx, args as ArgsOf<A>) };
}
