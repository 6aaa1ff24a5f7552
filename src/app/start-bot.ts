/**
 * Wiring only: ops port → market → cache → store → core → adapters → poster; the ops port
 * comes first so that health is served through the crash-loop wait and the build.
 * Each part is built by its own module; this file decides what runs and in which order it stops.
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Logger } from "pino";
import type { PlatformAdapter } from "../adapters/types.js";
import { consoleAlertSink } from "../adapters/console/alert-sink.js";
import { createAlertService, type AlertService } from "../alerts/service.js";
import { createSweeper, type Sweeper } from "../calls/sweeper.js";
import { buildCore, type BuiltCore } from "./build-core.js";
import { readinessChecks } from "./readiness.js";
import { ConfigError, type Config } from "../config.js";
import { createPacedQueue } from "../digest/paced-queue.js";
import { createDiscordDigestQueue, createTelegramDigestQueue, lastMinuteSends, telegramPaceLedger } from "../digest/platform-queues.js";
import { createPoster, type Poster } from "../digest/poster.js";
import { createDeliveryWatch } from "../ops/delivery-watch.js";
import { createBuyMetrics } from "../buys/metrics.js";
import { createBuyFeedService, type BuyFeedService } from "../buys/service.js";
import { createLaunchWatcher, type LaunchWatcher } from "../launches/watcher.js";
import { startOpsServer, type OpsServer, type RequestHandler } from "../ops/http-server.js";
import { createOpsPage } from "../ops/ops-page.js";
import { instrumentCore } from "../ops/instrument-core.js";
import { createMetrics } from "../ops/metrics.js";
import { createMarketReachability } from "../market/reachability.js";
import { createMarketMetrics } from "../market/scheduler-metrics.js";
import { createStartGuard, type StartGuard } from "../ops/start-guard.js";
import { redisChatOrder } from "../redis/chat-order.js";
import { countRedisChanges } from "../redis/metrics.js";
import { logTurnFailure } from "../store/errors.js";
import type { Platform } from "../store/types.js";
import { processHolder } from "../workers/holder.js";
import { createLeaseKeeper } from "../workers/lease-keeper.js";
import { createUpdateDedupe } from "../workers/update-dedupe.js";

export interface StartOptions {
  config: Config;
  log: Logger;
  /** The console chat's input and output, when no bot token is set. */
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  /** Aborted by a stop during start-up: the crash-loop wait ends at once and nothing more is started. */
  signal?: AbortSignal;
  /** Told each recorded send after /metrics has counted it: an in-process caller waits on this, not on polling /metrics. */
  onSendCounted?: (kind: string, platform: Platform, outcome: string) => void;
}

export interface RunningBot {
  /** Resolves with the exit code once the bot has stopped: console input ended, or a fatal error. */
  finished: Promise<number>;
  /** Stops everything in order; safe to call more than once. */
  stop(reason: string): Promise<void>;
}

/** A start-up failure that a restart will not fix (bad token, another instance): one line. */
export class FatalStartError extends Error {
  override readonly name = "FatalStartError";
}

/**
 * Without TELEGRAM_WEBHOOK_SECRET the secret is derived from the token: stable across
 * restarts (Telegram keeps the one set with the webhook) and unguessable without the token.
 */
function webhookSecret(token: string): string {
  return createHash("sha256").update(`chainpulse-webhook:${token}`).digest("hex").slice(0, 64);
}

function startGuardFor(config: Config): StartGuard | undefined {
  if (config.databasePath === ":memory:") return undefined;
  return createStartGuard({ file: join(dirname(config.databasePath), ".start-failures.json") });
}

export async function startBot(opts: StartOptions): Promise<RunningBot> {
  const { config, log } = opts;
  // Every lease of this process is held under this one name, which carries WORKER_ID.
  const holder = processHolder(config.workerId);
  const metrics = createMetrics({ worker: config.workerId });
  const page = createOpsPage({
    token: config.opsToken,
    secrets: config.secrets,
    registry: metrics.registry,
    worker: config.workerId,
    rps: config.market.rps,
    // A database outage already has its warning and readiness check: each minute it lasts says nothing more.
    onSampleError: (e) => logTurnFailure(log, e, "operator's page: a minute's sample was not saved"),
    onLoginsRefused: (count) => log.warn({ count }, "operator's page: login refused (wrong token)"),
  });
  const deliveryWatch = createDeliveryWatch();
  const guard = startGuardFor(config);
  // A record that cannot be written (a DATABASE_PATH folder the bot may not create) is logged,
  // never said in place of the failure that stopped the start.
  const recordFailedStart = (): Promise<void> =>
    guard === undefined
      ? Promise.resolve()
      : guard.recordFailure().catch((e: unknown) => {
          log.warn({ err: e instanceof Error ? e.message : String(e), file: guard.file }, "crash-loop guard: this failed start could not be recorded, so the next start will not wait");
        });
  const adapters: Partial<Record<Platform, PlatformAdapter>> = {};
  const routes = new Map<string, RequestHandler>();
  let resolveFinished!: (code: number) => void;
  const finished = new Promise<number>((r) => (resolveFinished = r));
  let stopping: Promise<void> | undefined;
  let poster: Poster | undefined;
  let buyFeed: BuyFeedService | undefined;
  let launches: LaunchWatcher | undefined;
  let alerts: AlertService | undefined;
  let sweeper: Sweeper | undefined;
  let ops: OpsServer | undefined;
  let built: BuiltCore | undefined;
  let phase = "starting";
  let telegramLease: (() => { name: string; held: boolean; unrenewed: boolean } | undefined) | undefined;
  let discordShards: (() => { name: string; held: boolean } | undefined) | undefined;

  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      log.info({ reason }, "stopping");
      built?.stopAsking();
      // The poster first: it records where it stopped while the platforms can still be reached.
      await alerts?.stop();
      await sweeper?.stop();
      await buyFeed?.stop();
      await launches?.stop();
      await poster?.stop();
      await Promise.all(Object.values(adapters).map((a) => a?.stop()));
      await ops?.close();
      page.close();
      await built?.close();
    })();
    return stopping;
  };
  // A bot that served before it stopped (a 409 minutes in, a token revoked) had started: only a
  // start that never served makes the next one wait.
  const fail = (line: string, served: boolean): void => {
    process.stderr.write(`chainpulse: ${line}\n`);
    const recorded = served ? undefined : recordFailedStart();
    void Promise.all([recorded, stop("fatal error")]).then(() => resolveFinished(1));
  };

  // The ops port first: a supervisor probing /healthz must see the process alive through the
  // crash-loop wait and the build, and /readyz say why it is not ready yet.
  if (config.http) {
    try {
      ops = await startOpsServer({
        host: config.http.host,
        port: config.http.port,
        metrics,
        checks: [{ name: "starting", check: async () => ({ ok: false, detail: phase }) }],
        logger: log,
        routes,
        page,
      });
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      // An address this machine does not have is the setting's fault: said as a configuration error (exit 78).
      if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EADDRNOTAVAIL") {
        throw new ConfigError("HTTP_HOST", `HTTP_HOST: ${config.http.host} is not an address of this machine to listen on (${code}); use one such as 127.0.0.1 or 0.0.0.0`);
      }
      throw new FatalStartError(`HTTP_PORT: ${config.http.host}:${config.http.port} could not be opened (${e instanceof Error ? e.message : String(e)})`);
    }
    log.info({ host: config.http.host, port: ops.port }, "health, readiness and metrics are served");
  }
  // A stop that came during start-up: the signal handler's own stop() ends the process.
  const stopped = (): RunningBot => ({ finished, stop });
  const waited = (await guard?.delayMs()) ?? 0;
  if (waited > 0) {
    phase = "waiting before logging in again, after failed starts";
    log.warn({ waitMs: waited }, "recent starts failed: waiting before logging in again, to spare the platforms' login quotas");
    await guard?.waitBeforeStart(opts.signal);
    phase = "starting";
  }
  if (opts.signal?.aborted) return stopped();
  if (config.market.mode === "demo") log.warn("showing demo data: no MARKET_API_KEY is set, so the market is the built-in sandbox");

  const marketMetrics = createMarketMetrics(metrics.registry);
  const reach = createMarketReachability();
  try {
    built = await buildCore(config, {
      log,
      onCacheEvent: (e) => metrics.cache.inc({ method: e.method, outcome: e.outcome }),
      onMarketCall: (e) => {
        metrics.upstreamCalls.inc({ endpoint: e.endpoint, outcome: e.outcome });
        reach.note(e, Date.now());
      },
      onRedisChange: countRedisChanges(metrics),
      onMarketDispatch: marketMetrics.dispatched,
      onAnswer: marketMetrics.answered,
    });
    marketMetrics.watch(built.scheduler);
    const { subscriptions, alerts: firings, buys, launches } = built.store;
    page.attach({
      leases: () => subscriptions.leases(),
      holder,
      rows: new Map<string, () => Promise<Partial<Record<string, number>>>>([
        ["digest", () => subscriptions.deliveryCounts()],
        ["alert", () => firings.firingCounts()],
        ["buy", () => buys.buyPostCounts()],
        ["launch", () => launches.launchPostCounts()],
      ]),
      deliveries: deliveryWatch,
      // Workers share PostgreSQL: each page then charts them all.
      ...(config.databaseUrl === undefined ? {} : { samples: built.store.opsSamples }),
    });
  } catch (e) {
    await stop("start-up failed");
    throw e;
  }
  if (opts.signal?.aborted) return stopped();
  // A const for the closures below: `built` stays a let so that stop() can run before it is set.
  const parts = built;
  const core = instrumentCore(parts.core, metrics);
  // Telegram's limits are per bot: replies, digests and alerts take their turns from one pace,
  // which counts what was sent in the minute before this start (a restart's).
  const telegramPace = telegramPaceLedger({
    ratePerSecond: config.digest.telegramRate, redis: parts.redis, bot: config.telegram?.token.split(":")[0], sent: await lastMinuteSends(parts.store, "telegram", log),
  });

  try {
    if (config.telegram) {
      const { createTelegramAdapter } = await import("../adapters/telegram/adapter.js");
      const telegram = createTelegramAdapter({
        token: config.telegram.token,
        apiRoot: config.telegram.apiRoot,
        core,
        logger: log,
        ...(config.telegram.webhook
          ? { webhook: { url: config.telegram.webhook.url, secret: config.telegram.webhook.secret ?? webhookSecret(config.telegram.token) } }
          : {}),
        onFatal: (e) => fail(e.message, e.served),
        onRateLimited: () => metrics.platform429.inc({ platform: "telegram" }),
        buttonActions: parts.store.buttonActions,
        redis: parts.redis,
        signal: opts.signal,
        // On PostgreSQL several workers may run the bot: one sets the webhook or polls, each
        // update is answered once whichever worker Telegram's deliveries reach.
        ...(config.databaseUrl === undefined
          ? {}
          : {
              lease: (name: string, onChange: (held: boolean) => void) =>
                createLeaseKeeper({ leases: parts.store.subscriptions, name, holder, logger: log, onChange }),
            }),
        dedupe: createUpdateDedupe({ redis: parts.redis, scope: config.telegram.token.split(":")[0] ?? "" }),
        pace: {
          ledger: telegramPace,
          ...(parts.redis === undefined ? {} : { order: redisChatOrder({ redis: parts.redis, scope: `telegram:${config.telegram.token.split(":")[0] ?? ""}` }) }),
          onWait: (ms) => metrics.pacingWaitSeconds.observe({ platform: "telegram", kind: "reply" }, ms / 1000),
        },
      });
      // At 0 from the start: a dashboard's rate of a series that does not exist yet shows no data, not none.
      metrics.platform429.inc({ platform: "telegram" }, 0);
      if (telegram.webhook) routes.set(telegram.webhook.path, telegram.webhook.handler);
      telegramLease = () => telegram.lease();
      adapters.telegram = telegram;
    }
    if (config.discord) {
      const { createDiscordAdapter, discordShardLease, discordWorkerOptions } = await import("../adapters/discord/index.js");
      const discord = createDiscordAdapter({
        token: config.discord.token,
        applicationId: config.discord.applicationId,
        apiRoot: config.discord.apiRoot,
        messageContent: config.discord.messageContent,
        core,
        logger: log,
        onRateLimited: () => metrics.platform429.inc({ platform: "discord" }),
        onRestWait: (ms) => metrics.pacingWaitSeconds.observe({ platform: "discord", kind: "rest" }, ms / 1000),
        buttonActions: parts.store.buttonActions,
        ...discordWorkerOptions(config.discord, parts.redis, config.workerId),
      });
      metrics.platform429.inc({ platform: "discord" }, 0);
      if (discord.interactions) routes.set(discord.interactions.path, discord.interactions.handler);
      const discordConfig = config.discord;
      discordShards = () => discordShardLease(discordConfig, discord.shards());
      adapters.discord = discord;
    }

    const running = Object.values(adapters);
    // Every start settles before a failure stops them all: a platform still starting when the
    // stop came would come up after it and hold the process open.
    const started = await Promise.allSettled(running.map((a) => a!.start()));
    // A start cut short by a stop is no failure: the signal handler's stop() ends the process.
    if (opts.signal?.aborted) return stopped();
    const refused = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (refused) throw refused.reason;
    // The alert checker tells its lead at each check.
    let checking = false;
    const leases = () => {
      // In the console no poster runs and the launch watcher keeps the lease itself.
      const digests = poster ?? launches;
      return [
        telegramLease?.(),
        discordShards?.(),
        digests === undefined ? undefined : { name: "digest-poster", held: digests.leading() },
        alerts === undefined ? undefined : { name: "alerts.checker", held: checking },
        buyFeed === undefined ? undefined : { name: "buy-watcher", held: buyFeed.leading() },
        sweeper === undefined ? undefined : { name: "calls-sweep", held: sweeper.leading() },
      ].filter((l) => l !== undefined);
    };
    ops?.setChecks(
      readinessChecks({
        store: parts.store,
        market: parts.market,
        reach,
        platforms: running.filter((a) => a !== undefined),
        worker: { id: config.workerId, leases },
        ...(parts.redis ? { redis: parts.redis } : {}),
      }),
    );

    sweeper = createSweeper({
      market: parts.callMarket, store: parts.store.calls, leases: parts.store.subscriptions, holder, now: Date.now, log,
      periodMs: parts.callRules.sweepPeriodMs, plan: { rps: parts.scheduler.rps, dailyUnits: parts.scheduler.units.daily },
    });
    sweeper.start();
    const feedParts = {
      store: parts.store, market: parts.market, core, feedMarket: parts.feedMarket, budget: parts.feedBudget, logger: log,
      pollSeconds: config.buys.pollSeconds, maxPollSeconds: config.buys.maxPollSeconds, demo: config.market.mode === "demo", holder,
    };
    // One paced queue per platform for digests and alerts alike: the platform's limits are per bot.
    // The send protocol reports here after a kind's own counter (alerts', digests'), so every count is in.
    const onSend = (kind: string, platform: Platform, outcome: string): void => {
      metrics.sends.inc({ kind, platform, outcome });
      opts.onSendCounted?.(kind, platform, outcome);
    };
    const alertTimes = { checkMs: config.alerts.checkSeconds * 1000, cooldownMs: config.alerts.cooldownMinutes * 60_000, holder };
    if (running.length > 0) {
      const queues = {
        telegram: createTelegramDigestQueue({
          ratePerSecond: config.digest.telegramRate,
          ledger: telegramPace,
          onWait: (ms) => metrics.pacingWaitSeconds.observe({ platform: "telegram", kind: "scheduled" }, ms / 1000),
        }),
        discord: createDiscordDigestQueue({
          onWait: (ms) => metrics.pacingWaitSeconds.observe({ platform: "discord", kind: "scheduled" }, ms / 1000),
          redis: parts.redis,
          bot: config.discord?.applicationId,
        }),
      };
      alerts = createAlertService({
        store: parts.store, prices: parts.alertPrices, adapters, queues: deliveryWatch.watch("alert", queues), ...alertTimes, core, logger: log,
        onOutcome: (platform, outcome, afterMs) => {
          metrics.alertDeliveries.inc({ platform, outcome });
          if (outcome === "delivered" || outcome === "resent") metrics.alertDeliverySeconds.observe({ platform }, afterMs / 1000);
        },
        onCheck: (report) => (checking = report.leader),
        onSend,
      });
      await alerts.start();
      // The launch watcher claims under the poster's lease: one holder for both.
      poster = createPoster({
        holder,
        subscriptions: parts.store.subscriptions,
        chats: parts.store,
        core,
        adapters,
        queues: deliveryWatch.watch("digest", queues),
        logger: log,
        onOutcome: (platform, outcome) => metrics.digestDeliveries.inc({ platform, outcome }),
        onSend,
      });
      poster.start();
      buyFeed = createBuyFeedService({
        ...feedParts, sinks: adapters, queues: deliveryWatch.watch("buy", queues), metrics: createBuyMetrics(metrics.registry, parts.store.buys, Object.keys(adapters)), onSend,
      });
      buyFeed.start();
      const leader = poster;
      launches = createLaunchWatcher({
        launches: parts.store.launches, chats: parts.store, core, market: parts.market, lists: parts.launchLists, adapters, queues: deliveryWatch.watch("launch", queues), holder, onSend,
        lease: { leading: () => leader.leading() }, perHour: config.launches.perHour, logger: log,
      });
      launches.start();
      await guard?.recordSuccess();
      log.info({ platforms: running.map((a) => a!.platform), market: config.market.mode, source: parts.source }, "chainpulse is running");
    } else {
      log.info({ market: config.market.mode, source: parts.source }, "no bot token set: opening the console chat");
      const { runConsole } = await import("../adapters/console/run.js");
      alerts = createAlertService({
        store: parts.store,
        prices: parts.alertPrices,
        adapters: { console: consoleAlertSink({ output: opts.stdout, color: opts.stdin.isTTY === true }) },
        queues: { console: createPacedQueue({ maxInFlight: 1 }) },
        ...alertTimes,
        core,
        logger: log,
        onCheck: (report) => (checking = report.leader),
      });
      await alerts.start();
      const consoleSink = consoleAlertSink({ output: opts.stdout, color: opts.stdin.isTTY === true });
      buyFeed = createBuyFeedService({
        ...feedParts, sinks: { console: consoleSink }, queues: { console: createPacedQueue({ maxInFlight: 1 }) }, metrics: createBuyMetrics(metrics.registry, parts.store.buys, ["console"]),
      });
      buyFeed.start();
      // No poster runs here to hold the lease launches are claimed under: the watcher keeps it.
      launches = createLaunchWatcher({
        launches: parts.store.launches, chats: parts.store, core, market: parts.market, lists: parts.launchLists, adapters: { console: consoleSink },
        queues: { console: createPacedQueue({ maxInFlight: 1 }) }, holder,
        lease: { keep: parts.store.subscriptions }, perHour: config.launches.perHour, logger: log,
      });
      launches.start();
      void runConsole({ core, input: opts.stdin, output: opts.stdout, isTTY: opts.stdin.isTTY === true })
        .then(() => stop("console input ended"))
        .then(() => resolveFinished(0), (e: unknown) => {
          log.error({ err: e }, "console chat failed");
          resolveFinished(1);
        });
    }
  } catch (e) {
    // Whatever stopped the start (a refused token, another instance, an unreachable platform)
    // is recorded, so that a supervisor's restarts back off instead of hammering the logins.
    await stop("start-up failed");
    await recordFailedStart();
    throw new FatalStartError(e instanceof Error ? e.message : String(e));
  }
  return { finished, stop };
}
