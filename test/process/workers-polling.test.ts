/**
 * Two `chainpulse start` workers of one bot in long-polling mode on real PostgreSQL and Redis:
 * one polls under a lease, the other takes over when it dies.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { startRedis, type RedisEngine } from "../engines/redis.js";
import { fakeUser, privateChat, startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { spawnBot, waitForHttp, type BotProcess } from "./bot-process.js";

/** Bound of the scenario: two node processes on a busy machine and a lease of 20 s to run out. */
const SCENARIO_MS = 120_000;

let pg: PostgresEngine;
let redis: RedisEngine;
let sandbox: Sandbox;
let tg: FakeTelegram;
const workers: { id: string; port: number; proc: BotProcess }[] = [];

async function detail(port: number): Promise<string> {
  const body = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { checks: { worker?: { detail?: string } } };
  return body.checks.worker?.detail ?? "";
}

beforeAll(async () => {
  [pg, redis, sandbox] = await Promise.all([startPostgres(), startRedis(), startSandbox()]);
  const databaseUrl = await pg.createDatabase();
  tg = await startFakeTelegram({ maxPollMs: 500 });
  for (let i = 0; i < 2; i++) {
    const proc = spawnBot({
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.apiRoot,
      HTTP_PORT: "0",
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      MARKET_API_KEY: sandbox.v2Key,
      MARKET_API_URL: sandbox.url,
      WORKER_ID: `poller-${i}`,
    });
    workers.push({ id: `poller-${i}`, port: 0, proc });
  }
  for (const w of workers) w.port = await w.proc.servedPort(60_000);
  await Promise.all(workers.map((w) => waitForHttp(`http://127.0.0.1:${w.port}/readyz`, (r) => r.status === 200, 60_000)));
}, SCENARIO_MS);

afterAll(async () => {
  await Promise.all(
    workers.map(async (w) => {
      if (w.proc.child.exitCode === null && w.proc.child.signalCode === null) w.proc.child.kill("SIGKILL");
      await w.proc.exited;
    }),
  );
  await Promise.all([tg?.close(), sandbox?.close()]);
  await Promise.all([pg?.destroy(), redis?.stop()]);
}, SCENARIO_MS);

describe("two workers of one bot on long polling", () => {
  it(
    "exactly one polls; when it is SIGKILLed the other takes the lease and answers the next update",
    async () => {
      const chat = privateChat(fakeUser());
      const first = tg.sendText(chat, "/help");
      await tg.waitForSent((s) => s.replyTo === first.message_id, { timeoutMs: 60_000 });
      const details = await Promise.all(workers.map((w) => detail(w.port)));
      const poller = workers.find((_, i) => details[i]!.startsWith(`${workers[i]!.id} holds telegram-polling`));
      const other = workers.find((w) => w !== poller)!;
      expect(poller).toBeDefined();
      expect(await detail(other.port)).toMatch(new RegExp(`^${other.id} waits for telegram-polling`));

      poller!.proc.child.kill("SIGKILL");
      await poller!.proc.exited;
      const second = tg.sendText(chat, "/help");
      await tg.waitForSent((s) => s.replyTo === second.message_id, { timeoutMs: 60_000 });
      expect(await detail(other.port)).toMatch(new RegExp(`^${other.id} holds telegram-polling`));
      await other.proc.waitForLog(/lease taken: this worker does it/);
      // Never two pollers at once: Telegram's 409 never came.
      expect(tg.calls.filter((c) => c.method === "getUpdates" && c.error?.error_code === 409)).toEqual([]);
      expect(other.proc.child.exitCode).toBeNull();
    },
    SCENARIO_MS,
  );

  it(
    "the poller goes on answering while PostgreSQL is down, keeping its lease, and renews it when the server is back",
    async () => {
      const poller = workers.find((w) => w.proc.child.exitCode === null && w.proc.child.signalCode === null)!;
      const chat = privateChat(fakeUser());
      const before = tg.sendText(chat, "/help");
      await tg.waitForSent((s) => s.replyTo === before.message_id, { timeoutMs: 60_000 });
      await pg.stop();
      // The renewal that found the server gone: before the fix the worker stopped polling here.
      await poller.proc.waitForLog(/"lease":"telegram-polling".*lease (not renewed|could not be renewed)/, 60_000);
      const during = tg.sendText(chat, "/help");
      await tg.waitForSent((s) => s.replyTo === during.message_id, { timeoutMs: 60_000 });
      expect(await detail(poller.port)).toMatch(new RegExp(`^${poller.id} holds telegram-polling \\(not renewed: the store is unreachable\\)`));
      await pg.start();
      await poller.proc.waitForLog(/the store answers again: lease renewed/, 60_000);
      expect(poller.proc.child.exitCode).toBeNull();
    },
    SCENARIO_MS,
  );
});

describe("a start refused on PostgreSQL", () => {
  it(
    "says the refused token when the crash-loop guard cannot record it beside DATABASE_PATH, and logs why",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "chainpulse-guard-"));
      // A file where DATABASE_PATH's folder should be: the guard's record cannot be made, as
      // under a folder the bot's user may not write (the database itself is PostgreSQL).
      writeFileSync(join(dir, "data"), "");
      const refused = spawnBot(
        { TELEGRAM_BOT_TOKEN: "999999:REFUSED-token-value-for-test", TELEGRAM_API_ROOT: tg.apiRoot, DATABASE_URL: await pg.createDatabase(), DATABASE_PATH: join(dir, "data", "bot.db") },
        { cwd: dir },
      );
      expect((await refused.exited).code).toBe(1);
      const said = refused.stderr().split("\n").filter((l) => l.startsWith("chainpulse:"));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/token/i);
      const warned = await refused.waitForLog(/crash-loop guard: this failed start could not be recorded/);
      expect(JSON.parse(warned)).toMatchObject({ level: 40, file: join(dir, "data", ".start-failures.json") });
    },
    SCENARIO_MS,
  );
});
