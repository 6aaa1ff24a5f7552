/**
 * The one entry point adapters call. Adapters turn platform input into text or a command name
 * with arguments, and render the Reply they get back; they never call the market directly.
 */
import type { ChatContext, Command } from "./command.js";
import type { Reply } from "./reply.js";

export interface Choice {
  /** Shown to the user, ≤ 100 characters. */
  name: string;
  /** Sent back as the argument, ≤ 100 characters. */
  value: string;
}

export interface BotCore {
  /** Every command, in the order `/help` lists them. */
  readonly commands: readonly Command[];
  /**
   * A message that starts with `/` (already stripped of any `@botname`): parse, check the
   * budget, run. Resolves to the one Reply to send, or `null` when the budget already said
   * its polite sentence and the user should now get silence. Never rejects.
   */
  handleText(chat: ChatContext, text: string): Promise<Reply | null>;
  /** A command by name with raw arguments (buttons, Discord options). Never rejects. */
  run(chat: ChatContext, command: string, args: readonly string[]): Promise<Reply | null>;
  /**
   * Free text: if it holds a contract address or a DEX/explorer link, the token card; else
   * `null`. The adapter decides whether auto-detect is on. Never rejects.
   */
  detect(chat: ChatContext, text: string): Promise<Reply | null>;
  /** Token suggestions for a partial query, from cached searches only: never waits on the service. */
  suggestTokens(query: string): Choice[];
}
