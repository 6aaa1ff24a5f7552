/** The calls sweeper while the store cannot be reached: its sweeps fail, and the log says so quietly. */
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createSweeper } from "../../src/calls/sweeper.js";
import { StoreError } from "../../src/store/errors.js";
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
    const leases = { acquireLease: () => Promise.reject(new TypeError("a bug")), releaseLease: async () => undefined };
    const sweeper = createSweeper({
      market: noMarket, store: unreachable<CallStore>(), leases, holder: "h", now: Date.now, log: logger,
      periodMs: 60_000, plan: { rps: 1, dailyUnits: 100_000 },
    });
    await sweeper.tick();
    await sweeper.stop();
    expect(lines.filter((l) => String(l.msg).startsWith("calls sweep failed")).map((l) => [l.level, l.msg])).toEqual([[50, "calls sweep failed"]]);
  });
});
