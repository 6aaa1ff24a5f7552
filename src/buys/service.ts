/**
 * The buy feed as the running bot has it: the watcher (under its lease) and the delivery of
 * owed buys by the send protocol under the same lease, one turn a second; what a post adds from the market (cap or FDV, the chain's
 * explorer) comes from the cache on the feed lane, each token's detail read at most once an hour for its supply (extras.ts).
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { CachedMarket } from "../cache/types.js";
import type { BotCore } from "../core/bot-core.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import { logTurnFailure } from "../store/errors.js";
import type { Platform, Store } from "../store/types.js";
import { createBuyDelivery, type BuyDeliveryOptions, type BuySink } from "./delivery.js";
import { createPostExtras } from "./extras.js";
import type { BuyMetrics } from "./metrics.js";
import type { PlanOptions, PollBudget } from "./plan.js";
import { createWatcher, WATCHER_LEASE, type WatcherOptions } from "./watcher.js";

export interface BuyFeedServiceOptions extends PlanOptions {
  store: Store;
  market: CachedMarket;
  /** Writes the posts (`BotCore.render`). */
  core: Pick<BotCore, "render">;
  feedMarket: WatcherOptions["market"];
  budget: () => PollBudget;
  sinks: Partial<Record<Platform, BuySink>>;
  queues: Partial<Record<Platform, PacedQueue>>;
  logger: Logger;
  metrics?: BuyMetrics;
  /** Each post's recorded send outcome (metrics: sends per outcome, kind `buy`). */
  onSend?: BuyDeliveryOptions["onSend"];
  now?: () => number;
  /** Waits between turns; default a timer. A benchmark on a simulated clock passes that clock's. */
  sleep?: (ms: number) => Promise<void>;
  /** Demo data: posts link no explorer (extras.ts). */
  demo?: boolean;
  /** Name on the watcher's lease. Default host:pid:random. */
  holder?: string;
  /** The watcher's lease time without renewal, ms. Default the watcher's. */
  leaseTtlMs?: number;
}

export interface BuyFeedService {
  start(): void;
  /** One turn (poll what is due, queue and send what is owed) and its sends' outcomes: what the loop runs each second. */
  turn(): Promise<void>;
  stop(): Promise<void>;
  leading(): boolean;
}

const TURN_MS = 1_000;

export function createBuyFeedService(opts: BuyFeedServiceOptions): BuyFeedService {
  const platforms = Object.keys(opts.sinks) as Platform[];
  const holder = opts.holder ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  const now = opts.now ?? Date.now;
  const watcher = createWatcher({
    holder, buys: opts.store.buys, leases: opts.store.subscriptions, market: opts.feedMarket, budget: opts.budget, platforms,
    logger: opts.logger, now, pollSeconds: opts.pollSeconds, maxPollSeconds: opts.maxPollSeconds, ...(opts.metrics ? { events: opts.metrics } : {}),
    ...(opts.leaseTtlMs === undefined ? {} : { leaseTtlMs: opts.leaseTtlMs }),
  });
  const extras = createPostExtras({ market: opts.market, now, demo: opts.demo });
  const delivery = createBuyDelivery({
    buys: opts.store.buys, chats: opts.store, core: opts.core, sinks: opts.sinks, queues: opts.queues, extras, logger: opts.logger,
    lease: WATCHER_LEASE, sender: holder, now, leading: () => watcher.leading() && !stopping,
    ...(opts.metrics ? { onSettled: opts.metrics.settled } : {}), ...(opts.onSend ? { onSend: opts.onSend } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> | undefined;
  let stopping = false;

  const once = async (): Promise<void> => {
    await watcher.tick();
    // Only the watcher sends, under its lease: a post cut off by its death is resent by the next.
    await delivery.flush();
  };
  const loop = (): void => {
    const next = (): void => {
      turn = once()
        .catch((e: unknown) => logTurnFailure(opts.logger, e, "buy feed turn failed"))
        .finally(() => {
          if (!stopping) loop();
        });
    };
    if (opts.sleep === undefined) timer = setTimeout(next, TURN_MS);
    else void opts.sleep(TURN_MS).then(() => stopping || next());
  };

  return {
    start: loop,
    async turn() {
      await once();
      await delivery.settled();
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await turn;
      // Posts still waiting for their turn are not claimed any more and stay queued for the next watcher.
      await delivery.settled();
      await watcher.stop();
    },
    leading: () => watcher.leading(),
  };
}
