import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readinessChecks } from "../../src/app/readiness.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { MarketClient } from "../../src/market/client.js";
import { readiness, startOpsServer, type OpsServer } from "../../src/ops/http-server.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/store.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { coreOverStore, type CoreOverStore } from "./core-over-store.js";

const CANT_SAVE = "My database can't be reached, so that was not saved; try again in a minute.";
const CANT_READ = "I can't reach my database right now; try again in a minute.";
const SAVE_UNKNOWN = "My database did not answer in time, so I can't tell whether that was saved; look again in a minute.";
const NOT_ANSWERING = "My database is not answering right now; try again in a minute.";

// One server for the file, a database of its own per test: each test leaves the server running.
let engine: PostgresEngine;
beforeAll(async () => {
  engine = await startPostgres();
});
afterAll(async () => {
  await engine.destroy();
});

describe("PostgreSQL lost mid-run", () => {
  let store: PostgresStore;
  let bot: CoreOverStore;
  let sandbox: Sandbox;
  let client: MarketClient;
  let ops: OpsServer;

  beforeAll(async () => {
    store = await openPostgresStore({ url: await engine.createDatabase("outage"), connectTimeoutMs: 2_000 });
    bot = await coreOverStore(store);
    sandbox = await startSandbox({ seed: 1 });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key } });
    ops = await startOpsServer({
      host: "127.0.0.1",
      port: 0,
      metrics: createMetrics({ processMetrics: false }),
      checks: readinessChecks({ store, market: createCachedMarket(client), platforms: [] }),
      logger: pino({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await ops.close();
    await client.close();
    await sandbox.close();
    await bot.close();
    await store.close();
  });

  const readyz = async () => {
    const res = await fetch(`http://127.0.0.1:${ops.port}/readyz`);
    return { status: res.status, body: (await res.json()) as { notReady?: string[]; checks: Record<string, { ok: boolean; detail?: string }> } };
  };

  it("answers settings and lists from what it last read, refuses changes with one sentence, is not ready naming DATABASE_URL, and recovers", async () => {
    expect(await bot.say("/settings chain bsc")).toContain("default chain bsc");
    await bot.say("/watch pepe");
    const watchlist = await bot.say("/watchlist");
    expect(watchlist).toContain("PEPE");
    expect((await readyz()).status).toBe(200);

    await engine.stop();

    // The chat's settings and watchlist come from what this process last saw.
    expect(await bot.say("/settings")).toContain("bsc");
    expect(await bot.say("/watchlist")).toContain("PEPE");
    expect(await bot.say("/unwatch pepe")).toContain(CANT_SAVE);
    // A change cannot be kept: one sentence, not "something went wrong".
    const refused = await bot.say("/settings chain eth");
    expect(refused).toContain(CANT_SAVE);
    expect(refused).not.toContain("went wrong");
    // A chat this process never read has nothing to fall back on.
    const other = JSON.stringify(await bot.core.handleText({ platform: "telegram", chatId: "-2002", userId: "7", isPrivate: false, isAdmin: async () => true }, "/settings"));
    expect(other).toContain(CANT_READ);
    // A market answer needs no database: that chat's /price and /trending answer with the defaults.
    const never = { platform: "telegram" as const, chatId: "-2003", userId: "8", isPrivate: false, isAdmin: async () => true };
    const price = JSON.stringify(await bot.core.handleText(never, "/price pepe"));
    expect(price).toContain("PEPE");
    expect(price).not.toContain("database");
    // Its card asks for its chart as a chat with default settings does, the store unread.
    await bot.core.handleText(never, "/token pepe");
    expect(bot.logs.filter((l) => l["msg"] === "token card goes without its chart" && JSON.stringify(l["err"]).includes("StoreError"))).toEqual([]);
    const trending = JSON.stringify(await bot.core.handleText(never, "/trending"));
    expect(trending).toContain("Trending on");
    expect(trending).not.toContain("database");

    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body.notReady).toEqual(["store"]);
    expect(down.body.checks["store"]?.detail).toContain(`DATABASE_URL (127.0.0.1:${engine.port}/outage)`);
    expect(bot.logs.some((l) => l["msg"] === "command failed: database unavailable")).toBe(true);
    expect(bot.logs.some((l) => String(l["msg"]).includes("bug"))).toBe(false);

    await engine.start();

    expect(await bot.say("/settings chain eth")).toContain("default chain eth");
    expect((await readyz()).status).toBe(200);
  });
});

describe("PostgreSQL that stops answering on open connections", () => {
  it("counts as lost after the query timeout: the change is refused with the sentence, and it works again once the server answers", async () => {
    const store = await openPostgresStore({ url: await engine.createDatabase(), connectTimeoutMs: 1_000, queryTimeoutMs: 1_000 });
    const bot = await coreOverStore(store);
    try {
      expect(await bot.say("/settings chain bsc")).toContain("default chain bsc");
      await engine.pause();
      expect(await bot.say("/settings chain eth")).toContain(CANT_SAVE);
      expect(await store.health()).toMatchObject({ ok: false, detail: expect.stringContaining("DATABASE_URL") });
      await engine.resume();
      expect(await bot.say("/settings chain eth")).toContain("default chain eth");
    } finally {
      await engine.resume();
      await bot.close();
      await store.close();
    }
  });
});

describe("PostgreSQL hung (SIGSTOPped) with the driver's own 15 s query timeout", () => {
  // Six commands each held until the driver gave up would take 90 s: the bound is the answer deadline.
  it("answers every command within the answer deadline: reads from memory, changes with the database's sentence, never the market's", { timeout: 45_000 }, async () => {
    const store = await openPostgresStore({ url: await engine.createDatabase("hung"), connectTimeoutMs: 5_000 });
    const bot = await coreOverStore(store);
    try {
      expect(await bot.say("/settings chain solana")).toContain("default chain solana");
      expect(await bot.say("/watch wif")).toContain("WIF");
      expect(await bot.say("/watchlist")).toContain("WIF");
      await engine.pause();

      const price = await bot.say("/price wif");
      expect(price).toMatch(/WIF[^"]*\$\d/);
      expect(price).not.toContain("error");
      expect(await bot.say("/settings")).toContain("solana");
      expect(await bot.say("/watchlist")).toContain("WIF");
      // Readiness names the database that hangs, not only a check that was slow.
      const ready = await readiness([{ name: "store", check: () => store.health() }], 2_000);
      expect(ready.checks["store"]).toEqual({ ok: false, detail: expect.stringMatching(/^PostgreSQL at DATABASE_URL \(.+\) did not answer within/) });
      const alert = await bot.say("/alert wif move 10%");
      expect(alert).toContain(SAVE_UNKNOWN);
      expect(alert).not.toContain("market service");
      const watch = await bot.say("/watch pepe");
      expect(watch).not.toContain("market service");
      expect(watch).not.toContain("Settings");
      // A chat this process never read: the server is known to hang, so it says so at once.
      const other = JSON.stringify(await bot.core.handleText({ platform: "telegram", chatId: "-3003", userId: "7", isPrivate: false, isAdmin: async () => true }, "/alerts"));
      expect(other).toContain(NOT_ANSWERING);
      expect(bot.logs.some((l) => l["msg"] === "command failed: database not answering")).toBe(true);
      expect(bot.logs.some((l) => String(l["msg"]).includes("bug"))).toBe(false);

      await engine.resume();
      await expect.poll(() => bot.say("/settings chain eth"), { timeout: 20_000 }).toContain("default chain eth");
    } finally {
      await engine.resume();
      await bot.close();
      await store.close();
    }
  });
});
