/**
 * Alerts as the bot runs them, on each of the bot's workers: at start, firings cut off by a
 * worker that is gone are settled and those still queued are sent; then a beat every third of
 * the check period renews this worker's heartbeat and tries the checker's lease. The worker
 * holding the lease checks once a period, and at once when it has just taken the lease over
 * from a dead one; every worker delivers what is queued, claiming each firing.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import { logTurnFailure } from "../store/errors.js";
import type { BotCore } from "../core/bot-core.js";
import type { MarketApi } from "../market/api.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import type { FiringState, Platform, Store } from "../store/types.js";
import { createAlertChecker, type AlertChecker, type CheckReport } from "./checker.js";
import { createAlertDelivery, type AlertDelivery, type AlertSink } from "./delivery.js";
import { alertLeaseTimes } from "./lease-times.js";

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
  /** Writes each firing's message in the chat's language. */
  core: Pick<BotCore, "render">;
  logger: Logger;
  now?: () => number;
  /** This worker's WORKER_ID, written into its name on the lease and on the firings it claims. */
  workerId?: string;
  /** This worker's whole name (`host:pid:…`); default built from the host, the pid, `workerId` and a random part, so a restart is a new sender. */
  holder?: string;
  /** Each check's report (metrics). */
  onCheck?: (report: CheckReport) => void;
  onOutcome?: (platform: Platform, state: FiringState, afterMs: number) => void;
  /** Each send's recorded outcome, by kind (metrics: sends per outcome). */
  onSend?: (kind: string, platform: Platform, state: FiringState) => void;
}

export interface AlertService {
  readonly checker: AlertChecker;
  readonly delivery: AlertDelivery;
  /** One check (when this worker holds the lease), then delivery of everything queued. */
  tick(): Promise<void>;
  /** Renews the heartbeat and the lease; ticks when a period has passed or the lease was just taken. `start()` beats every third of a period. */
  beat(): Promise<void>;
  start(): Promise<void>;
  /** Stops checking; firings not yet sent stay queued for the next start. */
  stop(): Promise<void>;
}

/** How long the finished firings are kept as the record of what was sent. */
const KEEP_FIRINGS_MS = 7 * 24 * 3_600_000;

export function createAlertService(opts: AlertServiceOptions): AlertService {
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const lease = alertLeaseTimes(opts.checkMs);
  const platforms = (Object.keys(opts.adapters) as Platform[]).filter((p) => opts.adapters[p] && opts.queues[p]);
  const checker = createAlertChecker({
    store: opts.store,
    prices: opts.prices,
    platforms,
    cooldownMs: opts.cooldownMs,
    leaseTtlMs: lease.ttlMs,
    logger: log,
    now,
    holder: opts.holder ?? `${hostname()}:${process.pid}:${opts.workerId ?? "alerts"}:${randomUUID()}`,
  });
  const delivery = createAlertDelivery({
    alerts: opts.store.alerts,
    chats: opts.store,
    leases: opts.store.subscriptions,
    sender: checker.holder,
    heartbeatTtlMs: lease.ttlMs,
    adapters: opts.adapters,
    queues: opts.queues,
    core: opts.core,
    logger: log,
    now,
    onOutcome: opts.onOutcome,
    onSend: opts.onSend,
  });
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  let lastPruned = -Infinity;
  let lastTick = -Infinity;
  let leading = false;

  const tick = async (): Promise<void> => {
    lastTick = now();
    // Claims are made only under the heartbeat: a tick renews it (again, after a beat) so that one
    // whose claim found it run out, or that was not beating, delivers now rather than a beat later.
    await delivery.heartbeat();
    const report = await checker.check();
    leading = report.leader;
    opts.onCheck?.(report);
    await delivery.recover();
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

  const beat = async (): Promise<void> => {
    if (stopped) return;
    await delivery.heartbeat();
    const took = (await checker.lead()) && !leading;
    // Half a beat of slack, so that timer jitter does not push a check to the next beat.
    if (took || now() - lastTick >= opts.checkMs - lease.renewMs / 2) await guarded();
  };

  // A store outage is already one warning and a readiness check; a renewal failing every beat of
  // it says nothing more. Anything else failing there is a bug, with its stack.
  const safeBeat = (): Promise<void> => beat().catch((e: unknown) => logTurnFailure(log, e, "alert lease renewal failed"));

  return {
    checker,
    delivery,
    tick: guarded,
    beat: safeBeat,
    async start() {
      await delivery.heartbeat();
      await delivery.recover();
      await delivery.flush();
      void guarded();
      timer = setInterval(() => void safeBeat(), lease.renewMs);
      timer.unref();
      log.info({ everySeconds: opts.checkMs / 1000, platforms }, "price alerts are checked");
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(timer);
        delivery.stop();
        // Before the tick is awaited: a check whose prices the day's pace holds would hold the
        // stop past its timeout; given up, it ends unrecorded and the next check redoes it.
        await checker.release();
        await ticking;
        // Sequential: the digest poster stops the same queues after this, and finds them stopped.
        for (const q of Object.values(opts.queues)) await q?.stop();
        await delivery.settled();
        await delivery.release();
      })();
      return stopping;
    },
  };
}
