/**
 * The checker on a real SQLite store, with prices from a stand-in for the service's batch price
 * endpoint that records every call: what fires, when, and what a check costs.
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createAlertChecker } from "../../src/alerts/checker.js";
import type { FiredPayload, PausedPayload } from "../../src/core/posts/alert.js";
import type { BatchPricesParams } from "../../src/market/api.js";
import type { PriceMap } from "../../src/market/schemas.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import type { AlertRule, NewAlert } from "../../src/store/types.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 10, 24, 9, 0);
const log = pino({ level: "silent" });

interface World {
  store: SqliteStore;
  clock: { t: number };
  prices: Map<string, number>;
  calls: BatchPricesParams[];
  /** Runs during the next batch call (a command racing a check). */
  during?: () => Promise<void>;
  failNext: boolean;
  check(): Promise<import("../../src/alerts/checker.js").CheckReport>;
  add(tokenId: string, rule: AlertRule, level: number, anchor: number, chatId?: string): Promise<number>;
  notices(): Promise<{ kind: string; chatId: string; payload: FiredPayload & PausedPayload }[]>;
}

async function world(cooldownMs = 15 * MIN): Promise<World> {
  const store = await openSqliteStore({ path: ":memory:" });
  const clock = { t: T0 };
  const w: World = {
    store,
    clock,
    prices: new Map(),
    calls: [],
    failNext: false,
    check: () => checker.check(),
    async add(tokenId, rule, level, anchor, chatId = "-100") {
      const a: NewAlert = {
        platform: "telegram", chatId, tokenId, symbol: tokenId.slice(0, 4).toUpperCase(), chain: "solana",
        rule, level: String(level), anchorPrice: String(anchor), anchorAt: clock.t,
      };
      const r = await store.alerts.addAlert(a, 1000, clock.t);
      if (!("alert" in r)) throw new Error("full");
      return r.alert.number;
    },
    async notices() {
      const rows = store.db.prepare("SELECT kind, chat_id, payload FROM alert_firings ORDER BY id").all() as { kind: string; chat_id: string; payload: string }[];
      return rows.map((r) => ({ kind: r.kind, chatId: r.chat_id, payload: JSON.parse(r.payload) as FiredPayload & PausedPayload }));
    },
  };
  const checker = createAlertChecker({
    store,
    platforms: ["telegram"],
    cooldownMs,
    leaseTtlMs: 90_000,
    logger: log,
    now: () => clock.t,
    prices: {
      async batchPrices(p) {
        w.calls.push(p);
        const hook = w.during;
        w.during = undefined;
        await hook?.();
        if (w.failNext) {
          w.failNext = false;
          throw new Error("the market service is not answering");
        }
        const out: PriceMap = {};
        for (const id of p.tokenIds) {
          const v = w.prices.get(id);
          if (v !== undefined) out[id] = { token_id: id, current_price_usd: String(v), price_change_24h: "1.5" };
        }
        return out;
      },
    },
  });
  return w;
}

async function step(w: World, price: number, id = "pepe-solana"): Promise<number> {
  w.clock.t += 30_000;
  w.prices.set(id, price);
  return (await w.check()).queued;
}

describe("the alert checker", () => {
  it("fires an above alert once when the price crosses the level, then leaves it disarmed", async () => {
    const w = await world();
    await w.add("pepe-solana", "above", 10, 8);
    expect(await step(w, 9)).toBe(0);
    expect(await step(w, 10.2)).toBe(1);
    expect(await step(w, 11)).toBe(0);
    const [n] = await w.notices();
    expect(n).toMatchObject({ kind: "fired", chatId: "-100", payload: { rule: "above", level: "10", from: "9", price: "10.2", number: 1 } });
    expect((await w.store.alerts.listAlerts({ platform: "telegram", chatId: "-100" }))[0]).toMatchObject({ armed: false, lastFiredAt: w.clock.t - 30_000 });
  });

  it("fires when the price jumps over the level between two checks", async () => {
    const w = await world();
    await w.add("pepe-solana", "below", 5, 8);
    expect(await step(w, 7.5)).toBe(0);
    expect(await step(w, 1)).toBe(1);
    expect((await w.notices())[0]?.payload).toMatchObject({ from: "7.5", price: "1" });
  });

  it("fires once while the price flaps around the level, and again only after a re-arm", async () => {
    const w = await world();
    await w.add("pepe-solana", "above", 10, 9);
    let fired = 0;
    for (const p of [10.1, 9.9, 10.1, 9.9, 10.2, 9.8]) fired += await step(w, p);
    expect(fired).toBe(1);
    await w.store.alerts.rearmAlert({ platform: "telegram", chatId: "-100" }, 1, "9.8", w.clock.t);
    expect(await step(w, 10.3)).toBe(1);
  });

  it("does not fire an alert whose level the price already passed before it was set", async () => {
    const w = await world();
    await step(w, 12);
    w.clock.t += 1;
    await w.add("pepe-solana", "above", 13, 12);
    expect(await step(w, 12.5)).toBe(0);
    expect(await step(w, 13.1)).toBe(1);
  });

  it("fires a move from its anchor, re-anchors at the price it fired on and stays armed", async () => {
    const w = await world(0);
    await w.add("pepe-solana", "move", 10, 100);
    expect(await step(w, 109)).toBe(0);
    expect(await step(w, 111)).toBe(1);
    expect(await step(w, 118)).toBe(0);
    expect(await step(w, 122.2)).toBe(1);
    expect(await step(w, 109)).toBe(1);
    const fired = (await w.notices()).map((n) => [n.payload.from, n.payload.price]);
    expect(fired).toEqual([["100", "111"], ["111", "122.2"], ["122.2", "109"]]);
    expect((await w.store.alerts.listAlerts({ platform: "telegram", chatId: "-100" }))[0]).toMatchObject({ armed: true, anchorPrice: "109" });
  });

  it("holds a move alert to one firing per cooldown, then fires from the same anchor", async () => {
    const w = await world(15 * MIN);
    await w.add("pepe-solana", "move", 10, 100);
    expect(await step(w, 120)).toBe(1);
    expect(await step(w, 150)).toBe(0);
    w.clock.t += 14 * MIN;
    expect(await step(w, 150)).toBe(1);
    expect((await w.notices()).map((n) => n.payload.from)).toEqual(["100", "120"]);
  });

  it("checks 10,000 alerts on 2,000 tokens with 10 batch calls of at most 200 ids and tvl_min 0", async () => {
    const w = await world();
    const insert = w.store.db.prepare(`INSERT INTO alerts (platform, chat_id, number, token_id, symbol, chain, rule, level, anchor_price, anchor_at, armed, created_at)
      VALUES ('telegram', ?, ?, ?, 'T', 'solana', 'above', '2', '1', ?, 1, ?)`);
    w.store.db.transaction(() => {
      for (let i = 0; i < 10_000; i++) insert.run(String(i % 1000), i, `t${i % 2000}-solana`, T0, T0);
    })();
    for (let i = 0; i < 2000; i++) w.prices.set(`t${i}-solana`, 1.5);
    const report = await w.check();
    expect(report).toMatchObject({ leader: true, tokens: 2000, calls: 10, failedCalls: 0, queued: 0 });
    expect(w.calls).toHaveLength(10);
    expect(w.calls.every((c) => c.tokenIds.length <= 200 && c.tvlMin === 0)).toBe(true);
    expect(new Set(w.calls.flatMap((c) => c.tokenIds)).size).toBe(2000);
  });

  it("asks for watched tokens in the same batches as the alerts' tokens", async () => {
    const w = await world();
    await w.add("pepe-solana", "above", 10, 8);
    await w.store.watchlists.addWatched({ platform: "telegram", chatId: "-5" }, [{ tokenId: "wif-solana", symbol: "WIF", chain: "solana" }], 50, T0);
    await w.store.watchlists.addWatched({ platform: "discord", chatId: "9" }, [{ tokenId: "bonk-solana", symbol: "BONK", chain: "solana" }], 50, T0);
    await step(w, 9);
    expect(w.calls.map((c) => [...c.tokenIds].sort())).toEqual([["pepe-solana", "wif-solana"]]);
  });

  it("pauses the alerts of a token missing for 24 hours and says so once per chat", async () => {
    const w = await world();
    await w.add("gone-solana", "above", 10, 8, "-1");
    await w.add("gone-solana", "below", 5, 8, "-1");
    await w.add("gone-solana", "move", 10, 8, "-2");
    await step(w, 8, "gone-solana");
    w.prices.delete("gone-solana");
    expect(await step(w, 8, "other-solana")).toBe(0);
    w.prices.delete("gone-solana");
    w.clock.t += 24 * HOUR;
    await w.check();
    w.clock.t += 30_000;
    await w.check();
    const notices = await w.notices();
    expect(notices.map((n) => [n.kind, n.chatId, n.payload.numbers])).toEqual([["paused", "-1", [1, 2]], ["paused", "-2", [1]]]);
    const paused = await w.store.alerts.listAlerts({ platform: "telegram", chatId: "-1" });
    expect(paused.every((a) => a.pausedAt !== undefined)).toBe(true);
    // Back again: the alerts wake up without a word and fire as usual (above 10, and the move from 8).
    w.prices.set("gone-solana", 11);
    w.clock.t += 30_000;
    expect((await w.check()).queued).toBe(2);
    expect((await w.store.alerts.listAlerts({ platform: "telegram", chatId: "-2" }))[0]?.pausedAt).toBeUndefined();
  });

  it("changes nothing for the tokens of a batch call that failed", async () => {
    const w = await world();
    await w.add("pepe-solana", "above", 10, 8);
    w.failNext = true;
    w.clock.t += 25 * HOUR;
    w.prices.set("pepe-solana", 12);
    expect(await w.check()).toMatchObject({ calls: 1, failedCalls: 1, queued: 0 });
    expect(await step(w, 12)).toBe(1);
  });

  it("drops a firing of an alert deleted or re-armed while the check was asking for prices", async () => {
    const w = await world();
    const chat = { platform: "telegram" as const, chatId: "-100" };
    await w.add("pepe-solana", "above", 10, 8);
    await w.add("pepe-solana", "above", 10, 8);
    await step(w, 9);
    w.during = async () => {
      await w.store.alerts.removeAlerts(chat, 1);
      await w.store.alerts.rearmAlert(chat, 2, "9.5", w.clock.t);
    };
    expect(await step(w, 11)).toBe(0);
    expect(await w.notices()).toEqual([]);
  });

  it("lets one process check at a time on a shared database", async () => {
    const w = await world();
    await w.add("pepe-solana", "above", 10, 8);
    // A process on another machine: it cannot tell whether this one runs, so only the lease counts.
    const other = createAlertChecker({
      store: w.store, platforms: ["telegram"], cooldownMs: 0, leaseTtlMs: 90_000, logger: log, now: () => w.clock.t,
      holder: "other-host:1:other",
      prices: { batchPrices: async () => ({}) },
    });
    await step(w, 9);
    expect(await other.check()).toMatchObject({ leader: false, calls: 0 });
  });
});
