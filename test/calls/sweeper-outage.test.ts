/**
 * The calls sweeper while the store cannot be reached: its sweeps fail, and the log says so
 * quietly; and after a crash, when a restarted worker takes its lease over.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createSweeper } from "../../src/calls/sweeper.js";
import { StoreError } from "../../src/store/errors.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { CallStore, SubscriptionStore } from "../../src/store/types.js";

/** A store whose every call fails as an unreachable PostgreSQL does. */
function unreachable<T extends object>(): T {
  return new Proxy({} as T, { get: () => () => Promise.reject(new StoreError("unavailable", "the database cannot be reached")) });
}

function capture(): { lines: Record<string, unknown>[]; logger: pino.Logger } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  return { lines, logger };
}

const noMarket = { tokenKline: () => Promise.reject(new Error("not asked")) };

describe("the calls sweeper with the store unreachable", () => {
  it("logs a failed sweep at debug, leaving errors to bugs", async () => {
    const { lines, logger } = capture();
    const sweeper = createSweeper({
      market: noMarket, store: unreachable<CallStore>(), leases: unreachable<SubscriptionStore>(), holder: "h", now: Date.now, log: logger,
      periodMs: 60_000, plan: { rps: 1, dailyUnits: 100_000 },
    });
    expect(await sweeper.tick()).toBeUndefined();
    await sweeper.stop();
    expect(lines.filter((l) => String(l.msg).startsWith("calls sweep failed")).map((l) => [l.level, l.msg, typeof l.err])).toEqual([
      [20, "calls sweep failed: store unreachable", "string"],
    ]);
  });

  it("logs any other failure as an error", async () => {
    const { lines, logger } = capture();
    const leases = { acquireLease: () => Promise.reject(new TypeError("a bug")), leaseHolder: async () => undefined, takeOverLease: async () => false, releaseLease: async () => undefined };
    const sweeper = createSweeper({
      market: noMarket, store: unreachable<CallStore>(), leases, holder: "h", now: Date.now, log: logger,
      periodMs: 60_000, plan: { rps: 1, dailyUnits: 100_000 },
    });
    await sweeper.tick();
    await sweeper.stop();
    expect(lines.filter((l) => String(l.msg).startsWith("calls sweep failed")).map((l) => [l.level, l.msg])).toEqual([[50, "calls sweep failed"]]);
  });
});

describe("the calls sweeper after a crash", () => {
  it("takes the sweep over at once from a worker on this host whose process no longer runs", async () => {
    const store = await openSqliteStore({ path: ":memory:" });
    try {
      const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
      const dead = `${hostname()}:${deadPid}:worker-1:1`;
      const periodMs = 3_600_000;
      // The dead worker's term is two periods: without the take-over the sweep stops for two hours.
      expect(await store.subscriptions.acquireLease("calls-sweep", dead, periodMs * 2 + 60_000, Date.now())).toBe(true);
      const { lines, logger } = capture();
      const sweeper = createSweeper({
        market: noMarket, store: store.calls, leases: store.subscriptions, holder: `${hostname()}:${process.pid}:worker-2:1`, now: Date.now, log: logger,
        periodMs, plan: { rps: 1, dailyUnits: 100_000 },
      });
      expect(await sweeper.tick()).toBeDefined();
      expect(sweeper.leading()).toBe(true);
      expect(lines.filter((l) => l.msg === "the previous calls sweep on this host is gone: taking over its lease").map((l) => l.previous)).toEqual([dead]);
      await sweeper.stop();
    } finally {
      await store.close();
    }
  });

  it("leaves the sweep to a worker on another host until its term runs out", async () => {
    const store = await openSqliteStore({ path: ":memory:" });
    try {
      expect(await store.subscriptions.acquireLease("calls-sweep", "elsewhere:1:worker-1:1", 60_000, Date.now())).toBe(true);
      const sweeper = createSweeper({
        market: noMarket, store: store.calls, leases: store.subscriptions, holder: `${hostname()}:${process.pid}:worker-2:1`, now: Date.now, log: capture().logger,
        periodMs: 60_000, plan: { rps: 1, dailyUnits: 100_000 },
      });
      expect(await sweeper.tick()).toBeUndefined();
      expect(sweeper.leading()).toBe(false);
      await sweeper.stop();
    } finally {
      await store.close();
    }
  });
});
