/**
 * How often each watched pair is polled. A pair that traded lately is polled every
 * `pollSeconds`; a quiet one backs off with the time it has been quiet, up to
 * `maxPollSeconds`. When the feed's share of the plan cannot poll every pair that often, every
 * interval stretches by the same factor, so no pair starves and `/buys` can say how often.
 */
import type { PairWatch } from "../store/types.js";

export interface PlanOptions {
  /** Seconds between polls of a pair with recent trades (BUYS_POLL_SECONDS). */
  pollSeconds: number;
  /** Longest interval of a quiet pair (BUYS_MAX_POLL_SECONDS). */
  maxPollSeconds: number;
}

/** Polls a second the feed may make: its share of the rate and of the day's units; undefined = no limit. */
export interface PollBudget {
  /** Requests a second of the feed's lane. */
  rate?: number;
  /** Compute units a day of the feed's lane. */
  dailyUnits?: number;
}

/** Units of one swap-history call (service-notes.md). */
export const SWAP_CALL_UNITS = 50;
/** A poll may need a page back now and then: plan for this share of the budget. */
const HEADROOM = 0.8;

/** The interval a pair would get alone: short while it trades, longer the longer it is quiet. */
export function baseInterval(w: PairWatch, nowSeconds: number, o: PlanOptions): number {
  const quietFor = nowSeconds - (w.lastTradeAt ?? w.cursor);
  return Math.min(o.maxPollSeconds, Math.max(o.pollSeconds, Math.floor(quietFor / 2)));
}

/** Polls a second the budget allows, or undefined when nothing limits them. */
export function pollsPerSecond(b: PollBudget): number | undefined {
  const byRate = b.rate === undefined ? Number.POSITIVE_INFINITY : b.rate;
  const byUnits = b.dailyUnits === undefined ? Number.POSITIVE_INFINITY : b.dailyUnits / SWAP_CALL_UNITS / 86_400;
  const n = Math.min(byRate, byUnits);
  return Number.isFinite(n) ? n * HEADROOM : undefined;
}

/** The factor (≥ 1) every interval stretches by so that all pairs fit the budget. */
export function stretch(watches: readonly PairWatch[], nowSeconds: number, o: PlanOptions, b: PollBudget): number {
  const allowed = pollsPerSecond(b);
  if (allowed === undefined) return 1;
  const wanted = watches.reduce((sum, w) => sum + 1 / baseInterval(w, nowSeconds, o), 0);
  return Math.max(1, wanted / allowed);
}

/** Seconds until a pair's next poll, its own interval stretched by `factor`. */
export function stretchedInterval(w: PairWatch, nowSeconds: number, o: PlanOptions, factor: number): number {
  return Math.round(baseInterval(w, nowSeconds, o) * factor);
}

/** Seconds until each pair's next poll, stretched by `factor` (default: what the budget needs now). */
export function intervals(watches: readonly PairWatch[], nowSeconds: number, o: PlanOptions, b: PollBudget, factor = stretch(watches, nowSeconds, o, b)): Map<string, number> {
  return new Map(watches.map((w) => [w.pairId, stretchedInterval(w, nowSeconds, o, factor)]));
}
