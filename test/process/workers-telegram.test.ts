/**
 * Three `chainpulse start` workers of one bot on real PostgreSQL and Redis, behind a
 * round-robin load balancer that the fake Bot API delivers its webhook to, on a sandbox whose
 * limiter refuses more than the plan's rate with 429.
 */
import type { Chat, Message } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { startRedis, type RedisEngine } from "../engines/redis.js";
import { fakeUser, privateChat, startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import type { WebhookDelivery } from "../fakes/telegram-webhook.js";
import { freePort, spawnBot, waitForHttp, type BotProcess } from "./bot-process.js";
import { startProxy, type Proxy } from "./round-robin-proxy.js";

const WORKERS = 3;
const CHATS = 200;
const UPDATES_PER_CHAT = 5;
/** The market plan's rate: the sandbox refuses a sixth call in one second with 429. */
const RPS = 5;
/** Telegram's rate for the bot's digests, kept by all workers together. */
const TELEGRAM_RATE = 30;
/** Bound of each scenario: three node processes and 1,000 updates on a busy 2-core machine. */
const SCENARIO_MS = 150_000;

let pg: PostgresEngine;
let redis: RedisEngine;
let sandbox: Sandbox;
let market: Proxy;
let tg: FakeTelegram;
let lb: Proxy;
let webhook: WebhookDelivery;
let databaseUrl: string;
const workers: { id: string; port: number; proc: BotProcess }[] = [];

function spawnWorker(i: number, port: number): BotProcess {
  const proc = spawnBot({
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    TELEGRAM_WEBHOOK_URL: "https://bot.example.test/",
    TELEGRAM_WEBHOOK_SECRET: "workers-test-secret",
    HTTP_PORT: String(port),
    HTTP_HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    MARKET_API_KEY: sandbox.v2Key,
    MARKET_API_URL: market.url,
    MARKET_API_RPS: String(RPS),
    DIGEST_TELEGRAM_RATE: String(TELEGRAM_RATE),
    WORKER_ID: `worker-${i}`,
  });
  const w = { id: `worker-${i}`, port, proc };
  workers[i] = w;
  return proc;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = SCENARIO_MS - 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ready = (port: number) => waitForHttp(`http://127.0.0.1:${port}/readyz`, (r) => r.status === 200, 60_000);

beforeAll(async () => {
  [pg, redis, sandbox] = await Promise.all([startPostgres(), startRedis(), startSandbox({ rateLimit: { rps: RPS } })]);
  databaseUrl = await pg.createDatabase();
  market = await startProxy([sandbox.url]);
  tg = await startFakeTelegram();
  const ports = await Promise.all(Array.from({ length: WORKERS }, () => freePort()));
  lb = await startProxy(ports.map((p) => `http://127.0.0.1:${p}`));
  ports.forEach((port, i) => spawnWorker(i, port));
  await Promise.all(ports.map(ready));
  webhook = tg.deliverByWebhook({ to: (url) => `${lb.url}${new URL(url).pathname}` });
}, SCENARIO_MS);

afterAll(async () => {
  webhook?.stop();
  await Promise.all(
    workers.map(async (w) => {
      if (w.proc.child.exitCode === null && w.proc.child.signalCode === null) w.proc.child.kill("SIGKILL");
      await w.proc.exited;
    }),
  );
  await Promise.all([lb?.close(), market?.close(), tg?.close(), sandbox?.close()]);
  await Promise.all([pg?.destroy(), redis?.stop()]);
}, SCENARIO_MS);

describe("three workers of one bot behind a load balancer", () => {
  it("set the webhook once, and each names itself and its engines on /readyz and its metrics", async () => {
    expect(tg.calls.filter((c) => c.method === "setWebhook")).toHaveLength(1);
    for (const w of workers) {
      const body = (await (await fetch(`http://127.0.0.1:${w.port}/readyz`)).json()) as { checks: Record<string, { ok: boolean; detail?: string }> };
      expect(body.checks.worker?.detail).toMatch(new RegExp(`^${w.id} (holds|waits for) telegram-webhook, (holds|waits for) digest-poster$`));
      expect(body.checks.store?.ok).toBe(true);
      expect(body.checks.redis).toEqual({ ok: true, detail: "shared state" });
      const metrics = await (await fetch(`http://127.0.0.1:${w.port}/metrics`)).text();
      expect(metrics).toContain(`worker="${w.id}"`);
    }
    const holders = await Promise.all(workers.map(async (w) => ((await (await fetch(`http://127.0.0.1:${w.port}/readyz`)).json()) as { checks: { worker: { detail: string } } }).checks.worker.detail));
    expect(holders.filter((d) => d.includes("holds telegram-webhook"))).toHaveLength(1);
    expect(holders.filter((d) => d.includes("holds digest-poster"))).toHaveLength(1);
  });

  it(
    `${CHATS * UPDATES_PER_CHAT} updates from ${CHATS} chats are each answered in order per chat with a worker SIGKILLed mid-run: once, unless the kill fell between an answer and its acknowledgement; no 429 from the market`,
    async () => {
      const chats: Chat[] = Array.from({ length: CHATS }, () => privateChat(fakeUser()));
      const asked = new Map<string, Message[]>();
      for (let round = 0; round < UPDATES_PER_CHAT; round++) {
        for (const chat of chats) {
          const m = tg.sendText(chat, round % 2 === 0 ? "/help" : "/price pepe");
          asked.set(String(chat.id), [...(asked.get(String(chat.id)) ?? []), m]);
        }
      }
      const answered = (): number => new Set(tg.sent.filter((s) => s.replyTo !== undefined).map((s) => `${s.chatId}:${s.replyTo}`)).size;
      const total = CHATS * UPDATES_PER_CHAT;
      await until(() => answered() >= total / 3, "a third of the updates answered");
      const victim = workers[1]!;
      victim.proc.child.kill("SIGKILL");
      await victim.proc.exited;
      await until(() => answered() >= total && webhook.pending() === 0, "every update answered");

      // Deliveries the SIGKILL cut off: the worker may have answered before it died, and
      // Telegram, never told, delivers the update again (webhooks are at least once).
      const cutOff = new Set(webhook.attempts.filter((a) => a.status === 502 || a.status === 0).map((a) => a.chatId));
      let twice = 0;
      for (const [chatId, messages] of asked) {
        const replies = tg.sent.filter((s) => s.chatId === chatId && s.replyTo !== undefined).map((s) => s.replyTo);
        const once = replies.filter((r, i) => i === 0 || r !== replies[i - 1]);
        // Each answered, in the order the chat asked.
        expect(once).toEqual(messages.map((m) => m.message_id));
        if (once.length !== replies.length) {
          expect(cutOff.has(chatId)).toBe(true);
          twice += replies.length - once.length;
        }
      }
      expect(twice).toBeLessThanOrEqual(cutOff.size);
      // Every redelivery that found its update answered was only acknowledged: no one else answered twice.
      expect(tg.sent.filter((s) => s.replyTo !== undefined).length).toBe(CHATS * UPDATES_PER_CHAT + twice);
      expect(market.statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(market.statuses.get(429) ?? 0).toBe(0);
      expect(tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
      // The load balancer spread the updates over every worker.
      expect(lb.served.size).toBe(WORKERS);
    },
    SCENARIO_MS,
  );
});
