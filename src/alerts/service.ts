/**
 * Alerts as the bot runs them: at start, firings cut off by a crash are settled and those still
 * queued are sent; then every check period one check, then delivery of what it queued.
 */
import type { Logger } from "pino";
import type { MarketApi } from "../market/api.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import type { FiringState, Platform, Store } from "../store/types.js";
import { createAlertChecker, type AlertChecker, type CheckReport } from "./checker.js";
import { createAlertDelivery, type AlertDelivery, type AlertSink } from "./delivery.js";

export interface AlertServiceOptions {
  store: Store;
  prices: Pick<MarketApi, "batchPrices">;
  adapters: Partial<Record<Platform, AlertSink>>;
  /** The platforms' paced queues, shared with the digest. Stopped by `stop()`. */
  queues: Partial<Record<Platform, PacedQueue>>;
  /** ALERT_CHECK_SECONDS in ms. */
  checkMs: number;
  /** ALERT_COOLDOWN_MINUTES in ms. */
  cooldownMs: number;
  source: string;
  logger: Logger;
  now?: () => number;
  /** Each check's report (metrics). */
  onCheck?: (report: CheckReport) => void;
  onOutcome?: (platform: Platform, state: FiringState, afterMs: number) => void;
}

export interface AlertService {
  readonly checker: AlertChecker;
  readonly delivery: AlertDelivery;
  /** One check, then delivery of everything queued. */
  tick(): Promise<void>;
  start(): Promise<void>;
  /** Stops checking; firings not yet sent stay queued for the next start. */
  stop(): Promise<void>;
}

/** How long the finished firings are kept as the record of what was sent. */
const KEEP_FIRINGS_MS = 7 * 24 * 3_600_000;

export function createAlertService(opts: AlertServiceOptions): AlertService {
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const platforms = (Object.keys(opts.adapters) as Platform[]).filter((p) => opts.adapters[p] && opts.queues[p]);
  const checker = createAlertChecker({
    store: opts.store,
    prices: opts.prices,
    platforms,
    cooldownMs: opts.cooldownMs,
    leaseTtlMs: 3 * opts.checkMs,
    logger: log,
    now,
  });
  const delivery = createAlertDelivery({
    alerts: opts.store.alerts,
    chats: opts.store,
    adapters: opts.adapters,
    queues: opts.queues,
    source: opts.source,
    logger: log,
    now,
    onOutcome: opts.onOutcome,
  });
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  let lastPruned = -Infinity;

  const tick = async (): Promise<void> => {
    const report = await checker.check();
    opts.onCheck?.(report);
    await delivery.flush();
    if (now() - lastPruned >= 3_600_000) {
      lastPruned = now();
      await opts.store.alerts.pruneFirings(now() - KEEP_FIRINGS_MS);
    }
  };

  const guarded = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    ticking ??= tick()
      .catch((e: unknown) => log.error({ err: e }, "alert check failed"))
      .finally(() => (ticking = undefined));
    return ticking;
  };

  return {
    checker,
    delivery,
    tick: guarded,
    async start() {
      await delivery.recover();
      await delivery.flush();
      void guarded();
      timer = setInterval(() => void guarded(), opts.checkMs);
      timer.unref();
      log.info({ everySeconds: opts.checkMs / 1000, platforms }, "price alerts are checked");
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(timer);
        await ticking;
        // Sequential: the digest poster stops the same queues after this, and finds them stopped.
        for (const q of Object.values(opts.queues)) await q?.stop();
        await delivery.settled();
        await checker.release();
      })();
      return stopping;
    },
  };
}
