/**
 * The console chat: one message a line, one reply each. Typing a button's number presses it.
 * Used as the embedded default (`npm start` without bot tokens), by pipes
 * (`printf '/price pepe\n' | npm start`) and by the tests as a real adapter.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { BotCore } from "../../core/bot-core.js";
import type { ChatContext } from "../../core/command.js";
import type { Action, Reply } from "../../core/reply.js";
import { numberedActions, renderText } from "./render.js";
import { wordsFor } from "../../i18n/index.js";

export interface ConsoleOptions {
  core: BotCore;
  input: Readable;
  output: Writable;
  /** Interactive terminal: a prompt and colours. Default false (plain lines, for pipes). */
  isTTY?: boolean;
  /** Clock for "as of" times, epoch ms. Default `Date.now`. */
  now?: () => number;
  /** The console's chat; default one private chat whose user is its admin. */
  chat?: ChatContext;
}

/** The console's one chat: private, and the person at the terminal is its admin. */
export const CONSOLE_CHAT: ChatContext = {
  platform: "console",
  chatId: "console",
  userId: "console",
  isPrivate: true,
  isAdmin: async () => true,
};


/** Runs the console chat until the input ends (EOF) or `quit`; resolves then. */
export async function runConsole(opts: ConsoleOptions): Promise<void> {
  const tty = opts.isTTY === true;
  const chat = opts.chat ?? CONSOLE_CHAT;
  // The console's own lines follow the language its user asked for (the replies follow the chat's).
  const words = wordsFor(chat.userLanguage);
  const write = (s: string) => opts.output.write(`${s}\n`);
  // On a terminal readline draws the prompt and echoes the keys into `output` (the terminal is
  // in raw mode, so nothing else echoes them); through a pipe it only splits lines.
  const rl = createInterface({ input: opts.input, ...(tty ? { output: opts.output, terminal: true } : { terminal: false }), crlfDelay: Infinity });
  // Raw mode turns Ctrl-C into a key: without this it would only pause the input.
  rl.on("SIGINT", () => rl.close());
  // A reader that went away (`npm start | head -1`) ends the chat as the end of input does;
  // unheard, the pipe's EPIPE would end the process with a stack trace. The listener stays after
  // the chat, as a write already queued may still fail. A failed write destroys the stream at
  // once, but its error is heard only a tick later: the loop asks the stream.
  opts.output.on("error", () => rl.close());
  let buttons: Action[] = [];

  const show = (reply: Reply | null) => {
    if (reply === null) return;
    buttons = numberedActions(reply);
    write(renderText(reply, { color: tty, now: opts.now }));
    write("");
  };

  if (tty) {
    write(words.t("console-welcome", { hint: words.t("console-hint") }));
    rl.setPrompt("> ");
    rl.prompt();
  }
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === "quit" || line === "exit" || opts.output.destroyed) break;
    if (line !== "") await answer(line);
    if (tty) rl.prompt();
  }
  rl.close();

  async function answer(line: string): Promise<void> {
    if (/^\d{1,3}$/.test(line)) {
      const action = buttons[Number(line) - 1];
      if (action === undefined) {
        write(buttons.length === 0 ? words.t("console-no-buttons") : words.t("console-choose", { count: buttons.length }));
        return;
      }
      if (action.kind === "url") {
        write(action.url);
        return;
      }
      show(await opts.core.run(chat, action.command, action.args));
      return;
    }
    if (line.startsWith("/")) {
      show(await opts.core.handleText(chat, line));
      return;
    }
    const card = await opts.core.detect(chat, line);
    if (card === null) write(words.t("console-hint"));
    else show(card);
  }
}
