/**
 * Prices and volumes as pure functions of token and time, so that no history is stored and
 * every view (K-lines of any interval, changes per window, swaps, rankings) reads the same
 * path.
 *
 * The log price is a sum of piecewise-linear noise at scales from a minute to a year, each
 * knot a hash of (token, scale, knot index): a random walk that is bounded over years and
 * exact at any second. The volume rate is a sum of sines, whose integral has a closed form,
 * so the volume of any window is exact and windows add up.
 */
import { hash3, hash32 } from "./rng.js";
import type { SandboxPair, SandboxToken } from "./types.js";

const SCALES = [60, 900, 14_400, 86_400, 604_800, 2_592_000, 31_536_000] as const;
// Brownian-like: amplitude grows with the square root of the scale, capped for the long ones.
const AMPS = SCALES.map((s) => Math.min(Math.sqrt(s / 86_400), 2.5));

function knot(key: number, scale: number, i: number): number {
  return (hash3(key, scale, i) / 4294967296) * 2 - 1;
}

/** Log of price / basePrice at `t` (epoch seconds). */
function logOffset(token: SandboxToken, t: number): number {
  if (token.volatility === 0) return 0;
  let sum = 0;
  for (let k = 0; k < SCALES.length; k++) {
    const s = SCALES[k] as number;
    const x = t / s;
    const i = Math.floor(x);
    const f = x - i;
    const a = knot(token.priceKey, k, i);
    const b = knot(token.priceKey, k, i + 1);
    sum += (AMPS[k] as number) * (a + (b - a) * f);
  }
  return token.volatility * sum;
}

/** Log of the moves' factor at whole minute `m`. */
function moveAtMinute(token: SandboxToken, m: number): number {
  let sum = 0;
  for (const mv of token.moves ?? []) if (m >= mv.fromMinute && m <= mv.toMinute) sum += Math.log(mv.factor);
  return sum;
}

/** Log of the moves' factor at `t` (epoch seconds): linear between the minute knots around it. */
function moveOffset(token: SandboxToken, t: number): number {
  if (token.moves === undefined || token.moves.length === 0) return 0;
  const x = t / 60;
  const i = Math.floor(x);
  const a = moveAtMinute(token, i);
  return a + (moveAtMinute(token, i + 1) - a) * (x - i);
}

/** The token's USD price at `t` (epoch seconds); before launch, its launch price. */
export function priceAt(token: SandboxToken, t: number): number {
  const at = Math.max(t, token.launchAt);
  return token.basePrice * Math.exp(logOffset(token, at) + moveOffset(token, at));
}

/**
 * priceAt at the `n` whole minutes from epoch minute `m0` on, bit for bit, hashing each knot
 * once instead of twice per scale and minute: the walk's extremes sit on minute knots, and a
 * day's range needs all 1,440 of them.
 */
export function pricesAtMinutes(token: SandboxToken, m0: number, n: number): Float64Array {
  const out = new Float64Array(n);
  if (m0 * 60 < token.launchAt) {
    for (let j = 0; j < n; j++) out[j] = priceAt(token, (m0 + j) * 60);
    return out;
  }
  if (token.volatility !== 0) {
    for (let k = 0; k < SCALES.length; k++) {
      const s = SCALES[k] as number;
      const amp = AMPS[k] as number;
      let at = Number.NaN;
      let a = 0;
      let b = 0;
      for (let j = 0; j < n; j++) {
        const x = ((m0 + j) * 60) / s;
        const i = Math.floor(x);
        const f = x - i;
        if (i !== at) {
          a = i === at + 1 ? b : knot(token.priceKey, k, i);
          b = knot(token.priceKey, k, i + 1);
          at = i;
        }
        out[j] = (out[j] as number) + amp * (a + (b - a) * f);
      }
    }
  }
  for (let j = 0; j < n; j++) out[j] = token.basePrice * Math.exp(token.volatility === 0 ? 0 : token.volatility * (out[j] as number));
  if (token.moves !== undefined && token.moves.length > 0) for (let j = 0; j < n; j++) out[j] = (out[j] as number) * Math.exp(moveAtMinute(token, m0 + j));
  return out;
}

/** The pair's USD price of its target token at `t`. */
export function pairPriceAt(pair: SandboxPair, t: number): number {
  return priceAt(pair.target, t) * (1 + pair.spread);
}

const PERIODS = [420, 1_380, 6_120, 19_080, 86_400, 267_840] as const;
const WEIGHTS = [0.12, 0.14, 0.16, 0.18, 0.14, 0.11] as const;

const phaseCache = new WeakMap<SandboxToken, number[]>();

function phases(token: SandboxToken): number[] {
  let p = phaseCache.get(token);
  if (!p) {
    p = PERIODS.map((_, j) => (hash32(token.key, 100 + j) / 4294967296) * 2 * Math.PI);
    phaseCache.set(token, p);
  }
  return p;
}

/** USD traded in [a, e) (epoch seconds), counting only time after launch. */
export function volumeBetween(token: SandboxToken, a: number, e: number): number {
  const from = Math.max(a, token.launchAt);
  if (e <= from) return 0;
  return token.volumeRate * (integral(token, e) - integral(token, from));
}

/**
 * Trades of `pair` since it opened, up to epoch second `t`, as a fraction: its n-th trade
 * happens in the first whole second this reaches n. Swap lists and every transaction count
 * read this one clock, so they agree.
 */
export function tradesUpTo(pair: SandboxPair, t: number): number {
  const token = pair.target;
  if (t <= Math.max(pair.createdAt, token.launchAt)) return 0;
  return (token.volumeRate * (integral(token, t) - opening(pair)) * pair.share) / token.tradeSize;
}

/** The volume rate's integral up to `t`, over volumeRate, up to a constant: volumeBetween and tradesUpTo are its differences. */
function integral(token: SandboxToken, t: number): number {
  const phase = phases(token);
  let v = t;
  for (let j = 0; j < PERIODS.length; j++) {
    const w = (2 * Math.PI) / (PERIODS[j] as number);
    v -= ((WEIGHTS[j] as number) / w) * Math.cos(w * t + (phase[j] as number));
  }
  return v;
}

const openings = new WeakMap<SandboxPair, number>();

/** integral() at the pair's first trading second, computed once. */
function opening(pair: SandboxPair): number {
  let v = openings.get(pair);
  if (v === undefined) {
    v = integral(pair.target, Math.max(pair.createdAt, pair.target.launchAt));
    openings.set(pair, v);
  }
  return v;
}

/** Number of trades of `pair` in the seconds (a, e]. */
export function tradeCount(pair: SandboxPair, a: number, e: number): number {
  return Math.floor(tradesUpTo(pair, e)) - Math.floor(tradesUpTo(pair, a));
}

/** Share of a window's volume that was buying: leans with the window's price move. */
export function buyShare(change: number): number {
  return 0.5 + 0.3 * Math.tanh(change * 5);
}

export const WINDOWS = { "5m": 300, "1h": 3_600, "4h": 14_400, "24h": 86_400 } as const;
export type WindowName = keyof typeof WINDOWS;

export interface WindowStats {
  /** Percent change of the price over the window. */
  change: number;
  volume: number;
  buyVolume: number;
  sellVolume: number;
  txCount: number;
  buyTxCount: number;
  sellTxCount: number;
  buyers: number;
  sellers: number;
  makers: number;
}

/** Everything about a token at one second: the view all records and rankings share. */
export interface Snapshot {
  t: number;
  price: number;
  windows: Record<WindowName, WindowStats>;
}

function windowStats(token: SandboxToken, now: number, seconds: number, price: number, tradesNow: readonly number[]): WindowStats {
  const before = priceAt(token, now - seconds);
  const ratio = before > 0 ? price / before - 1 : 0;
  const volume = volumeBetween(token, now - seconds, now);
  const share = buyShare(ratio);
  let txCount = 0;
  token.pairs.forEach((p, i) => (txCount += (tradesNow[i] as number) - Math.floor(tradesUpTo(p, now - seconds))));
  const buyTxCount = Math.round(txCount * share);
  const sellTxCount = txCount - buyTxCount;
  const buyers = Math.round(buyTxCount * 0.7);
  const sellers = Math.round(sellTxCount * 0.7);
  return {
    change: ratio * 100,
    volume,
    buyVolume: volume * share,
    sellVolume: volume * (1 - share),
    txCount,
    buyTxCount,
    sellTxCount,
    buyers,
    sellers,
    makers: buyers + sellers,
  };
}

/** The token's state at `now` (epoch seconds). */
export function snapshot(token: SandboxToken, now: number): Snapshot {
  const price = priceAt(token, now);
  const tradesNow = token.pairs.map((p) => Math.floor(tradesUpTo(p, now)));
  return {
    t: now,
    price,
    windows: {
      "5m": windowStats(token, now, WINDOWS["5m"], price, tradesNow),
      "1h": windowStats(token, now, WINDOWS["1h"], price, tradesNow),
      "4h": windowStats(token, now, WINDOWS["4h"], price, tradesNow),
      "24h": windowStats(token, now, WINDOWS["24h"], price, tradesNow),
    },
  };
}
