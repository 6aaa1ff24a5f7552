/**
 * A bot started in process names its leases as they are: /readyz lists every lease it keeps,
 * the operator's page marks as "this worker" exactly the rows this process holds (not an
 * earlier process's under the same WORKER_ID), and a 409 that ends a bot which had served is
 * no failed start for the crash-loop guard.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startBot, type RunningBot } from "../../src/app/start-bot.js";
import { loadConfig } from "../../src/config.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import { fakeUser, privateChat, startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { waitForHttp } from "../process/bot-process.js";
import { portLogger } from "./port-logger.js";

const OPS_TOKEN = "ops-token-for-the-leases-test-0123456789";
/** A lease of a process that ran before this one under the same WORKER_ID, and died. */
const EARLIER = `${hostname()}:4194305:w1:earlier`;

let tg: FakeTelegram;
let bot: RunningBot;
let dir: string;
let base: string;

beforeAll(async () => {
  tg = await startFakeTelegram({ maxPollMs: 500 });
  dir = mkdtempSync(join(tmpdir(), "cp-leases-"));
  const earlier = await openSqliteStore({ path: join(dir, "bot.db") });
  await earlier.subscriptions.acquireLease("earlier-work", EARLIER, 60_000, Date.now() - 5 * 60_000);
  await earlier.close();
  const config = loadConfig({
    TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, HTTP_PORT: "0", DATABASE_PATH: join(dir, "bot.db"), OPS_TOKEN, WORKER_ID: "w1",
  });
  const logged = portLogger();
  bot = await startBot({ config, log: logged.log, stdin: Readable.from([]), stdout: new PassThrough() });
  base = `http://127.0.0.1:${logged.port()}`;
}, 60_000);

afterAll(async () => {
  await bot?.stop("test over");
  await tg?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a worker's leases", () => {
  it("are all named on /readyz, and marked as this worker's on the operator's page by this process's holder only", async () => {
    const every = "w1 holds digest-poster, holds alerts.checker, holds buy-watcher, holds calls-sweep";
    await waitForHttp(`${base}/readyz`, async (r) => ((await r.json()) as { checks: { worker?: { detail?: string } } }).checks.worker?.detail === every, 30_000);
    const html = await (await fetch(base, { headers: { authorization: `Bearer ${OPS_TOKEN}` } })).text();
    const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => m[1]!).filter((r) => /earlier-work|digest-poster|alerts\.checker|buy-watcher|calls-sweep/.test(r));
    const mine = rows.filter((r) => r.includes("(this worker)"));
    expect(mine.map((r) => /<td>([^<]+)<\/td>/.exec(r)?.[1]).sort()).toEqual(["alerts.checker", "buy-watcher", "calls-sweep", "digest-poster"]);
    expect(mine.every((r) => new RegExp(`${hostname()}:${process.pid}:w1:`).test(r))).toBe(true);
    expect(rows.find((r) => r.includes("earlier-work"))).toMatch(/expired/);
  });

  it("a 409 after the bot served ends it, and is no failed start for the crash-loop guard", async () => {
    const chat = privateChat(fakeUser());
    const asked = tg.sendText(chat, "/help");
    await tg.waitForSent((s) => s.replyTo === asked.message_id);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await tg.waitFor((c) => c.method === "getUpdates", { pending: true, since: tg.calls.length });
      tg.conflict();
      expect(await bot.finished).toBe(1);
      expect(stderr.mock.calls.map((c) => String(c[0]))).toContain("chainpulse: another process is polling with this bot token (409 Conflict): stop the other instance\n");
    } finally {
      stderr.mockRestore();
    }
    expect(existsSync(join(dir, ".start-failures.json"))).toBe(false);
  });
});

describe("the console chat's leases and feed", () => {
  it("are named on /readyz as the bot keeps them, and the buy feed is counted on /metrics", async () => {
    const consoleDir = mkdtempSync(join(tmpdir(), "cp-leases-console-"));
    const config = loadConfig({ HTTP_PORT: "0", DATABASE_PATH: join(consoleDir, "bot.db"), OPS_TOKEN, WORKER_ID: "c1" });
    const logged = portLogger();
    // Input that stays open, as a terminal's does, so the chat runs until the test stops it.
    const stdin = new PassThrough();
    const running = await startBot({ config, log: logged.log, stdin, stdout: new PassThrough() });
    try {
      const at = `http://127.0.0.1:${logged.port()}`;
      const every = "c1 holds digest-poster, holds alerts.checker, holds buy-watcher, holds calls-sweep";
      await waitForHttp(`${at}/readyz`, async (r) => ((await r.json()) as { checks: { worker?: { detail?: string } } }).checks.worker?.detail === every, 30_000);
      const metrics = await (await fetch(`${at}/metrics`, { headers: { authorization: `Bearer ${OPS_TOKEN}` } })).text();
      expect(metrics).toMatch(/^chainpulse_buys_pairs_watched\{/m);
    } finally {
      await running.stop("test over");
      rmSync(consoleDir, { recursive: true, force: true });
    }
  }, 60_000);
});
