/**
 * How many swap calls an interval rule makes, and what delay it gives, in steady state: a replay
 * of the watched pairs' swap streams over hours before the benchmark's window, each poll answered
 * at once and no share limiting it. The window itself is a minute after a cold start, too short
 * for a pair's back-off to settle, so its calls an hour say little about what a rule costs.
 */
import { baseInterval, type PlanOptions } from "../src/buys/plan.js";
import { readSwap } from "../src/buys/trade.js";
import { wants } from "../src/buys/watcher.js";
import type { SwapTx } from "../src/market/schemas.js";
import type { SandboxToken } from "../src/sandbox/index.js";
import { swapTxs } from "../src/sandbox/series.js";
import type { BuyOptions } from "../src/store/types.js";

export interface ReplayFollow {
  chatId: string;
  token: SandboxToken;
  pairs: string[];
  options: BuyOptions;
}

/** One watched pair's stream: every swap's second, and the seconds of the buys owed with how many chats each is owed to. */
export interface Stream {
  trades: number[];
  owed: { at: number; chats: number }[];
}

/** What a rule decides from: the newest trade seen, and the owed buys and seconds polled, each decayed. */
export interface ReplayState {
  lastTradeAt?: number;
  cursor: number;
  owed: number;
  seconds: number;
}

export type Rule = (s: ReplayState, nowSeconds: number) => number;

export interface ReplayResult {
  callsPerHour: number;
  /** Over every owed (chat, swap), seconds from the trade to the poll that read it. */
  p50: number;
  p95: number;
  /** The median over pairs of each pair's own p95: what a smaller token's group sees. */
  pairP95Median: number;
}

export const REPLAY_PAGE = 300;
/** Half-life of the owed-buy rate a rate rule reads, seconds. */
const HALF_LIFE = 600;

/** The watched pairs' streams in [from, to] (epoch s): each swap, and each buy with the chats it is owed to. */
export function streams(fs: readonly ReplayFollow[], from: number, to: number): Stream[] {
  const out: Stream[] = [];
  const seen = new Set<string>();
  for (const f of fs) {
    for (const pairId of f.pairs) {
      if (seen.has(pairId)) continue;
      seen.add(pairId);
      const pair = f.token.pairs.find((p) => p.id === pairId);
      if (pair === undefined) continue;
      const feeds = fs
        .filter((g) => g.pairs.includes(pairId))
        .map((g) => ({ platform: "telegram" as const, chatId: g.chatId, tokenId: g.token.id, symbol: "", chain: "", options: g.options, createdAt: 0 }));
      const stream: Stream = { trades: [], owed: [] };
      for (const rec of swapTxs(pair, { limit: Number.MAX_SAFE_INTEGER, fromTime: from, toTime: to, sort: "asc" }, to)) {
        const read = readSwap(f.token.id, pairId, rec as SwapTx);
        if (!("trade" in read)) continue;
        stream.trades.push(read.trade.txTime);
        const chats = feeds.filter((feed) => wants(feed, read.trade)).length;
        if (chats > 0) stream.owed.push({ at: read.trade.txTime, chats });
      }
      out.push(stream);
    }
  }
  return out;
}

/** Replays `rule` over `streams` from `from` to `to`, counting calls and delays after `warm`. */
export function replay(ss: readonly Stream[], rule: Rule, from: number, warm: number, to: number): ReplayResult {
  let calls = 0;
  const delays: { d: number; n: number }[] = [];
  const pairP95: number[] = [];
  ss.forEach((s, i) => {
    const mine: number[] = [];
    const state: ReplayState = { cursor: from, owed: 0, seconds: 0 };
    let t = from + (i % 15);
    let last = from;
    let ti = 0;
    let oi = 0;
    while (t < to) {
      let fresh = 0;
      while (ti < s.trades.length && (s.trades[ti] as number) <= t) {
        state.lastTradeAt = s.trades[ti++];
        fresh++;
      }
      if (t >= warm) calls += Math.max(1, Math.ceil(fresh / REPLAY_PAGE));
      let owed = 0;
      while (oi < s.owed.length && (s.owed[oi] as { at: number }).at <= t) {
        const o = s.owed[oi++] as { at: number; chats: number };
        owed += o.chats;
        if (o.at >= warm) {
          delays.push({ d: t - o.at, n: o.chats });
          mine.push(t - o.at);
        }
      }
      const decay = 2 ** (-(t - last) / HALF_LIFE);
      state.owed = state.owed * decay + owed;
      state.seconds = state.seconds * decay + (t - last);
      state.cursor = Math.max(state.cursor, state.lastTradeAt ?? state.cursor);
      last = t;
      t += rule(state, t);
    }
    if (mine.length > 0) pairP95.push(quantile(mine.sort((a, b) => a - b), 0.95));
  });
  delays.sort((a, b) => a.d - b.d);
  const total = delays.reduce((n, x) => n + x.n, 0);
  const at = (q: number): number => {
    let acc = 0;
    for (const x of delays) if ((acc += x.n) >= q * total) return x.d;
    return 0;
  };
  return { callsPerHour: (calls * 3600) / (to - warm), p50: at(0.5), p95: at(0.95), pairP95Median: quantile(pairP95.sort((a, b) => a - b), 0.5) };
}

/**
 * The value at `q` of `sorted` by the lower rank, ⌊q·(n−1)⌋, as BENCHMARKS.md's replay figures
 * were read. measure.ts's `percentile` takes the nearest rank above, which for a pair with a
 * handful of owed buys is its slowest.
 */
const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? 0;

/** The feed's own rule (src/buys/plan.ts): every `pollSeconds` after a trade, backing off with the quiet. */
export const feedRule = (o: PlanOptions): Rule => (s, now) => baseInterval({ pairId: "", tokenId: "", cursor: s.cursor, nextPollAt: 0, ...(s.lastTradeAt === undefined ? {} : { lastTradeAt: s.lastTradeAt }) }, now, o);

/**
 * A rule that polls a pair when about `k` owed buys are expected since its last poll, by the
 * pair's recent rate of owed buys (one buy per `pollSeconds` assumed before any is seen), within
 * the same bounds: a pair that trades, but rarely at the chats' minimums, waits longer.
 */
export const rateRule = (o: PlanOptions, k: number): Rule => (s) => {
  const rate = (s.owed + k) / (s.seconds + o.pollSeconds);
  return Math.min(o.maxPollSeconds, Math.max(o.pollSeconds, k / rate));
};

/**
 * The fewest polls an hour that read every owed buy within `seconds` of its trade, by a feed
 * that knew every trade's second beforehand: each poll goes `seconds` after the oldest owed buy
 * not yet read, which reads every one traded in between (the greedy cover, which no schedule beats).
 */
export function fewestPolls(ss: readonly Stream[], seconds: number, warm: number, to: number): number {
  let polls = 0;
  for (const s of ss) {
    let readUpTo = Number.NEGATIVE_INFINITY;
    for (const o of s.owed) {
      if (o.at < warm || o.at <= readUpTo) continue;
      readUpTo = o.at + seconds;
      polls++;
    }
  }
  return (polls * 3600) / (to - warm);
}
