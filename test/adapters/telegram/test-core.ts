/**
 * A small, real BotCore over commands written for these tests: positional arguments, one
 * catch site, suggestions from a fixed list. It drives the adapter end to end with replies
 * the tests choose (slow ones, huge ones, photos, buttons).
 */
import type { BotCore, Choice } from "../../../src/core/bot-core.js";
import type { ArgValues, ChatContext, Command, CommandContext } from "../../../src/core/command.js";
import { isUserError, UserError } from "../../../src/core/errors.js";
import { errorReply, type Reply } from "../../../src/core/reply.js";

/** What a command saw, for assertions on arguments and chat context. */
export interface CoreCall {
  command: string;
  args: readonly string[];
  chat: ChatContext;
}

export interface TestCore extends BotCore {
  calls: CoreCall[];
}

function bind(cmd: Command, words: readonly string[]): ArgValues {
  const values: ArgValues = {};
  cmd.args.forEach((spec, i) => {
    values[spec.name] = spec.variadic === true ? words.slice(i) : words[i];
  });
  for (const spec of cmd.args) {
    if (spec.required && (values[spec.name] === undefined || values[spec.name]?.length === 0)) {
      throw new UserError(`/${cmd.name} needs a ${spec.name}, e.g. ${cmd.examples[0] ?? `/${cmd.name}`}.`);
    }
  }
  return values;
}

export function createTestCore(opts: { commands: Command[]; suggestions?: Choice[]; detect?: (text: string) => Reply | null }): TestCore {
  const calls: CoreCall[] = [];
  async function run(chat: ChatContext, name: string, args: readonly string[]): Promise<Reply | null> {
    try {
      const cmd = opts.commands.find((c) => c.name === name);
      if (cmd === undefined) throw new UserError(`I don't know /${name.slice(0, 32)}; /help lists what I can do.`);
      calls.push({ command: name, args, chat });
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
      const [name = "", ...words] = text.slice(1).trim().split(/\s+/);
      return run(chat, name, words.filter((w) => w !== ""));
    },
    command: (chat, call) => run(chat, call.name, call.args.split(/\s+/).filter((w) => w !== "")),
    run,
    post: async () => ({ title: "no posts here", tone: "info", blocks: [], actions: [] }),
    chats: { left: async () => undefined, moved: async () => undefined, inServer: async () => true, leftServer: async () => undefined },
    detect: async (_chat, text) => opts.detect?.(text) ?? null,
    // Inline mode is tested with the real core (inline.test.ts); these tests offer no cards.
    inlineCards: async () => [],
    suggestTokens: (query) => (opts.suggestions ?? []).filter((c) => c.name.toLowerCase().includes(query.toLowerCase())).slice(0, 25),
  };
}
