/**
 * Time series computed on demand from the price walk: K-line buckets of any interval and
 * the swaps of a pair. A bucket's high and low are exact (so every interval agrees); a
 * 1-minute bucket's volume is exactly the sum of its swaps (the running minute's, of the
 * swaps made so far); the last bucket's close is the current price; buckets before the first
 * trade are absent. A swap's amounts are fixed from the second it is made, as on a real DEX.
 */
import { dec } from "./format.js";
import { evmAddress, hash32, solanaAddress, tronAddress, txHash, unit } from "./rng.js";
import { pathOf } from "./extremes.js";
import { buyShare, pairPriceAt, priceAt, tradesUpTo, volumeBetween } from "./walk.js";
import { walletOf } from "./wallets.js";
import type { KlineCategory } from "../market/limits.js";
import type { Market } from "./market.js";
import type { PlacedSwaps } from "./placed-swaps.js";
import type { Rec } from "./records.js";
import type { SandboxPair, SandboxToken } from "./types.js";

export interface KlineQuery {
  /** Minutes. */
  interval: number;
  limit: number;
  /** Epoch seconds; -1 for no lower bound. */
  fromTime: number;
  /** Epoch seconds. */
  toTime: number;
  category: KlineCategory;
}

/** K-line points of a pair (or, with `pair` undefined, of the token itself), ascending. */
export function klinePoints(market: Market, token: SandboxToken, pair: SandboxPair | undefined, q: KlineQuery, now: number): Rec[] {
  if (token.pairs.length === 0) return [];
  const path = pathOf(token, pair, q.category, market.native(token.chain));
  const share = pair ? pair.share : 1;
  const start = pair ? pair.createdAt : token.launchAt;
  const size = q.interval * 60;
  const lower = Math.max(q.fromTime, start);
  const out: Rec[] = [];
  for (let b = Math.floor(Math.min(q.toTime, now) / size) * size; b + size > lower && out.length < q.limit; b -= size) {
    const a = Math.max(b, start);
    const e = Math.min(b + size, now);
    const open = path.at(a);
    const close = path.at(e);
    const { high, low } = market.extremes.range(path, a, e);
    out.push({
      open: dec(open), high: dec(high), low: dec(low), close: dec(close),
      volume: dec(b + size > now ? runningVolume(token, pair, a, now) : volumeBetween(token, a, e) * share, 12), time: b,
    });
  }
  return out.reverse();
}

/**
 * USD traded from `a` to `now` in the bucket holding the running minute: the walk's volume up
 * to that minute, then the trades made in it so far (of `pair`, or of all the token's pairs),
 * so the candle is the sum of the swaps served and grows only when one is made.
 */
function runningVolume(token: SandboxToken, pair: SandboxPair | undefined, a: number, now: number): number {
  const m = Math.floor(now / 60);
  let sum = volumeBetween(token, a, m * 60) * (pair ? pair.share : 1);
  for (const p of pair ? [pair] : token.pairs) {
    for (const t of tradesInMinute(p, m)) if (t.time >= a && t.time <= now) sum += t.amount;
  }
  return sum;
}

interface Trade {
  time: number;
  index: number;
  amount: number;
  buy: boolean;
}

/**
 * Every trade of `pair` in minute `m` (epoch minutes), ascending, whether or not its second
 * has come: the trade clock (tradesUpTo) places them, and they share the whole minute's
 * volume, so a trade's amount does not depend on when it is read. Callers keep those up to now.
 */
function tradesInMinute(pair: SandboxPair, m: number): Trade[] {
  const t0 = m * 60;
  const from = Math.max(t0, pair.createdAt);
  const end = t0 + 59;
  if (end < from) return [];
  const token = pair.target;
  const moved = priceAt(token, t0 + 60) / priceAt(token, t0) - 1;
  const trades: (Trade & { w: number })[] = [];
  let before = Math.floor(tradesUpTo(pair, t0 - 1));
  for (let time = t0; time <= end; time++) {
    const upTo = Math.floor(tradesUpTo(pair, time));
    for (; before < upTo; before++) {
      const i = trades.length;
      trades.push({ time, index: i, amount: 0, buy: unit(pair.key, m, 3, i) < buyShare(moved * 50), w: 0.2 + 5 * unit(pair.key, m, 4, i) ** 3 });
    }
  }
  const volume = volumeBetween(token, from, t0 + 60) * pair.share;
  const sum = trades.reduce((s, t) => s + t.w, 0);
  for (const t of trades) t.amount = (volume * t.w) / sum;
  return trades;
}

export interface SwapQuery {
  limit: number;
  /** Epoch seconds; -1 for no lower bound. */
  fromTime: number;
  toTime: number;
  sort: "asc" | "desc";
}

function routerOf(pair: SandboxPair): string {
  const family = pair.target.chainDef.family;
  const key = hash32(pair.key, 55);
  return family === "solana" ? solanaAddress(key) : family === "tron" ? tronAddress(key) : evmAddress(key);
}

/**
 * The latest ≤ `limit` swaps of `pair` in [fromTime, toTime], then ordered by `sort`: its
 * synthetic stream (none once the pair is quiet) and the swaps a test placed on it.
 */
export function swapTxs(pair: SandboxPair, q: SwapQuery, now: number, placed?: PlacedSwaps): Rec[] {
  const end = Math.min(q.toTime, now);
  const lower = Math.max(q.fromTime, pair.createdAt);
  const synthetic = placed?.isQuiet(pair) ? [] : syntheticSwaps(pair, q.limit, lower, end);
  const extra = placed?.records(pair, lower, end, now) ?? [];
  let out = synthetic;
  if (extra.length > 0) {
    // Newest first; in one second the synthetic swaps come before the placed ones, always the same way.
    out = [...synthetic, ...extra.map((x) => x.rec)]
      .map((rec, i) => ({ rec, i, time: rec.tx_time as number }))
      .sort((a, b) => b.time - a.time || a.i - b.i)
      .slice(0, q.limit)
      .map((x) => x.rec);
  }
  return q.sort === "asc" ? out.reverse() : out;
}

/** The latest ≤ `limit` synthetic swaps of `pair` in [lower, end], newest first. */
function syntheticSwaps(pair: SandboxPair, limit: number, lower: number, end: number): Rec[] {
  const out: Rec[] = [];
  const first = Math.floor(tradesUpTo(pair, lower - 1));
  let m = Math.floor(end / 60);
  while (m * 60 + 60 > lower && out.length < limit) {
    const trades = tradesInMinute(pair, m).filter((t) => t.time >= lower && t.time <= end);
    for (let i = trades.length - 1; i >= 0 && out.length < limit; i--) out.push(swapRecord(pair, m, trades[i] as Trade));
    // A quiet pair may have gone years without a trade: jump to the minute of the one before.
    const prior = Math.floor(tradesUpTo(pair, m * 60 - 1));
    if (prior <= first) break;
    m = Math.floor(secondOfTrade(pair, prior, lower, m * 60 - 1) / 60);
  }
  return out;
}

/** The second of `pair`'s n-th trade, known to lie in [lo, hi]. */
function secondOfTrade(pair: SandboxPair, n: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (Math.floor(tradesUpTo(pair, mid)) >= n) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function swapRecord(pair: SandboxPair, m: number, t: Trade): Rec {
  const target = pair.target;
  const quote = pair.quote;
  const targetPrice = pairPriceAt(pair, t.time);
  const quotePrice = priceAt(quote, t.time);
  const [from, fromPrice, to, toPrice] = t.buy ? [quote, quotePrice, target, targetPrice] : [target, targetPrice, quote, quotePrice];
  const wallet = walletOf(target, 1 + (hash32(pair.key, m, 5, t.index) % 300));
  const chain = target.chainDef;
  return {
    amount_usd: dec(t.amount, 12), pair_liquidity_usd: dec(pair.liquidity, 12),
    from_token_price_usd: dec(fromPrice), from_token_amount: dec(t.amount / fromPrice, 12),
    from_token_reserve: dec(pair.liquidity / 2 / fromPrice, 12),
    to_token_price_usd: dec(toPrice), to_token_amount: dec(t.amount / toPrice, 12),
    to_token_reserve: dec(pair.liquidity / 2 / toPrice, 12),
    tx_time: t.time, block_number: Math.floor((t.time - 1_400_000_000) / chain.blockTime),
    chain: pair.chain, tx_hash: txHash(chain.family, pair.key, m, t.index), amm: pair.amm,
    sender_address: routerOf(pair), to_address: wallet, pair_address: pair.address,
    from_token_address: from.address, from_token_symbol: from.symbol, to_token_address: to.address, to_token_symbol: to.symbol,
    wallet_address: wallet,
  };
}

/** v1 liquidity records of `pair`: at most one add or remove an hour, latest first, ≤ `size`. */
export function liquidityEvents(pair: SandboxPair, size: number, now: number): Rec[] {
  const out: Rec[] = [];
  const chain = pair.target.chainDef;
  for (let h = Math.floor(now / 3600); h * 3600 >= pair.createdAt && out.length < size && h > Math.floor(now / 3600) - size * 4; h--) {
    if (unit(pair.key, h, 30) < 0.5) continue;
    const time = Math.min(now, h * 3600 + Math.floor(unit(pair.key, h, 31) * 3600));
    const amount = pair.liquidity * (0.001 + 0.05 * unit(pair.key, h, 32));
    const add = unit(pair.key, h, 33) < 0.55;
    const p0 = pairPriceAt(pair, time);
    const p1 = priceAt(pair.quote, time);
    const wallet = walletOf(pair.target, 1 + (hash32(pair.key, h, 34) % 300));
    out.push({
      type: add ? "add" : "remove", amount_usd: dec(amount, 12), pair_liquidity_usd: dec(pair.liquidity, 12),
      token0_address: pair.target.address, token0_symbol: pair.target.symbol, token0_amount: dec(amount / 2 / p0, 12),
      token1_address: pair.quote.address, token1_symbol: pair.quote.symbol, token1_amount: dec(amount / 2 / p1, 12),
      tx_time: time, block_number: Math.floor((time - 1_400_000_000) / chain.blockTime), chain: pair.chain,
      tx_hash: txHash(chain.family, pair.key, h, 99), amm: pair.amm, pair_address: pair.address, wallet_address: wallet,
    });
  }
  return out;
}
