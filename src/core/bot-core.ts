/**
 * The one entry point adapters call. Adapters turn platform input into text or a command name
 * with arguments, and render the Reply they get back; they never call the market directly.
 */
import type { Translator } from "../i18n/index.js";
import type { Lane } from "../market/scheduler-lanes.js";
import type { ChatKey } from "../store/types.js";
import type { CommandCall, NamedValues } from "./args.js";
import type { ChatEvents } from "./chat-events.js";
import type { ChatContext, Command } from "./command.js";
import type { ScheduledPost } from "./posts/render.js";
import type { Answering } from "./fresher.js";
import type { Reply } from "./reply.js";

export interface Choice {
  /** Shown to the user, ≤ 100 characters. */
  name: string;
  /** Sent back as the argument, ≤ 100 characters. */
  value: string;
}

/** A token card offered in an inline answer, under the suggestion that named it. */
export interface InlineCard extends Choice {
  card: Reply;
}

/** What an inline query gets: the cards, or, when there are none, one line in the asker's language saying why. */
export interface InlineAnswer {
  cards: InlineCard[];
  /** Why there are no cards: nothing typed yet, nothing matches, the service failed, or over budget. */
  notice?: string;
  /** Over budget: the answer is this person's for now, never to be cached. */
  refused?: boolean;
}

export interface BotCore {
  /** Every command, in the order `/help` lists them. */
  readonly commands: readonly Command[];
  /**
   * A message that starts with `/` (any `@botname` is dropped): parse once, check the budget,
   * run. Resolves to the one Reply to send, or `null` when the budget already said
   * its polite sentence and the user should now get silence. Never rejects.
   *
   * Every answer to a person (here, `command`, `run`, `detect`) that showed older data is
   * asked again outside the budget, and a fresher one handed to `answering.onFresher`: the
   * adapter puts it in place of the message it sent (`fresher.ts`).
   */
  handleText(chat: ChatContext, text: string, answering?: Answering): Promise<Reply | null>;
  /**
   * A command the platform already picked out of a message (Telegram's bot_command entity):
   * its name and argument text, split into words here. Same answer as `handleText`. Never rejects.
   */
  command(chat: ChatContext, call: CommandCall, answering?: Answering): Promise<Reply | null>;
  /**
   * A command's reply for a scheduled post to `chat` (a digest, an alert): what the command
   * answers when typed there, in the chat's language, outside any budget, its market calls on
   * `lane` (default the digest's). A failure is its reply, with `error` set, so the poster can
   * leave the post for later. `previousRanking` is the ranking of this subscription's previous
   * post (the reply's `ranking` then): a token list marks each row's movement since it. Never rejects.
   */
  post(chat: ChatKey, command: string, args: readonly string[], opts?: { lane?: Lane; previousRanking?: readonly string[] }): Promise<Reply>;
  /**
   * A scheduled post that is no command's answer (a fired or paused alert, a launch and the
   * hour's summary of launches, a digest's pause notice, a buy feed's post or summary), written from the record its sender
   * stored, in the chat's language as `post` writes. A record that cannot be read is a reply
   * with `error` set (logged), for the sender to record as failed. Never rejects.
   */
  render(chat: ChatKey, post: ScheduledPost): Promise<Reply>;
  /** A command by name with raw arguments (buttons, Discord options). Never rejects. */
  run(chat: ChatContext, command: string, args: readonly string[], answering?: Answering): Promise<Reply | null>;
  /** A command by name with its arguments by name (Discord's options). Never rejects. */
  runNamed(chat: ChatContext, command: string, named: NamedValues, answering?: Answering): Promise<Reply | null>;
  /**
   * Free text: if it holds a contract address or a DEX/explorer link and the chat's auto-detect
   * is on (or `asked`), the token card; else `null`. Outside private chats a failure
   * (unknown address, market down, over budget) is `null` too, since nobody asked; with
   * `asked` (the user picked the message, e.g. Discord's "Token card") it is the reply that
   * says so, and `null` means only that nothing was found. Never rejects.
   */
  detect(chat: ChatContext, text: string, opts?: { asked?: boolean } & Answering): Promise<Reply | null>;
  /**
   * Up to `max` token cards for an inline query (`@bot pepe`), costing one unit of the budget
   * for the whole query: suggestions from cached searches, one search first when none are
   * cached. Cards that failed are left out. Never rejects.
   */
  inlineCards(chat: ChatContext, query: string, max: number): Promise<InlineAnswer>;
  /** Token suggestions for a partial query, from cached searches only: never waits on the service. */
  suggestTokens(query: string): Choice[];
  /**
   * The words for an answer only the caller sees that no command gives (a button that has
   * expired): in the language their answers to commands have there. Never rejects.
   */
  callerWords(chat: ChatContext): Promise<Translator>;
  /** The platform's news about a chat (removed, moved, part of a server); the core updates its state. */
  readonly chats: ChatEvents;
}
