/**
 * How much of the plan the sweep may spend, and how it reads a span in one call. The sweep
 * takes at most a quarter of the key's requests and of its day's compute units, on the digest
 * lane below people and alerts; when that share cannot read every called token each period,
 * each token is read every few periods instead, evenly, the one read longest ago first.
 */
import { COMPUTE_UNITS, KLINE_INTERVALS_V2, LIMITS, type KlineIntervalV2 } from "../market/limits.js";
import { DAY_MS, MINUTE_MS } from "./rules.js";

/** The sweep's share of the plan's requests and of the day's units. */
export const SWEEP_SHARE = 0.25;
/** Compute units of one K-line read. */
export const KLINE_UNITS = COMPUTE_UNITS.tokenKline ?? 10;

/** The key's plan as the scheduler paces it. */
export interface SweepPlan {
  /** Requests per second; undefined = not paced. */
  rps?: number;
  /** Compute units per UTC day; undefined = not paced. */
  dailyUnits?: number;
}

/** K-line reads one period may make within the sweep's share; Infinity when nothing paces the key. */
export function readsPerPeriod(plan: SweepPlan, periodMs: number): number {
  const byRate = plan.rps === undefined ? Infinity : Math.floor(plan.rps * SWEEP_SHARE * (periodMs / 1000));
  const byUnits = plan.dailyUnits === undefined ? Infinity : Math.floor((plan.dailyUnits * SWEEP_SHARE * (periodMs / DAY_MS)) / KLINE_UNITS);
  return Math.max(1, Math.min(byRate, byUnits));
}

/** The period each token is read in: `periodMs`, or a whole multiple of it when `tokens` exceed what a period reads. */
export function effectivePeriod(tokens: number, perPeriod: number, periodMs: number): number {
  return perPeriod === Infinity || tokens <= perPeriod ? periodMs : periodMs * Math.ceil(tokens / perPeriod);
}

/** The finest K-line interval whose buckets from `from` to `to` (epoch ms) fit in one call. */
export function finestInterval(from: number, to: number): KlineIntervalV2 {
  for (const interval of KLINE_INTERVALS_V2) {
    const size = interval * MINUTE_MS;
    const buckets = Math.floor(to / size) - Math.floor(from / size) + 1;
    if (buckets <= LIMITS.kline.max) return interval;
  }
  return KLINE_INTERVALS_V2[KLINE_INTERVALS_V2.length - 1] as KlineIntervalV2;
}
