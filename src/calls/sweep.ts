/**
 * One sweep: for each token called in the last 7 days, its K-line from where the sweep last
 * read it (the call, the first time) to now, in one call at the finest interval that spans
 * it, and each of its calls keeps the highest `high` from the call's minute on. A wick between
 * two sweeps is in the K-line's high even when the price now is flat, which sampling prices
 * would miss.
 */
import type { Logger } from "pino";
import type { MarketApi } from "../market/api.js";
import { LIMITS } from "../market/limits.js";
import type { KlinePoint } from "../market/schemas.js";
import type { Call, CallRead, CallStore } from "../store/types.js";
import { readPrice } from "./reading.js";
import { MINUTE_MS, SWEPT_FOR_MS } from "./rules.js";
import { effectivePeriod, finestInterval, KLINE_UNITS, readsPerPeriod, type SweepPlan } from "./sweep-plan.js";

export interface SweepDeps {
  /** K-lines through the scheduler's digest lane. */
  market: Pick<MarketApi, "tokenKline">;
  store: CallStore;
  now(): number;
  log: Logger;
  /** The configured period (`CALLS_SWEEP_MINUTES`), ms. */
  periodMs: number;
  plan: SweepPlan;
  /** K-line reads in flight at once; the scheduler paces them anyway. Default 4. */
  concurrency?: number;
}

/** What one sweep did. */
export interface SweepResult {
  /** Tokens called in the last 7 days. */
  tokens: number;
  /** Tokens read this time (the others wait for a later period). */
  read: number;
  /** K-line calls made, and their compute units. */
  klineCalls: number;
  units: number;
  /** Reads that failed; those tokens are read first next time. */
  failed: number;
  /** The period each token is read in now, ms. */
  periodMs: number;
}

/** The new high, close and read time of each call of a token, from the K-line points read. */
export function readsFrom(calls: readonly Call[], points: readonly KlinePoint[], at: number): CallRead[] {
  const last = points.at(-1);
  const close = last === undefined ? undefined : readPrice(last.close) === undefined ? undefined : last.close;
  return calls.map((call) => {
    const callMinute = Math.floor(call.calledAt / MINUTE_MS) * 60;
    let high = call.high;
    let highAt = call.highAt;
    let best = readPrice(call.high) ?? 0;
    for (const p of points) {
      // A bucket that starts before the call's minute holds prices from before the call.
      if (p.time < callMinute) continue;
      const h = readPrice(p.high);
      if (h !== undefined && h > best) {
        best = h;
        high = p.high;
        highAt = p.time * 1000;
      }
    }
    const lastPrice = close ?? call.lastPrice ?? call.price;
    return { callId: call.id, high, ...(highAt === undefined ? {} : { highAt }), lastPrice, sweptTo: at };
  });
}

/** Runs one sweep; never rejects for one token's failure. */
export async function sweepOnce(deps: SweepDeps): Promise<SweepResult> {
  const at = deps.now();
  const since = at - SWEPT_FOR_MS;
  const due = await deps.store.tokensToSweep(since);
  const perPeriod = readsPerPeriod(deps.plan, deps.periodMs);
  const periodMs = effectivePeriod(due.length, perPeriod, deps.periodMs);
  const chosen = due.slice(0, perPeriod === Infinity ? due.length : perPeriod);
  let klineCalls = 0;
  let failed = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < chosen.length) {
      const token = chosen[next++] as (typeof chosen)[number];
      try {
        const interval = finestInterval(token.from, at);
        const size = interval * 60;
        klineCalls++;
        const kline = await deps.market.tokenKline({
          tokenId: token.tokenId, interval, limit: LIMITS.kline.max,
          fromTime: Math.floor(token.from / 1000 / size) * size, toTime: Math.floor(at / 1000),
        });
        const calls = await deps.store.tokenCalls(token.tokenId, since);
        await deps.store.saveReads(readsFrom(calls, kline.points, at));
      } catch (e) {
        failed++;
        deps.log.warn({ err: e instanceof Error ? e.message : String(e), tokenId: token.tokenId }, "calls sweep could not read a token's K-line");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 4) }, worker));
  await deps.store.setSweepStatus({ ranAt: at, periodMs, tokens: due.length });
  return { tokens: due.length, read: chosen.length, klineCalls, units: klineCalls * KLINE_UNITS, failed, periodMs };
}
