/**
 * Issue 27, point 1: the service answers garbage that `Number()` would read as a price. With a
 * proxy in front of the sandbox putting each garbage value in every batch price, no alert fires,
 * no anchor moves, and /alert and /rearm refuse to take it as the current price.
 */
import { PassThrough, Readable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConsole, CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { createAlertChecker } from "../../src/alerts/checker.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createBotCore } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { AlertRule } from "../../src/store/types.js";
import { startGarblingProxy, type GarblingProxy } from "../market/garbling-proxy.js";

const T0 = Date.UTC(2026, 10, 24, 9, 0);
const log = pino({ level: "silent" });
const chat = { platform: CONSOLE_CHAT.platform, chatId: CONSOLE_CHAT.chatId };

/** What `Number(text)` reads as a price, and the service never means one: raw JSON as the proxy sends it. */
const GARBAGE = ['"0x10"', '"0b11"', '" 16 "', "1e308", '"1e-300"', '"Infinity"', `"${"9".repeat(400)}"`, '"NaN"', '"16,5"', '"-3"'];

let sandbox: Sandbox;
let proxy: GarblingProxy;
let t = T0;
beforeAll(async () => {
  sandbox = await startSandbox({ now: () => t, seed: 1 });
  proxy = await startGarblingProxy(sandbox.url);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

async function bot() {
  const client = new MarketClient({ v2: { baseUrl: proxy.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 5_000 });
  const store = await openSqliteStore({ path: ":memory:" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: () => t }), store, charts: { render: () => Promise.reject(new Error("no charts")), close: async () => undefined },
    log, source: "demo data (sandbox)", now: () => t, budget: { perUser: 100_000, perChat: 100_000 },
  });
  const checker = createAlertChecker({ store, prices: client, platforms: ["console"], cooldownMs: 0, leaseTtlMs: 90_000, logger: log, now: () => t });
  const say = async (line: string): Promise<string> => {
    const output = new PassThrough();
    let out = "";
    output.on("data", (c: Buffer) => (out += c.toString()));
    await runConsole({ core, input: Readable.from([`${line}\n`]), output, now: () => t });
    return out;
  };
  const close = async () => {
    await client.close();
    await store.close();
  };
  return { client, store, checker, say, close };
}

const pepe = () => sandbox.market.bySymbol("PEPE")[0]!;
const realPrice = () => sandbox.market.priceAt(pepe(), Math.floor(t / 1000));

describe("garbage prices from the service", () => {
  it("fire no alert and move no anchor, and the real price afterwards fires nothing either", async () => {
    t = T0;
    proxy.garbage = undefined;
    const b = await bot();
    const p = realPrice();
    const add = async (rule: AlertRule, level: number) => {
      const r = await b.store.alerts.addAlert({ ...chat, tokenId: pepe().id, symbol: "PEPE", chain: "eth", rule, level: String(level), anchorPrice: String(p), anchorAt: t }, 100, t);
      if (!("alert" in r)) throw new Error("full");
    };
    await add("above", p * 1.5);
    await add("below", p / 1.5);
    await add("move", 10);
    expect((await b.checker.check()).queued).toBe(0);
    const anchors = (await b.store.alerts.listAlerts(chat)).map((a) => a.anchorPrice);
    for (const g of GARBAGE) {
      proxy.garbage = g;
      t += 30_000;
      const report = await b.checker.check();
      expect({ g, failed: report.failedCalls, queued: report.queued }).toEqual({ g, failed: 0, queued: 0 });
    }
    expect(proxy.garbled).toBeGreaterThanOrEqual(GARBAGE.length);
    expect((await b.store.alerts.listAlerts(chat)).map((a) => a.anchorPrice)).toEqual(anchors);
    proxy.garbage = undefined;
    t += 30_000;
    expect(Math.abs(realPrice() / p - 1)).toBeLessThan(0.1);
    expect((await b.checker.check()).queued).toBe(0);
    expect((await b.store.alerts.listAlerts(chat)).every((a) => a.armed)).toBe(true);
    await b.close();
  });

  it("is no current price to set or re-arm an alert on", async () => {
    t = T0 + 3_600_000;
    proxy.garbage = undefined;
    const b = await bot();
    expect(await b.say("/alert pepe move 10%")).toContain("Alert #1 set");
    for (const g of GARBAGE) {
      proxy.garbage = g;
      t += 60_000;
      expect(await b.say(`/alert pepe above 0.5`)).toContain("The service has no current price for PEPE, so there is nothing to set an alert on.");
      t += 60_000;
      expect(await b.say("/rearm 1")).toContain("The service has no current price for PEPE");
    }
    const alerts = await b.store.alerts.listAlerts(chat);
    expect(alerts).toHaveLength(1);
    expect(Number(alerts[0]!.anchorPrice)).toBeGreaterThan(0);
    expect(Number.isFinite(Number(alerts[0]!.anchorPrice))).toBe(true);
    await b.close();
  });

  it("refuses a move below the 0.01% a firing can show (issue 27, point 2)", async () => {
    t = T0 + 5_400_000;
    proxy.garbage = undefined;
    const b = await bot();
    expect(await b.say("/alert pepe move 0.000000000001")).toContain("A move below 0.01% would fire at every check; choose 0.01% or more.");
    expect(await b.store.alerts.listAlerts(chat)).toEqual([]);
    await b.close();
  });

  it("re-anchors a move alert whose stored anchor was garbage instead of firing at the first real price", async () => {
    t = T0 + 7_200_000;
    proxy.garbage = undefined;
    const b = await bot();
    for (const anchor of ["Infinity", "1e-300", "0x10", "9".repeat(400)]) {
      const r = await b.store.alerts.addAlert({ ...chat, tokenId: pepe().id, symbol: "PEPE", chain: "eth", rule: "move", level: "10", anchorPrice: anchor, anchorAt: t }, 100, t);
      expect("alert" in r).toBe(true);
    }
    t += 30_000;
    expect((await b.checker.check()).queued).toBe(0);
    const anchors = (await b.store.alerts.listAlerts(chat)).map((a) => Number(a.anchorPrice));
    expect(anchors.every((a) => Math.abs(a / realPrice() - 1) < 0.01)).toBe(true);
    expect(await b.say("/alerts")).not.toMatch(/NaN|Infinity/);
    await b.close();
  });

  it("finds alert #1,000 as /unalert and /rearm are given it, grouped as replies print it (point 8)", async () => {
    t = T0 + 9_000_000;
    proxy.garbage = undefined;
    const b = await bot();
    // The chat has given out 999 numbers before: the next alert is #1,000.
    b.store.db.prepare("INSERT INTO alert_numbers (platform, chat_id, last_number) VALUES (?, ?, 999)").run(chat.platform, chat.chatId);
    expect(await b.say("/alert pepe move 10%")).toContain("Alert #1,000 set");
    t += 60_000;
    expect(await b.say("/rearm #1,000")).toContain("#1,000");
    expect(await b.say("/unalert #1,000")).toContain("Deleted alert #1,000.");
    expect(await b.store.alerts.listAlerts(chat)).toEqual([]);
    expect(await b.say("/unalert 1,00")).toContain("Which alert?");
    await b.close();
  });
});
