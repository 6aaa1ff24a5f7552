/**
 * The world of the multi-worker Telegram tests: `chainpulse start` workers of one bot on real
 * PostgreSQL and Redis, behind a round-robin load balancer that the fake Bot API delivers its
 * webhook to, on a sandbox whose limiter refuses more than the plan's rate with 429 (reached
 * through a proxy that counts its answers).
 */
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { startRedis, type RedisEngine } from "../engines/redis.js";
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from "../fakes/telegram-api.js";
import type { WebhookDelivery } from "../fakes/telegram-webhook.js";
import { spawnBot, waitForHttp, type BotProcess } from "./bot-process.js";
import { startProxy, type Proxy } from "./round-robin-proxy.js";

export interface WorkersWorldOptions {
  workers: number;
  /** The market plan's rate: the sandbox refuses one call more in a second with 429. */
  rps: number;
  /** DIGEST_TELEGRAM_RATE: Telegram's rate for the bot's digests, kept by all workers together. */
  telegramRate: number;
  /** Runs once the database exists, before any worker starts (rows the workers find at start). */
  beforeWorkers?: (world: Pick<WorkersWorld, "databaseUrl" | "tg">) => Promise<void>;
  /** Options of the fake Bot API (Telegram's limits). */
  telegram?: FakeTelegramOptions;
  /** More variables for every worker. */
  env?: Record<string, string>;
}

export interface Worker {
  /** Its WORKER_ID: `worker-<i>`. */
  id: string;
  port: number;
  proc: BotProcess;
}

export interface WorkersWorld {
  pg: PostgresEngine;
  redis: RedisEngine;
  sandbox: Sandbox;
  /** Between the workers and the sandbox: counts what the market answered. */
  market: Proxy;
  tg: FakeTelegram;
  /** The load balancer the webhook is delivered to. */
  lb: Proxy;
  /**
   * The workers' webhook answers as the load balancer got them whole: from then on a worker's
   * death cannot cut them off (the fake's `attempts` see them after the balancer's hop).
   */
  answers: readonly WorkerAnswer[];
  webhook: WebhookDelivery;
  databaseUrl: string;
  workers: Worker[];
  /** The worker a lease holder's name (`host:pid:…`) stands for, if any. */
  holderOf(holder: string | undefined): Worker | undefined;
  /**
   * Starts worker `i` again (after it exited), as a rolling restart does, and resolves with it
   * once it is ready; the load balancer's slot `i` sends to its new port.
   */
  respawn(i: number): Promise<Worker>;
  close(): Promise<void>;
}

/** Until the worker on `port` says it is ready. */
export const ready = (port: number): Promise<unknown> => waitForHttp(`http://127.0.0.1:${port}/readyz`, (r) => r.status === 200, 60_000);

export interface WorkerAnswer {
  chatId: string;
  status: number;
  /** A 2xx answer with no body: it carried no reply. */
  empty: boolean;
}

/** The chat of a webhook request's update, when it is one about a message's chat. */
function chatOfRequest(request: Buffer): string | undefined {
  try {
    const u = JSON.parse(request.toString("utf8")) as { message?: { chat?: { id?: number } } };
    return u.message?.chat?.id === undefined ? undefined : String(u.message.chat.id);
  } catch {
    return undefined;
  }
}

export async function startWorkersWorld(opts: WorkersWorldOptions): Promise<WorkersWorld> {
  const [pg, redis, sandbox] = await Promise.all([startPostgres(), startRedis(), startSandbox({ rateLimit: { rps: opts.rps } })]);
  const databaseUrl = await pg.createDatabase();
  const market = await startProxy([sandbox.url]);
  const tg = await startFakeTelegram(opts.telegram);
  await opts.beforeWorkers?.({ databaseUrl, tg });
  const answers: WorkerAnswer[] = [];
  const workers: Worker[] = [];

  /** Worker `i` on a port it takes itself, once it says which. */
  const spawnWorker = async (i: number): Promise<Worker> => {
    const proc = spawnBot({
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_WEBHOOK_URL: "https://bot.example.test/",
      TELEGRAM_WEBHOOK_SECRET: "workers-test-secret",
      HTTP_PORT: "0",
      HTTP_HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      MARKET_API_KEY: sandbox.v2Key,
      MARKET_API_URL: market.url,
      MARKET_API_RPS: String(opts.rps),
      DIGEST_TELEGRAM_RATE: String(opts.telegramRate),
      WORKER_ID: `worker-${i}`,
      ...opts.env,
    });
    const worker = { id: `worker-${i}`, port: 0, proc };
    workers[i] = worker;
    worker.port = await proc.servedPort(60_000);
    return worker;
  };

  await Promise.all(Array.from({ length: opts.workers }, (_, i) => spawnWorker(i)));
  await Promise.all(workers.map((w) => ready(w.port)));
  const lb = await startProxy(
    workers.map((w) => `http://127.0.0.1:${w.port}`),
    {
      onAnswer: (request, status, body) => {
        const chatId = chatOfRequest(request);
        if (chatId !== undefined) answers.push({ chatId, status, empty: body.length === 0 });
      },
    },
  );
  const webhook = tg.deliverByWebhook({ to: (url) => `${lb.url}${new URL(url).pathname}` });

  return {
    pg,
    redis,
    sandbox,
    market,
    tg,
    lb,
    answers,
    webhook,
    databaseUrl,
    workers,
    holderOf: (holder) => workers.find((w) => holder?.split(":")[1] === String(w.proc.child.pid)),
    async respawn(i) {
      const worker = await spawnWorker(i);
      lb.setBackend(i, `http://127.0.0.1:${worker.port}`);
      await ready(worker.port);
      return worker;
    },
    async close() {
      webhook.stop();
      await Promise.all(
        workers.map(async (w) => {
          if (w.proc.child.exitCode === null && w.proc.child.signalCode === null) w.proc.child.kill("SIGKILL");
          await w.proc.exited;
        }),
      );
      await Promise.all([lb.close(), market.close(), tg.close(), sandbox.close()]);
      await Promise.all([pg.destroy(), redis.stop()]);
    },
  };
}
