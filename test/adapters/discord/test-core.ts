/**
 * A small, real BotCore over a few commands written for these tests: positional arguments,
 * one catch site, suggestions from a fixed list. It lets the adapter be driven end to end
 * with replies the tests choose (slow ones, huge ones, images, buttons).
 */
import type { BotCore, Choice } from "../../../src/core/bot-core.js";
import type { ArgValues, ChatContext, Command, CommandContext } from "../../../src/core/command.js";
import { isUserError, UserError } from "../../../src/core/errors.js";
import { errorReply, type Reply } from "../../../src/core/reply.js";

/** What each command saw, for assertions on arguments and chat context. */
export interface Call {
  command: string;
  args: readonly string[];
  chat: ChatContext;
  admin: boolean;
}

export interface TestCore extends BotCore {
  calls: Call[];
}

function bind(cmd: Command, words: readonly string[]): ArgValues {
  const values: ArgValues = {};
  cmd.args.forEach((spec, i) => {
    if (spec.variadic === true) values[spec.name] = words.slice(i);
    else values[spec.name] = words[i];
  });
  for (const spec of cmd.args) {
    if (spec.required && values[spec.name] === undefined) throw new UserError(`/${cmd.name} needs a ${spec.name}.`);
  }
  return values;
}

export function createTestCore(opts: {
  commands: Command[];
  suggestions?: Choice[];
  detect?: (text: string) => Reply | null;
}): TestCore {
  const calls: Call[] = [];
  async function run(chat: ChatContext, name: string, args: readonly string[]): Promise<Reply | null> {
    try {
      const cmd = opts.commands.find((c) => c.name === name);
      if (cmd === undefined) throw new UserError(`I don't know /${name}.`);
      calls.push({ command: name, args, chat, admin: await chat.isAdmin() });
      const ctx = { chat, now: Date.now, source: "test data" } as unknown as CommandContext;
      return await cmd.run(ctx, bind(cmd, args));
    } catch (err) {
      if (isUserError(err)) return errorReply(err.message, "user");
      return errorReply("Something went wrong on my side; it has been logged.", "internal");
    }
  }
  return {
    calls,
    commands: opts.commands,
    handleText: async (chat, text) => {
      const [name = "", ...words] = text.slice(1).split(/\s+/);
      return run(chat, name, words);
    },
    command: (chat, call) => run(chat, call.name, call.args.split(/\s+/).filter((w) => w !== "")),
    run,
    post: async () => ({ title: "no posts here", tone: "info", blocks: [], actions: [] }),
    chats: { left: async () => undefined, moved: async () => undefined, inServer: async () => true, leftServer: async () => undefined },
    detect: async (_chat, text) => opts.detect?.(text) ?? null,
    // Inline queries are Telegram's; Discord never asks.
    inlineCards: async () => [],
    suggestTokens: (query) =>
      (opts.suggestions ?? []).filter((c) => c.name.toLowerCase().includes(query.toLowerCase())).slice(0, 25),
  };
}
