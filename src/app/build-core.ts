/**
 * The wiring `start` and `ask` share: config → market (the in-process sandbox in demo mode) →
 * cache → store → core. Nothing is built at import; `close()` undoes it in reverse order.
 */
import type { CacheEvent } from "../cache/lookup.js";
import { createCachedMarket } from "../cache/cached-market.js";
import { sharingPrices } from "../cache/price-sharing.js";
import type { CachedMarket } from "../cache/types.js";
import { createChartRenderer } from "../chart/index.js";
import type { ChartRenderer } from "../chart/types.js";
import type { Config } from "../config.js";
import type { BotCore } from "../core/bot-core.js";
import { createBotCore } from "../core/create-core.js";
import { messages } from "../i18n/index.js";
import { digestCommands } from "../digest/commands.js";
import { buysCommands } from "../buys/commands.js";
import type { PollBudget } from "../buys/plan.js";
import type { Logger } from "../log.js";
import type { MarketApi } from "../market/api.js";
import { MarketClient, type MarketCallEvent } from "../market/client.js";
import type { DispatchEvent, Scheduler } from "../market/scheduler.js";
import type { Freshness } from "../core/answer-deadline.js";
import { ALERT_LANE, DIGEST_LANE, FEED_LANE } from "../market/scheduler-lanes.js";
import type { CallRules } from "../calls/rules.js";
import { createRedisCacheStore } from "../redis/cache-store.js";
import type { SharedRedis } from "../redis/connection.js";
import { redisUnitLedger } from "../redis/unit-ledger.js";
import { redisSpacingGate } from "../redis/spacing-gate.js";
import type { Sandbox } from "../sandbox/index.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/types.js";
import { storeUnitLedger } from "./unit-ledger.js";

/** Footer label of demo data, so nobody mistakes it for the market. */
export const DEMO_SOURCE = "demo data (sandbox)";
/** Footer label of the real service. */
export const LIVE_SOURCE = "Token Market Data Service";

export interface BuildOptions {
  log: Logger;
  /** Told about every cache lookup (metrics). */
  onCacheEvent?: (e: CacheEvent) => void;
  /** Told about every market call (metrics). */
  onMarketCall?: (e: MarketCallEvent) => void;
  /** Told when the shared Redis is lost and back (metrics). */
  onRedisChange?: (up: boolean) => void;
  /** Told about every call leaving the market scheduler (metrics). */
  onMarketDispatch?: (e: DispatchEvent) => void;
  /** Told how fresh each command's answer was (metrics). */
  onAnswer?: (freshness: Freshness) => void;
  /** The core's clock (command budgets, times in answers), epoch ms; default Date.now. */
  now?: () => number;
}

export interface BuiltCore {
  core: BotCore;
  market: CachedMarket;
  /** K-lines for the calls sweep: uncached (each read spans a new range), on the scheduler's digest lane. */
  callMarket: Pick<MarketApi, "tokenKline">;
  /** The launch watcher's lists: uncached (a pass a minute reads them fresh, the cache serves them up to two minutes old), on the digest lane. */
  launchLists: Pick<MarketApi, "rankList" | "trending">;
  /** How calls are kept (`CALLS_WINDOW_DAYS`, `CALLS_SWEEP_MINUTES`). */
  callRules: CallRules;
  /** Batch prices for the alert checker: uncached (every check wants this moment's prices), on the scheduler's alert lane; the answers warm the price cache. */
  alertPrices: Pick<MarketApi, "batchPrices">;
  store: Store;
  charts: ChartRenderer;
  /** "demo data (sandbox)" or "Token Market Data Service". */
  source: string;
  /** The in-process sandbox in demo mode. */
  sandbox: Sandbox | undefined;
  /** The market key's scheduler: queue depth per lane, the day's compute units. */
  scheduler: Scheduler;
  /** The market uncached, for the buy watcher's polls (each asks a window of its own). */
  feedMarket: Pick<MarketApi, "swaps">;
  /** The buy feed's share of the plan now. */
  feedBudget: () => PollBudget;
  /** The shared Redis when `REDIS_URL` is set: budgets, blocked chats and platform rates live there. */
  redis: SharedRedis | undefined;
  /** Ends the core's asking again for fresher answers: called first when the bot stops. */
  stopAsking(): void;
  /**
   * Closes the store, the charts, the client and the sandbox; never rejects. `abandon` cuts the
   * market calls still out instead of waiting for them (nobody is left to answer).
   */
  close(opts?: { abandon?: boolean }): Promise<void>;
}

/** Builds the core from `config`; in demo mode starts the sandbox on a free loopback port first. */
export async function buildCore(config: Config, opts: BuildOptions): Promise<BuiltCore> {
  const { log } = opts;
  const closers: ((opts: { abandon?: boolean }) => Promise<void>)[] = [];
  const close = async (opts: { abandon?: boolean } = {}) => {
    for (const c of closers.splice(0).reverse()) {
      try {
        await c(opts);
      } catch (e) {
        log.warn({ err: e instanceof Error ? e.message : String(e) }, "closing failed");
      }
    }
  };
  try {
    // Loaded only when configured: ioredis alone costs a process start a tenth of a second.
    const redis = config.redisUrl === undefined
      ? undefined
      : await (await import("../redis/connection.js")).connectRedis({ url: config.redisUrl, log, onChange: opts.onRedisChange });
    if (redis !== undefined) closers.push(() => redis.close());
    // With Redis, every process shares one cache and its misses.
    const cacheStore = () => (redis === undefined ? {} : { store: createRedisCacheStore({ redis }) });
    // Before the client: without Redis, the day's compute units are counted in the database.
    const store = await openStore({ databasePath: config.databasePath, databaseUrl: config.databaseUrl, logger: log });
    closers.push(() => store.close());
    const ledgerFor = (apiKey: string) => (redis === undefined ? storeUnitLedger(store.unitSpend, apiKey) : redisUnitLedger(redis, apiKey));
    let sandbox: Sandbox | undefined;
    let client: MarketClient;
    const pacing = {
      timeoutMs: config.market.timeoutMs, dailyUnits: config.market.dailyUnits, logger: log, onCall: opts.onMarketCall, onDispatch: opts.onMarketDispatch,
      laneShares: { [FEED_LANE]: config.buys.rateShare },
    };
    if (config.market.mode === "demo") {
      const { startSandbox } = await import("../sandbox/index.js");
      const started = await startSandbox({ seed: config.sandboxSeed, logger: log });
      sandbox = started;
      closers.push(() => started.close());
      client = new MarketClient({
        v2: { baseUrl: started.url, key: started.v2Key },
        v1: { baseUrl: started.url, key: started.v1Key },
        ...pacing,
        unitLedger: ledgerFor(started.v2Key),
      });
    } else {
      const unitLedger = ledgerFor(config.market.v2.key);
      // Every worker spending the key takes its turn from one pace in Redis: MARKET_API_RPS is the key's, not each worker's.
      const gate = redis === undefined ? undefined : redisSpacingGate({ redis, rps: config.market.rps, apiKey: config.market.v2.key });
      client = new MarketClient({ v2: config.market.v2, v1: config.market.v1, rps: config.market.rps, ...pacing, unitLedger, ...(gate ? { gate } : {}) });
    }
    closers.push((o) => client.close(o));
    const market = createCachedMarket(client, { onEvent: opts.onCacheEvent, ...cacheStore() });
    const charts = createChartRenderer({ logger: log });
    closers.push(() => charts.close());
    const source = config.market.mode === "demo" ? DEMO_SOURCE : LIVE_SOURCE;
    // start and ask answer the same commands: the digest's included.
    const feedBudget = () => ({ rate: client.scheduler.laneRate(FEED_LANE), dailyUnits: client.scheduler.units.dailyFor(FEED_LANE) });
    const extraCommands = [
      ...digestCommands({ maxPerChat: config.digest.maxSubscriptions, minIntervalMinutes: config.digest.minIntervalMinutes }),
      ...buysCommands({ maxPerChat: config.buys.maxPerChat, pollSeconds: config.buys.pollSeconds, maxPollSeconds: config.buys.maxPollSeconds, budget: feedBudget }),
    ];
    const alertLimits = { maxPerChat: config.alerts.maxPerChat, watchlistMax: config.alerts.watchlistMax };
    // Read at start, so a broken message file stops the start rather than a reply.
    const catalog = messages();
    const sourceKey = config.market.mode === "demo" ? "source-demo" : "source-live";
    const callRules: CallRules = { windowMs: config.calls.windowDays * 86_400_000, sweepPeriodMs: config.calls.sweepMinutes * 60_000 };
    const asking = new AbortController();
    const core = createBotCore({ fresher: { signal: asking.signal }, calls: callRules, market, store, charts, log, source: (i18n) => i18n.t(sourceKey), extraCommands, alertLimits, catalog, budget: { redis },
      answerDeadlineMs: config.market.answerDeadlineMs, onAnswer: opts.onAnswer, now: opts.now,
    });
    // Fetched uncached for the check, and kept in the price cache for the commands that follow until the next check.
    const alertPrices = sharingPrices(market, client.onLane(ALERT_LANE), { everyMs: config.alerts.checkSeconds * 1000 });
    return {
      core, market, alertPrices, callMarket: client.onLane(DIGEST_LANE), launchLists: client.onLane(DIGEST_LANE), callRules, store, charts, source, sandbox, redis,
      scheduler: client.scheduler, feedMarket: client, feedBudget, close, stopAsking: () => asking.abort(),
    };
  } catch (e) {
    await close();
    throw e;
  }
}
