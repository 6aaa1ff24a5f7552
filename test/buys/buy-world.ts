/**
 * What the end-to-end buy feed tests share: the clocked world (sandbox market on a hand-moved
 * clock, real client, a SQLite file) whose core has /buys and /stopbuys, and the real buy feed
 * service on that clock. A followed token's pairs are made quiet, so every swap the feed sees is
 * one the test placed; each turn of the feed is one `turn()`. Each test adds its platform.
 */
import { buysCommands } from "../../src/buys/commands.js";
import type { BuySink } from "../../src/buys/delivery.js";
import type { BuyMetrics } from "../../src/buys/metrics.js";
import { createBuyFeedService, type BuyFeedService } from "../../src/buys/service.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createPacedQueue, type PacedQueue } from "../../src/digest/paced-queue.js";
import { TELEGRAM_REPLY_RESERVE } from "../../src/digest/platform-queues.js";
import type { PlacedSwap } from "../../src/sandbox/index.js";
import type { Platform } from "../../src/store/types.js";
import { startClockedWorld, type ClockedWorld, type ClockedWorldOptions } from "../core/clocked-world.js";

/** 2026-11-22 12:30 UTC. */
export const T0 = Date.UTC(2026, 10, 22, 12, 30);
export const S0 = T0 / 1000;

export interface BuyWorld extends ClockedWorld {
  /** The feed service sending to `sink` on `platform`, paced as the platform is (Telegram: 20 a minute per group, 4 of them left to replies). */
  service(platform: Platform, sink: BuySink, opts?: { holder?: string; metrics?: BuyMetrics; queue?: PacedQueue }): BuyFeedService;
  /** The pairs the feed watches for `tokenId`, made quiet; the first is the one swaps are placed on. */
  quietPairs(tokenId: string): Promise<string[]>;
  /** Places swaps on the first watched pair of `tokenId` (see `quietPairs`). */
  place(tokenId: string, swaps: readonly PlacedSwap[]): Promise<void>;
  /** The id the resolver picks for a famous symbol. */
  idOf(symbol: string): string;
}

export async function startBuyWorld(opts: { path?: string; maxPerChat?: number; onDispatch?: ClockedWorldOptions["onDispatch"] } = {}): Promise<BuyWorld> {
  const plan = { pollSeconds: 15, maxPollSeconds: 300 };
  const world = await startClockedWorld({
    start: T0, path: opts.path, tmpPrefix: "cp-buys-", onDispatch: opts.onDispatch,
    core: { extraCommands: buysCommands({ maxPerChat: opts.maxPerChat ?? 5, ...plan, budget: () => ({}) }) },
  });
  const { clock, sandbox, client, store, log, core } = world;
  const market = createCachedMarket(client, { now: clock.now });
  const quietPairs = async (tokenId: string): Promise<string[]> => {
    const pairs = (await store.buys.watches()).filter((w) => w.tokenId === tokenId).map((w) => w.pairId);
    if (pairs.length === 0) throw new Error(`no chat follows ${tokenId}`);
    for (const p of pairs) sandbox.quietPair(p);
    return pairs;
  };
  return {
    ...world,
    service(platform, sink, o = {}) {
      const s = createBuyFeedService({
        store, market, core, feedMarket: client, budget: () => ({}), logger: log, ...plan, now: clock.now,
        // The clock jumps over the platforms' pace waits, across which the bot's turn a second renews the lease.
        leaseTtlMs: 10 * 60_000,
        sinks: { [platform]: sink },
        queues: {
          [platform]: o.queue ?? createPacedQueue({
            ratePerSecond: 30, maxInFlight: 4, now: clock.now, sleep: clock.sleep,
            ...(platform === "telegram" ? { perChatPerMinute: 20, reservePerChat: TELEGRAM_REPLY_RESERVE } : {}),
          }),
        },
        ...(o.holder === undefined ? {} : { holder: o.holder }),
        metrics: o.metrics,
      });
      return s;
    },
    quietPairs,
    async place(tokenId, swaps) {
      const [pair] = await quietPairs(tokenId);
      sandbox.placeSwaps(pair ?? "", swaps);
    },
    idOf(symbol) {
      const token = sandbox.market.bySymbol(symbol)[0];
      if (token === undefined) throw new Error(`the sandbox has no ${symbol}`);
      return token.id;
    },
  };
}
