/**
 * Exact highs and lows of a price path over any span. The walk is linear between minute
 * knots, so a span's extremes sit on its two ends or on the whole minutes inside it: every
 * K-line interval and the 24h range read the same knots and agree. Whole hours and days of
 * knots are reduced once and remembered, so a 30-day candle costs a few lookups.
 */
import { LRUCache } from "lru-cache";
import { entryBound } from "../lru-bound.js";
import { pricesAtMinutes, priceAt } from "./walk.js";
import type { SandboxPair, SandboxToken } from "./types.js";
import type { KlineCategory } from "../market/limits.js";

/** A price path: its value at any second and, the same numbers, at runs of whole minutes. */
export interface PricePath {
  /** Names the path in the cache: equal ids must mean equal prices. */
  id: string;
  at(t: number): number;
  /** Prices at the `n` whole minutes from epoch minute `m0` on. */
  minutes(m0: number, n: number): Float64Array;
}

export interface Range {
  low: number;
  high: number;
}

/** The USD path of `token`, of `pair`'s target on that pair, or its price in the pair's quote (r) or the native coin (m). */
export function pathOf(token: SandboxToken, pair: SandboxPair | undefined, category: KlineCategory, native: SandboxToken | undefined): PricePath {
  const scale = pair ? 1 + pair.spread : 1;
  const base: PricePath = {
    // Moves change the path: its remembered ranges must not stand for the moved one.
    id: `${pair ? `p${pair.key}` : `t${token.key}`}~${token.moves?.length ?? 0}`,
    at: (t) => (pair ? priceAt(token, t) * scale : priceAt(token, t)),
    minutes: (m0, n) => {
      const out = pricesAtMinutes(token, m0, n);
      if (pair) for (let j = 0; j < n; j++) out[j] = (out[j] as number) * scale;
      return out;
    },
  };
  const over = category === "r" && pair ? pair.quote : category === "m" ? native : undefined;
  if (!over) return base;
  return {
    id: `${base.id}/${over.key}~${over.moves?.length ?? 0}`,
    at: (t) => base.at(t) / priceAt(over, t),
    minutes: (m0, n) => {
      const out = base.minutes(m0, n);
      const q = pricesAtMinutes(over, m0, n);
      for (let j = 0; j < n; j++) out[j] = (out[j] as number) / (q[j] as number);
      return out;
    },
  };
}

const HOUR = 60;
const DAY = 1_440;

/** Remembers the range of whole hours and days of each path (most recently used first). */
export class Extremes {
  private readonly blocks = new LRUCache<string, Range>(entryBound(200_000));

  /** Lowest and highest price of `path` over [a, e] (epoch seconds, a ≤ e). */
  range(path: PricePath, a: number, e: number): Range {
    const pa = path.at(a);
    const pe = path.at(e);
    const r = { low: Math.min(pa, pe), high: Math.max(pa, pe) };
    const last = Math.floor(e / 60);
    let m = Math.ceil(a / 60);
    while (m <= last) {
      if (m % DAY === 0 && m + DAY - 1 <= last) {
        this.merge(r, this.block(path, m, DAY));
        m += DAY;
      } else if (m % HOUR === 0 && m + HOUR - 1 <= last) {
        this.merge(r, this.block(path, m, HOUR));
        m += HOUR;
      } else {
        const n = Math.min(last + 1, (Math.floor(m / HOUR) + 1) * HOUR) - m;
        this.merge(r, reduce(path.minutes(m, n)));
        m += n;
      }
    }
    return r;
  }

  private block(path: PricePath, m0: number, n: number): Range {
    const key = `${path.id}:${m0}:${n}`;
    let r = this.blocks.get(key);
    if (!r) {
      r = reduce(path.minutes(m0, n));
      this.blocks.set(key, r);
    }
    return r;
  }

  private merge(into: Range, r: Range): void {
    if (r.low < into.low) into.low = r.low;
    if (r.high > into.high) into.high = r.high;
  }
}

function reduce(prices: Float64Array): Range {
  let low = Infinity;
  let high = -Infinity;
  for (const p of prices) {
    if (p < low) low = p;
    if (p > high) high = p;
  }
  return { low, high };
}
