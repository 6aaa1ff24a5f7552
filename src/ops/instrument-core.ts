/**
 * Metrics for the command core as a decorator, so the core knows nothing of Prometheus:
 * every command is timed and counted by name and outcome.
 */
import type { BotCore } from "../core/bot-core.js";
import type { Reply } from "../core/reply.js";
import type { Metrics } from "./metrics.js";

/** The command a message names (`/price@bot pepe` → `price`), bounded so labels stay few. */
function commandName(text: string, known: ReadonlySet<string>): string {
  const m = /^\/([A-Za-z0-9_]{1,32})/.exec(text.trim());
  const name = m?.[1]?.toLowerCase();
  return name !== undefined && known.has(name) ? name : "unknown";
}

function outcome(reply: Reply | null): string {
  if (reply === null) return "throttled";
  if (reply.error === "user") return "user_error";
  if (reply.error === "internal") return "error";
  return "ok";
}

export function instrumentCore(core: BotCore, metrics: Metrics): BotCore {
  const known = new Set(core.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
  const timed = async (name: string, work: () => Promise<Reply | null>): Promise<Reply | null> => {
    const end = metrics.commandSeconds.startTimer({ command: name });
    const reply = await work();
    end();
    metrics.commands.inc({ command: name, outcome: outcome(reply) });
    return reply;
  };
  return {
    commands: core.commands,
    handleText: (chat, text) => timed(commandName(text, known), () => core.handleText(chat, text)),
    run: (chat, command, args) => timed(known.has(command) ? command : "unknown", () => core.run(chat, command, args)),
    detect: async (chat, text, opts) => {
      const reply = await core.detect(chat, text, opts);
      if (reply !== null) metrics.commands.inc({ command: "detect", outcome: outcome(reply) });
      return reply;
    },
    inlineCards: (chat, query, max) => core.inlineCards(chat, query, max),
    suggestTokens: (query) => core.suggestTokens(query),
  };
}
