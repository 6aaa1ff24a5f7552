/** Pieces most replies share: the footer that says when data is from, and common buttons. */
import type { Fetched } from "../cache/types.js";
import type { CommandContext } from "./command.js";
import type { Action, Footer } from "./reply.js";
import type { Translator } from "../i18n/index.js";

/**
 * The footer of a reply built from one or more lookups: the oldest fetch time (the reply is
 * only as fresh as its oldest part) and stale if any part was served stale. The parts are the
 * data the reply shows: a lookup that only named or resolved something (the chain list, the
 * detail that picks a pair) would date fresh figures by its own older fetch.
 */
export function footerOf(ctx: CommandContext, ...parts: readonly Fetched<unknown>[]): Footer {
  if (parts.length === 0) return { source: ctx.source, asOf: ctx.now() };
  return {
    source: ctx.source,
    asOf: Math.min(...parts.map((p) => p.fetchedAt)),
    stale: parts.some((p) => p.stale),
  };
}

/** A button that runs the same command again and replaces the message. */
export function refreshButton(command: string, args: readonly string[], i18n: Translator): Action {
  return { kind: "command", label: i18n.t("button-refresh"), command, args: [...args], edit: true };
}

/** A button that runs a command and posts its answer as a new message. */
export function openButton(label: string, command: string, args: readonly string[]): Action {
  return { kind: "command", label: label.slice(0, 40), command, args: [...args], edit: false };
}

/** Buttons in rows of at most `perRow` (Discord allows 5 a row, 5 rows). */
export function rows<T>(items: readonly T[], perRow = 5, maxRows = 4): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length && out.length < maxRows; i += perRow) out.push(items.slice(i, i + perRow));
  return out;
}
