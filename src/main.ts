/**
 * Wiring only: config → market → cache → store → core → adapters → poster → ops port.
 * Each part is built by its own module; this file decides what runs and in which order it stops.
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Logger } from "pino";
import type { PlatformAdapter } from "./adapters/types.js";
import { buildCore } from "./app/build-core.js";
import type { Config } from "./config.js";
import { createPacedQueue } from "./digest/paced-queue.js";
import { createPoster, type Poster } from "./digest/poster.js";
import { startOpsServer, type OpsServer, type ReadinessCheck, type RequestHandler } from "./ops/http-server.js";
import { instrumentCore } from "./ops/instrument-core.js";
import { createMetrics } from "./ops/metrics.js";
import { createStartGuard, type StartGuard } from "./ops/start-guard.js";
import type { Platform } from "./store/types.js";

export interface StartOptions {
  config: Config;
  log: Logger;
  /** The console chat's input and output, when no bot token is set. */
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
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

/** Telegram digests: at most 20 messages a minute to one group; a few in flight. */
const TELEGRAM_PER_CHAT_PER_MINUTE = 20;
const TELEGRAM_IN_FLIGHT = 4;
/** Discord: a few posts in flight; a rate-limited post comes back as `retry` and pauses the queue. */
const DISCORD_IN_FLIGHT = 5;

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
  const metrics = createMetrics();
  const guard = startGuardFor(config);
  const waited = (await guard?.delayMs()) ?? 0;
  if (waited > 0) {
    log.warn({ waitMs: waited }, "recent starts failed: waiting before logging in again, to spare the platforms' login quotas");
    await guard?.waitBeforeStart();
  }
  if (config.market.mode === "demo") log.info("showing demo data: no MARKET_API_KEY is set, so the market is the built-in sandbox");

  const built = await buildCore(config, {
    log,
    onCacheEvent: (e) => metrics.cache.inc({ method: e.method, outcome: e.outcome }),
    onMarketCall: (e) => metrics.upstreamCalls.inc({ endpoint: e.endpoint, outcome: e.outcome }),
  });
  const core = instrumentCore(built.core, metrics);
  const adapters: Partial<Record<Platform, PlatformAdapter>> = {};
  const routes = new Map<string, RequestHandler>();
  let resolveFinished!: (code: number) => void;
  const finished = new Promise<number>((r) => (resolveFinished = r));
  let stopping: Promise<void> | undefined;
  let poster: Poster | undefined;
  let ops: OpsServer | undefined;

  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      log.info({ reason }, "stopping");
      // The poster first: it records where it stopped while the platforms can still be reached.
      await poster?.stop();
      await Promise.all(Object.values(adapters).map((a) => a?.stop()));
      await ops?.close();
      await built.close();
    })();
    return stopping;
  };
  const fail = (line: string): void => {
    process.stderr.write(`chainpulse: ${line}\n`);
    void guard?.recordFailure().catch(() => undefined);
    void stop("fatal error").then(() => resolveFinished(1));
  };

  try {
    if (config.telegram) {
      const { createTelegramAdapter } = await import("./adapters/telegram/adapter.js");
      const telegram = createTelegramAdapter({
        token: config.telegram.token,
        apiRoot: config.telegram.apiRoot,
        core,
        store: built.store,
        logger: log,
        ...(config.telegram.webhook
          ? { webhook: { url: config.telegram.webhook.url, secret: config.telegram.webhook.secret ?? webhookSecret(config.telegram.token) } }
          : {}),
        onFatal: (e) => fail(e.message),
      });
      telegram.bot.api.config.use(async (prev, method, payload, signal) => {
        const res = await prev(method, payload, signal);
        if (!res.ok && res.error_code === 429) metrics.platform429.inc({ platform: "telegram" });
        return res;
      });
      if (telegram.webhook) routes.set(telegram.webhook.path, telegram.webhook.handler);
      adapters.telegram = telegram;
    }
    if (config.discord) {
      const { createDiscordAdapter } = await import("./adapters/discord/index.js");
      adapters.discord = createDiscordAdapter({
        token: config.discord.token,
        applicationId: config.discord.applicationId,
        apiRoot: config.discord.apiRoot,
        messageContent: config.discord.messageContent,
        core,
        store: built.store,
        logger: log,
      });
    }

    if (config.http) {
      const checks: ReadinessCheck[] = [
        { name: "store", check: async () => (built.store.isOpen() ? { ok: true } : { ok: false, detail: "database closed" }) },
        {
          name: "market",
          // Through the cache: a market that is down still counts while answers are served from it.
          check: async () => {
            const r = await built.market.supportedChains();
            return { ok: true, ...(r.stale ? { detail: "serving from cache: the service is failing" } : {}) };
          },
        },
        ...Object.values(adapters).map((a) => ({
          name: a!.platform,
          check: async () => (a!.isReady() ? { ok: true } : { ok: false, detail: "not connected" }),
        })),
      ];
      ops = await startOpsServer({ host: config.http.host, port: config.http.port, metrics, checks, logger: log, routes });
      log.info({ host: config.http.host, port: ops.port }, "health, readiness and metrics are served");
    }

    const running = Object.values(adapters);
    // Every start settles before a failure stops them all: a platform still starting when the
    // stop came would come up after it and hold the process open.
    const started = await Promise.allSettled(running.map((a) => a!.start()));
    const refused = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (refused) throw refused.reason;

    if (running.length > 0) {
      poster = createPoster({
        subscriptions: built.store.subscriptions,
        chats: built.store,
        market: built.backgroundMarket,
        adapters,
        queues: {
          telegram: createPacedQueue({
            ratePerSecond: config.digest.telegramRate,
            perChatPerMinute: TELEGRAM_PER_CHAT_PER_MINUTE,
            maxInFlight: TELEGRAM_IN_FLIGHT,
            onWait: (ms) => metrics.pacingWaitSeconds.observe({ platform: "telegram" }, ms / 1000),
            onRateLimited: () => metrics.platform429.inc({ platform: "telegram" }),
          }),
          discord: createPacedQueue({
            maxInFlight: DISCORD_IN_FLIGHT,
            onWait: (ms) => metrics.pacingWaitSeconds.observe({ platform: "discord" }, ms / 1000),
            onRateLimited: () => metrics.platform429.inc({ platform: "discord" }),
          }),
        },
        logger: log,
        source: built.source,
        onOutcome: (platform, outcome) => metrics.digestDeliveries.inc({ platform, outcome }),
      });
      poster.start();
      await guard?.recordSuccess();
      log.info({ platforms: running.map((a) => a!.platform), market: config.market.mode, source: built.source }, "chainpulse is running");
    } else {
      log.info({ market: config.market.mode, source: built.source }, "no bot token set: opening the console chat");
      const { runConsole } = await import("./adapters/console/run.js");
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
    await guard?.recordFailure();
    throw new FatalStartError(e instanceof Error ? e.message : String(e));
  }
  return { finished, stop };
}
