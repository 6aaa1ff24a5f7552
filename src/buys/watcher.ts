/**
 * The buy feed's watcher: one for the whole bot, however many chats follow a token and however
 * many workers run (the lease `buy-watcher`, taken as the digest poster takes its own). Each tick
 * polls the pairs whose turn has come on the feed lane, reads their swaps as trades, and records
 * in one transaction per pair the buys each following chat is owed and the pair's new cursor:
 * a worker killed mid-poll leaves the cursor where it was, and the next poll (its own after a
 * restart, or another worker's) asks the same window again; the record keeps each buy once.
 * A poll cut by its page limit records what it left unread with the cursor (the pair's gaps);
 * the next polls read the new swaps first, then the gaps with the pages left, newest first.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import { asking, newAsk } from "../market/ask.js";
import type { MarketApi } from "../market/api.js";
import { FEED_LANE } from "../market/scheduler-lanes.js";
import type { BuyFeed, BuyFeedStore, NewOwedBuy, PairGap, PairWatch, Platform, SubscriptionStore } from "../store/types.js";
import { releaseAtStop } from "../workers/lease-keeper.js";
import { leadOrTakeOver } from "../workers/local-holder.js";
import { intervals, stretch, stretchedInterval, type PlanOptions, type PollBudget } from "./plan.js";
import { pollSwaps } from "./poll.js";
import { readSwap, swapKey, usdValue, type Trade } from "./trade.js";

export const WATCHER_LEASE = "buy-watcher";

/** Wallets of one token whose first buy is kept: past them no buy is called a wallet's first, and the record stays bounded. */
export const FIRST_BUY_WALLETS = 20_000;

/**
 * Longest one tick keeps polling. The feed lane paces each poll, so a tick over hundreds of due
 * pairs on a small plan would run for minutes, and the delivery turn that follows it (and the
 * lease's renewal at the next tick) would wait as long: what is left is polled next tick.
 */
export const TICK_BUDGET_MS = 5_000;

/**
 * Gaps a pair keeps at most. Only a pair trading faster than its polls can page opens one each
 * poll; past this many its two oldest become one, asking again what lay between them (owed
 * once by identity) rather than letting the record grow without end.
 */
export const MAX_GAPS = 10;

/**
 * How late a tick may find a pair due and still keep its cadence, while the share is not
 * stretched: ticks run about once a second, so a pair due between two waited for the next, and
 * planned from then each interval grew by that wait (a pair "polled every 15 s" was polled every
 * 16). Not made up: the wait behind other due pairs in the lane, nor any lateness once the share
 * is stretched, when the lane is full and polling sooner would only take from quieter pairs (on
 * the free plan it raised the feed's p95 delay by a sixth in the benchmark).
 */
export const CADENCE_SLACK_MS = 1_000;

/** How long a buy and a post with their outcome are kept, as digest deliveries are: a week. */
export const KEEP_BUYS_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Swaps remembered as counted for /metrics: those of the last polls of every pair, so that one
 * read again in the overlap is not counted twice (a restart counts its last minute once more).
 */
const COUNTED_SWAPS = 50_000;

/** What the watcher reports for /metrics and tests. */
export interface WatchEvents {
  polled?(e: { pairId: string; pages: number; intervalSeconds: number }): void;
  /** Swaps read for the first time (by identity, late-indexed ones included), and those of them skipped for a missing or non-finite amount_usd. */
  swaps?(e: { seen: number; skipped: number }): void;
  /** Buys recorded as owed to chats (new ones only). */
  owed?(n: number): void;
}

export interface WatcherOptions extends PlanOptions {
  buys: BuyFeedStore;
  leases: Pick<SubscriptionStore, "acquireLease" | "releaseLease" | "leaseHolder" | "takeOverLease">;
  market: Pick<MarketApi, "swaps">;
  /** The feed's share of the plan right now (scheduler.laneRate, units.dailyFor). */
  budget: () => PollBudget;
  /** Platforms running in this process: chats of others are left to the workers that run them. */
  platforms: readonly Platform[];
  logger: Logger;
  now?: () => number;
  /** Seconds each poll reaches back before the cursor, for swaps indexed late. Default 60. */
  overlapSeconds?: number;
  /** Swaps a page asks for. Default 300, the service's most. */
  pageSize?: number;
  /** Pages one poll may ask for, its gaps' included. Default 20. */
  maxPages?: number;
  /** Name on the lease. Default host:pid:random. */
  holder?: string;
  /** Lease time without renewal, ms. Default 45000. */
  leaseTtlMs?: number;
  events?: WatchEvents;
}

export interface Watcher {
  /** Takes or keeps the lease and polls the pairs whose turn has come; resolves with the pairs polled. */
  tick(): Promise<string[]>;
  /** Ticks every `everyMs` (default 1000) until stopped. */
  start(everyMs?: number): void;
  stop(): Promise<void>;
  leading(): boolean;
}

/** Whether the followed chat takes this trade. */
export function wants(feed: BuyFeed, t: Trade): boolean {
  if (t.txTime < Math.floor(feed.createdAt / 1000)) return false;
  if (t.side === "sell" && !feed.options.sells) return false;
  const usd = usdValue(t.amountUsd);
  const min = usdValue(feed.options.minUsd) ?? 0;
  return usd !== undefined && usd >= min;
}

/** At most MAX_GAPS gaps, newest first: the oldest two joined while there are more. */
function bounded(gaps: readonly PairGap[]): PairGap[] {
  const out = [...gaps];
  while (out.length > MAX_GAPS) {
    const [next, oldest] = out.splice(-2, 2);
    if (next !== undefined && oldest !== undefined) out.push({ after: oldest.after, to: next.to });
  }
  return out;
}

export function createWatcher(opts: WatcherOptions): Watcher {
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  const ttl = opts.leaseTtlMs ?? 45_000;
  const overlap = opts.overlapSeconds ?? 60;
  let pageSize = opts.pageSize ?? 300;
  const maxPages = opts.maxPages ?? 20;
  const log = opts.logger;
  let leading = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<string[]> | undefined;
  let lastPruned: number | undefined;
  const counted = new LRUCache<string, true>({ max: COUNTED_SWAPS });
  /**
   * Per pair, the buys its last poll here newly owed to chats a second since the poll before,
   * and when it ran: a due pair's likely debt now is that rate times the time since.
   */
  const owing = new Map<string, { perSecond: number; at: number }>();
  /** Chats following each due pair not polled here yet: what it owes, for want of its trades (after a start, every pair). */
  const followers = new Map<string, number>();

  /** The feeds following a pair on the platforms this bot posts to. */
  const feedsOn = async (pairId: string) => (await opts.buys.feedsOnPair(pairId)).filter((f) => opts.platforms.includes(f.platform));

  const lead = (t: number): Promise<boolean> => leadOrTakeOver(opts.leases, WATCHER_LEASE, holder, ttl, t, "buy watcher", log);

  /** One window of the pair's swaps, newest first, within the pages left. */
  const read = async (w: PairWatch, fromTime: number, toTime: number, pagesLeft: number) => {
    const res = await pollSwaps(opts.market, { pairId: w.pairId, fromTime, toTime, pageSize, maxPages: pagesLeft });
    if (res.pageSize < pageSize) {
      log.warn({ asked: pageSize, now: res.pageSize }, "the market data service refused a page of swaps this large: asking fewer from now on");
      pageSize = res.pageSize;
    }
    return res;
  };

  /** `factor`: what every interval stretches by this tick for the pairs to fit the budget; `tickAt`: when the tick found it due. */
  const poll = async (w: PairWatch, factor: number, tickAt: number): Promise<void> => {
    const t = now();
    const nowSeconds = Math.floor(t / 1000);
    const reads = await asking(newAsk(FEED_LANE), async () => {
      // The new swaps first, so that a pair catching up still posts what it trades now.
      const head = await read(w, w.cursor - overlap, nowSeconds, maxPages);
      const out = [{ res: head, after: w.cursor, before: Number.POSITIVE_INFINITY }];
      const gaps: PairGap[] = head.cutAt === undefined ? [] : [{ after: w.cursor, to: head.cutAt }];
      let pages = head.pages;
      let failed = false;
      for (const g of w.gaps ?? []) {
        if (failed || pages >= maxPages) {
          gaps.push(g);
          continue;
        }
        try {
          const res = await read(w, g.after - overlap, g.to, maxPages - pages);
          pages += res.pages;
          out.push({ res, after: g.after, before: g.to });
          if (res.cutAt !== undefined) gaps.push({ after: g.after, to: res.cutAt });
        } catch (e) {
          // Kept for the next poll: a gap the service will not serve now must not hold back the new swaps.
          log.warn({ err: e instanceof Error ? e.message : String(e), pair: w.pairId, gap: g }, "reading a buy feed gap failed");
          failed = true;
          gaps.push(g);
        }
      }
      return { out, gaps, pages };
    });
    for (const { res } of reads.out) {
      if (res.crowdedSecond !== undefined) log.warn({ pair: w.pairId, second: res.crowdedSecond }, "a full page of swaps in one second: the rest of it could not be asked for");
      if (res.stalled === true) log.warn({ pair: w.pairId, pages: res.pages }, "a page back of swaps brought none older: the service does not honour to_time, so older swaps of this poll cannot be read");
    }
    const gaps = bounded(reads.gaps);
    if (gaps.length < reads.gaps.length) log.warn({ pair: w.pairId, gaps: gaps.length }, "a pair trades faster than its polls can page: its two oldest gaps were joined");
    if (gaps.length > 0) log.info({ pair: w.pairId, pages: reads.pages, gaps }, "swaps its polls could not reach yet are left to the next polls");
    const feeds = await feedsOn(w.pairId);
    const owed: NewOwedBuy[] = [];
    let newest = w.cursor;
    let seen = 0;
    let skipped = 0;
    const trades = new Map<string, Trade>();
    for (const { res } of reads.out) {
      for (const tx of res.txs) {
        const txTime = tx.tx_time ?? 0;
        // Counted once by identity, not by time: a swap indexed late is older than the cursor when
        // first read, and one read again in the overlap is no new swap.
        const key = swapKey(w.pairId, tx);
        const fresh = !counted.has(key);
        counted.set(key, true);
        if (fresh) seen++;
        newest = Math.max(newest, txTime);
        const swap = readSwap(w.tokenId, w.pairId, tx);
        if ("skipped" in swap) {
          if (fresh && swap.skipped === "amount") skipped++;
          continue;
        }
        trades.set(swap.trade.swapKey, swap.trade);
      }
    }
    // Oldest first, so that a wallet's first buy seen is its earliest of the poll. A buy newer
    // than a gap still unread is not called a first: the wallet's earlier buy may be in it.
    const oldestFirst = [...trades.values()].sort((a, b) => a.txTime - b.txTime);
    const unreadFrom = Math.min(...gaps.map((g) => g.after - overlap));
    const buys = oldestFirst.filter((t) => t.side === "buy" && t.wallet !== "" && t.txTime < unreadFrom);
    const firsts = await opts.buys.firstBuys(w.tokenId, buys.map((t) => ({ wallet: t.wallet, swapKey: t.swapKey })), FIRST_BUY_WALLETS);
    for (const trade of oldestFirst) {
      // Every feed of the token started after its wallets' record did: a first buy seen since then is one since the feed started.
      const payload = JSON.stringify(firsts.has(trade.swapKey) ? { ...trade, firstBuy: true } : trade);
      for (const f of feeds) {
        if (wants(f, trade)) owed.push({ platform: f.platform, chatId: f.chatId, swapKey: trade.swapKey, tokenId: w.tokenId, txTime: trade.txTime, payload });
      }
    }
    const traded = newest > w.cursor;
    const afterPoll: PairWatch = { ...w, cursor: Math.min(newest, nowSeconds), ...(traded ? { lastTradeAt: newest } : {}), gaps };
    // Its interval from what this poll found: planned from the state before it, a busy pair
    // polled late looked quiet for as long as it was late, and was given a longer interval still.
    const intervalSeconds = stretchedInterval(afterPoll, nowSeconds, opts, factor);
    const late = factor > 1 ? 0 : Math.min(CADENCE_SLACK_MS, Math.max(0, tickAt - w.nextPollAt));
    const next: PairWatch = { ...afterPoll, nextPollAt: t - late + intervalSeconds * 1000 };
    const added = await opts.buys.commitPoll(next, owed, t, w);
    const since = owing.get(w.pairId)?.at ?? w.cursor * 1000;
    owing.set(w.pairId, { perSecond: (added * 1000) / Math.max(1_000, t - since), at: t });
    followers.delete(w.pairId);
    opts.events?.polled?.({ pairId: w.pairId, pages: reads.pages, intervalSeconds });
    opts.events?.swaps?.({ seen, skipped });
    if (added > 0) opts.events?.owed?.(added);
    if (skipped > 0) log.info({ pair: w.pairId, skipped }, "swaps without a finite amount_usd were skipped");
  };

  /**
   * The order a tick polls its due pairs in: a pair overdue by more than its own interval first
   * (longest overdue first), so none waits past two intervals; then by what it likely owes now
   * (chats following × its trades at or over their minimums since its last poll), so a busy,
   * widely followed pair is not behind a quiet one. A pair not polled here yet (after a start,
   * all of them) goes before those, the most followed first; equals go longest overdue first.
   */
  const byDebt = (t: number, every: ReadonlyMap<string, number>) => {
    const late = (w: PairWatch): boolean => t - w.nextPollAt > (every.get(w.pairId) ?? opts.pollSeconds) * 1000;
    /** Unknown (not polled here yet) before known; then the larger debt: chats following, or owed buys likely waiting. */
    const debt = (w: PairWatch): { known: boolean; owes: number } => {
      const o = owing.get(w.pairId);
      return o === undefined ? { known: false, owes: followers.get(w.pairId) ?? 0 } : { known: true, owes: o.perSecond * (t - o.at) };
    };
    return (a: PairWatch, b: PairWatch): number => {
      const [lateA, lateB] = [late(a), late(b)];
      if (lateA !== lateB) return lateA ? -1 : 1;
      const [da, db] = [debt(a), debt(b)];
      if (!lateA && da.known !== db.known) return da.known ? 1 : -1;
      if (!lateA && da.owes !== db.owes) return db.owes > da.owes ? 1 : -1;
      return a.nextPollAt - b.nextPollAt;
    };
  };

  const run = async (): Promise<string[]> => {
    const t = now();
    leading = !stopping && (await lead(t));
    if (!leading) return [];
    if (lastPruned === undefined || t - lastPruned >= PRUNE_EVERY_MS) {
      lastPruned = t;
      const n = await opts.buys.pruneBuys(t - KEEP_BUYS_MS, overlap);
      if (n > 0) log.info({ rows: n }, "pruned buy feed records older than a week");
    }
    const watches = await opts.buys.watches();
    const watched = new Set(watches.map((w) => w.pairId));
    for (const known of [owing, followers]) for (const id of known.keys()) if (!watched.has(id)) known.delete(id);
    const budget = opts.budget();
    const factor = stretch(watches, Math.floor(t / 1000), opts, budget);
    const every = intervals(watches, Math.floor(t / 1000), opts, budget, factor);
    const polled: string[] = [];
    const due = watches.filter((w) => w.nextPollAt <= t);
    for (const w of due) {
      if (!owing.has(w.pairId) && !followers.has(w.pairId)) followers.set(w.pairId, (await feedsOn(w.pairId)).length);
    }
    due.sort(byDebt(t, every));
    for (const w of due) {
      if (stopping || now() - t >= TICK_BUDGET_MS) break;
      try {
        await poll(w, factor, t);
        polled.push(w.pairId);
      } catch (e) {
        // Left as it was: the pair's next tick asks the same window again.
        log.warn({ err: e instanceof Error ? e.message : String(e), pair: w.pairId }, "buy feed poll failed");
      }
    }
    return polled;
  };

  return {
    tick() {
      ticking ??= run().finally(() => (ticking = undefined));
      return ticking;
    },
    start(everyMs = 1_000) {
      const loop = (): void => {
        timer = setTimeout(() => {
          void this.tick()
            .catch((e: unknown) => log.error({ err: e }, "buy watcher tick failed"))
            .finally(() => {
              if (!stopping) loop();
            });
        }, everyMs);
      };
      loop();
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await ticking;
      await releaseAtStop(opts.leases, WATCHER_LEASE, holder, log);
      leading = false;
    },
    leading: () => leading,
  };
}
