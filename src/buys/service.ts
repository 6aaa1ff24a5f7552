/**
 * The buy feed as the running bot has it: the watcher (under its lease) and the delivery of
 * owed buys, one turn a second; what a post adds from the market (cap or FDV, the chain's
 * explorer) comes from the cache on the feed lane.
 */
import type { Logger } from "pino";
import type { CachedMarket } from "../cache/types.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import { asking, newAsk } from "../market/ask.js";
import { FEED_LANE } from "../market/scheduler-lanes.js";
import type { Platform, Store } from "../store/types.js";
import { createBuyDelivery, type BuySink } from "./delivery.js";
import type { BuyMetrics } from "./metrics.js";
import type { PlanOptions, PollBudget } from "./plan.js";
import type { PostContext } from "./post.js";
import { usdValue } from "./trade.js";
import { createWatcher, type WatcherOptions } from "./watcher.js";

export interface BuyFeedServiceOptions extends PlanOptions {
  store: Store;
  market: CachedMarket;
  feedMarket: WatcherOptions["market"];
  budget: () => PollBudget;
  sinks: Partial<Record<Platform, BuySink>>;
  queues: Partial<Record<Platform, PacedQueue>>;
  logger: Logger;
  metrics?: BuyMetrics;
}

export interface BuyFeedService {
  start(): void;
  stop(): Promise<void>;
  leading(): boolean;
}

const TURN_MS = 1_000;

export function createBuyFeedService(opts: BuyFeedServiceOptions): BuyFeedService {
  const platforms = Object.keys(opts.sinks) as Platform[];
  const watcher = createWatcher({
    buys: opts.store.buys, leases: opts.store.subscriptions, market: opts.feedMarket, budget: opts.budget, platforms,
    logger: opts.logger, pollSeconds: opts.pollSeconds, maxPollSeconds: opts.maxPollSeconds, ...(opts.metrics ? { events: opts.metrics } : {}),
  });
  const extras = (tokenId: string, chain: string): Promise<Pick<PostContext, "cap" | "explorer">> =>
    asking(newAsk(FEED_LANE), async () => {
      const [detail, chains] = await Promise.all([opts.market.tokenDetail(tokenId), opts.market.supportedChains()]);
      const t = detail.data.token;
      const cap = usdValue(t.market_cap) ? { kind: "cap" as const, usd: t.market_cap ?? "" } : usdValue(t.fdv) ? { kind: "fdv" as const, usd: t.fdv ?? "" } : undefined;
      const explorer = chains.data.find((c) => c.chain === chain)?.block_explorer_url;
      return { ...(cap ? { cap } : {}), ...(explorer ? { explorer } : {}) };
    });
  const delivery = createBuyDelivery({
    buys: opts.store.buys, chats: opts.store, sinks: opts.sinks, queues: opts.queues, extras, logger: opts.logger,
    ...(opts.metrics ? { onSettled: opts.metrics.settled } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> | undefined;
  let stopping = false;

  const once = async (): Promise<void> => {
    await watcher.tick();
    // Every worker delivers what its platforms owe; the settle before each send keeps a buy to one sender.
    await delivery.flush();
  };
  const loop = (): void => {
    timer = setTimeout(() => {
      turn = once()
        .catch((e: unknown) => opts.logger.error({ err: e }, "buy feed turn failed"))
        .finally(() => {
          if (!stopping) loop();
        });
    }, TURN_MS);
  };

  return {
    start: loop,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await turn;
      await watcher.stop();
    },
    leading: () => watcher.leading(),
  };
}
