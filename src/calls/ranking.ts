/**
 * A board's ranking of its callers. A caller is judged by the share of calls that at least
 * doubled (hit rate), then by the median high multiple, so one lucky moon does not make a
 * caller; then more calls, then whoever called first.
 */
import type { Call } from "../store/types.js";
import { multipleAsShown } from "./names.js";
import { HIT_MULTIPLE, multipleOf } from "./rules.js";

/** One caller's line on the board. */
export interface CallerRow {
  userId: string;
  /** The name of their latest call on the board. */
  userName: string;
  calls: number;
  hits: number;
  /** hits / calls. */
  hitRate: number;
  /** Median high multiple; of an even count, the mean of the middle two. */
  median: number;
  /** The call with the highest high multiple, and that multiple. */
  best: { call: Call; multiple: number };
  /** When their first call in the period was made. */
  firstAt: number;
}

/** The median of `values` (not empty); of an even count, the mean of the middle two. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A call's high multiple: 1 before the sweep has read past the call price. */
export function highMultiple(call: Call): number {
  return Math.max(1, multipleOf(call.price, call.high) ?? 1);
}

/** The board: every caller of `calls`, best first. */
export function rankCallers(calls: readonly Call[]): CallerRow[] {
  const byUser = new Map<string, Call[]>();
  for (const c of calls) {
    const list = byUser.get(c.userId);
    if (list === undefined) byUser.set(c.userId, [c]);
    else list.push(c);
  }
  const rows: CallerRow[] = [];
  for (const [userId, list] of byUser) {
    const multiples = list.map(highMultiple);
    const hits = multiples.filter((m) => m >= HIT_MULTIPLE).length;
    let best = 0;
    multiples.forEach((m, i) => {
      if (m > (multiples[best] as number)) best = i;
    });
    const latest = list.reduce((a, b) => (b.calledAt >= a.calledAt ? b : a));
    rows.push({
      userId,
      userName: latest.userName,
      calls: list.length,
      hits,
      hitRate: hits / list.length,
      median: median(multiples),
      best: { call: list[best] as Call, multiple: multiples[best] as number },
      firstAt: Math.min(...list.map((c) => c.calledAt)),
    });
  }
  // By the hit rate and median as the board writes them (whole percents, the multiple's
  // decimals): rows that read "0% 1.0×" go by more calls, as the board's footer says.
  const shown = (r: CallerRow): [number, number] => [Math.round(r.hitRate * 100), multipleAsShown(r.median)];
  return rows.sort((a, b) => {
    const [aRate, aMedian] = shown(a);
    const [bRate, bMedian] = shown(b);
    return bRate - aRate || bMedian - aMedian || b.calls - a.calls || a.firstAt - b.firstAt;
  });
}
