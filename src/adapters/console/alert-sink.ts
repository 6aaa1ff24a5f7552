/**
 * The console as an alert target: a fired alert is printed in the chat as it comes. Its buttons
 * are written as the commands they run, since typed numbers press the buttons of the last answer.
 */
import type { Writable } from "node:stream";
import { renderText } from "./render.js";
import type { Reply } from "../../core/reply.js";
import type { AlertSink } from "../../alerts/delivery.js";

export interface ConsoleSinkOptions {
  output: Writable;
  /** ANSI colours (a terminal). Default false. */
  color?: boolean;
  now?: () => number;
}

function commandsOf(reply: Reply): string {
  return reply.actions
    .flat()
    .map((a) => (a.kind === "url" ? `${a.label}: ${a.url}` : `${a.label}: /${[a.command, ...a.args].join(" ")}`))
    .join("  ·  ");
}

export function consoleAlertSink(opts: ConsoleSinkOptions): AlertSink {
  return {
    async send(_chatId, reply) {
      const commands = commandsOf(reply);
      const text = renderText({ ...reply, actions: [] }, { color: opts.color, now: opts.now });
      opts.output.write(`${text}${commands === "" ? "" : `\n${commands}`}\n\n`);
      return { kind: "delivered" };
    },
  };
}
