/**
 * Metrics for the command core as a decorator, so the core knows nothing of Prometheus:
 * every command is timed and counted by name and outcome. A typed message is read once, by
 * the core's own `commandCall`, and goes on to the core as the parsed call.
 */
import { commandCall } from "../core/args.js";
import type { BotCore } from "../core/bot-core.js";
import type { Reply } from "../core/reply.js";
import type { Metrics } from "./metrics.js";

function outcome(reply: Reply | null): string {
  if (reply === null) return "throttled";
  if (reply.error === "user") return "user_error";
  if (reply.error === "internal") return "error";
  return "ok";
}

export function instrumentCore(core: BotCore, metrics: Metrics): BotCore {
  const known = new Set(core.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
  // Names people typed are unbounded; the label set stays the registry's.
  const label = (name: string): string => (known.has(name) ? name : "unknown");
  const timed = async (name: string, work: () => Promise<Reply | null>): Promise<Reply | null> => {
    const end = metrics.commandSeconds.startTimer({ command: name });
    const reply = await work();
    end();
    metrics.commands.inc({ command: name, outcome: outcome(reply) });
    return reply;
  };
  const command: BotCore["command"] = (chat, call, answering) => timed(label(call.name), () => core.command(chat, call, answering));
  return {
    commands: core.commands,
    handleText: (chat, text, answering) => {
      const call = commandCall(text);
      return call === undefined ? timed("unknown", () => core.handleText(chat, text, answering)) : command(chat, call, answering);
    },
    command,
    run: (chat, name, args, answering) => timed(label(name), () => core.run(chat, name, args, answering)),
    runNamed: (chat, name, named, answering) => timed(label(name), () => core.runNamed(chat, name, named, answering)),
    post: (chat, name, args, opts) => core.post(chat, name, args, opts),
    render: (chat, post) => core.render(chat, post),
    detect: async (chat, text, opts) => {
      const reply = await core.detect(chat, text, opts);
      if (reply !== null) metrics.commands.inc({ command: "detect", outcome: outcome(reply) });
      return reply;
    },
    inlineCards: (chat, query, max) => core.inlineCards(chat, query, max),
    suggestTokens: (query) => core.suggestTokens(query),
    callerWords: (chat) => core.callerWords(chat),
    chats: core.chats,
  };
}
