/**
 * The answer deadline of a command (`ANSWER_DEADLINE_MS`, measured from when the message or
 * interaction reached the bot): the ask every market lookup of the command runs in, the note
 * a reply carries when some of its data is older because the service did not answer in time,
 * and how fresh each answer was, for /metrics.
 */
import type { Translator } from "../i18n/index.js";
import { asking, currentAsk, lateReason, newAsk, type Ask, type StaleServed } from "../market/ask.js";
import { isMarketError } from "../market/errors.js";
import { isUserError } from "./errors.js";
import type { Reply } from "./reply.js";

export const DEFAULT_ANSWER_DEADLINE_MS = 2_500;
/** Kept after the data's deadline for writing and sending the reply. */
const REPLY_MARGIN_MS = 200;
/**
 * How long after its arrival a command waits for fresh data when older data is at hand, over
 * all its lookups together: a reply within a second beats a fresher one at the deadline.
 */
export const STALE_PATIENCE_MS = 700;

/** What an answer carried: fresh data, older data labelled, a sentence saying when to try again, or a failure. */
export type Freshness = "fresh" | "stale" | "busy" | "failed";

/** The ask of a command that arrived at `arrivedAt` (epoch ms on `now`'s clock). */
export function commandAsk(arrivedAt: number, deadlineMs: number, now: () => number): Ask {
  const ask = newAsk("people", arrivedAt + Math.max(0, deadlineMs - REPLY_MARGIN_MS), now);
  return { ...ask, patientUntil: Math.min(ask.deadline as number, arrivedAt + STALE_PATIENCE_MS) };
}

/** Whole units passed, cut as the footer's "(1m ago)" cuts them, so one reply never tells two ages. */
function ago(ms: number, i18n: Translator): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return i18n.t("stale-ago-seconds", { n: s });
  const min = Math.floor(s / 60);
  if (min < 60) return i18n.t("stale-ago-minutes", { n: min });
  const h = Math.floor(min / 60);
  if (h < 48) return i18n.t("stale-ago-hours", { n: h });
  return i18n.t("stale-ago-days", { n: Math.floor(h / 24) });
}

/** "as of 12:03 UTC, 4 min ago — the market service is slow", for the oldest of `served`. */
export function staleNote(served: readonly StaleServed[], now: number, i18n: Translator): string | undefined {
  let oldest: StaleServed | undefined;
  for (const s of served) if (oldest === undefined || s.fetchedAt < oldest.fetchedAt) oldest = s;
  if (oldest === undefined) return undefined;
  const clock = new Date(oldest.fetchedAt).toISOString().slice(11, 16);
  return i18n.t("stale-note", { clock, ago: ago(now - oldest.fetchedAt, i18n), why: i18n.t(`stale-why-${oldest.why}`) });
}

/** `reply` saying first how old its data is and why, when the ask was served older data. */
export function withStaleNote(reply: Reply, ask: Ask, now: number, i18n: Translator): Reply {
  if (reply.error !== undefined) return reply;
  const note = staleNote(ask.stale, now, i18n);
  if (note === undefined) return reply;
  return {
    ...reply,
    blocks: [{ kind: "text", text: note }, ...reply.blocks],
    footer: reply.footer === undefined ? undefined : { ...reply.footer, stale: true },
  };
}

/**
 * Runs `fn` so that a call of its lookups that would take the turn of the call after it (the
 * price after the searches that found its tokens) is refused at once instead, and the answer has
 * something to show. The scheduler keeps that turn (Ask.leaveOneTurn): one turn of the plan's
 * pace, a second on the free plan and nothing without a limit; the wait for an answer is not cut.
 */
export function leavingRoomForOneCall<T>(fn: () => Promise<T>): Promise<T> {
  const ask = currentAsk();
  if (ask?.deadline === undefined) return fn();
  return asking({ ...ask, leaveOneTurn: true }, fn);
}

/** How fresh the answer to `ask` was; `error` when the command failed. A person's own mistake is answered as fresh as any. */
export function freshnessOf(ask: Ask, error?: unknown): Freshness {
  if (error === undefined || isUserError(error) || (isMarketError(error) && error.kind === "not_found")) {
    return ask.stale.length > 0 ? "stale" : "fresh";
  }
  return lateReason(error) === undefined ? "failed" : "busy";
}
