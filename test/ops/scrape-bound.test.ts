import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createBuyMetrics } from "../../src/buys/metrics.js";
import { DailyUnits, type UnitLedger } from "../../src/market/quota-ledger.js";
import { createMarketMetrics } from "../../src/market/scheduler-metrics.js";
import { Scheduler } from "../../src/market/scheduler.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

describe("/metrics while the database hangs", () => {
  it("answers with the last values instead of waiting for a store or ledger that does not answer", async () => {
    const registry = new Registry();
    createBuyMetrics(registry, { watches: never });
    const hung: UnitLedger = { add: never, total: never };
    const units = new DailyUnits({ dailyUnits: 1_000, ledger: hung, now: Date.now });
    createMarketMetrics(registry).watch(new Scheduler({ rps: 5, units, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }));
    const text = await registry.metrics();
    expect(text).toContain("chainpulse_buys_pairs_watched 0");
    expect(text).toContain("chainpulse_market_units_spent_today 0");
    expect(text).toContain("chainpulse_market_units_left 1000");
  });
});
