import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { DailyUnits, MemoryUnitLedger } from "../../src/market/quota-ledger.js";
import { Scheduler } from "../../src/market/scheduler.js";
import { createMarketMetrics } from "../../src/market/scheduler-metrics.js";
import { lines } from "../lines.js";
import { steppedClock } from "./helpers.js";

describe("the market's /metrics", () => {
  it("shows the wait and queue depth per lane, calls and units per endpoint, units left and answers by freshness", async () => {
    const registry = new Registry();
    const metrics = createMarketMetrics(registry);
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const left = lines();
    const scheduler = new Scheduler({
      rps: 1,
      now: clock.now,
      sleep: clock.sleep,
      units: new DailyUnits({ dailyUnits: 1_000, now: clock.now }),
      onDispatch: (e) => {
        metrics.dispatched(e);
        left.push(e.endpoint);
      },
    });
    metrics.watch(scheduler);
    const send = () => Promise.resolve("ok");
    void scheduler.run({ lane: "people", endpoint: "batchPrices", units: 100, send });
    void scheduler.run({ lane: "digest", endpoint: "trending", units: 5, send });
    void scheduler.run({ lane: "refresh", endpoint: "tokenDetail", units: 5, send });
    await left.until((all) => all.length === 1);
    metrics.answered("stale");
    let text = await registry.metrics();
    expect(text).toContain('chainpulse_market_queue_depth{lane="digest"} 1');
    expect(text).toContain('chainpulse_market_queue_depth{lane="refresh"} 1');
    expect(text).toContain('chainpulse_market_units_total{endpoint="batchPrices"} 100');
    expect(text).toContain('chainpulse_market_sent_total{endpoint="batchPrices"} 1');
    expect(text).toContain("chainpulse_market_units_left 900");
    expect(text).toContain('chainpulse_answers_total{freshness="stale"} 1');
    await clock.step();
    await left.until((all) => all.length === 2);
    expect(left.all).toEqual(["batchPrices", "trending"]);
    text = await registry.metrics();
    expect(text).toContain('chainpulse_market_lane_wait_seconds_sum{lane="digest"} 1.05');
    expect(text).toContain('chainpulse_market_queue_depth{lane="digest"} 0');
  });

  it("serves no allowance and no units left for a plan without daily units, whose spend it still counts", async () => {
    const registry = new Registry();
    const metrics = createMarketMetrics(registry);
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const scheduler = new Scheduler({ rps: 1, now: clock.now, sleep: clock.sleep, units: new DailyUnits({ now: clock.now }), onDispatch: metrics.dispatched });
    metrics.watch(scheduler);
    await scheduler.run({ lane: "people", endpoint: "batchPrices", units: 100, send: () => Promise.resolve("ok") });
    const text = await registry.metrics();
    expect(text).toContain("chainpulse_market_units_spent_today 100");
    expect(text).not.toContain("chainpulse_market_daily_units");
    expect(text).not.toContain("chainpulse_market_units_left");
  });

  it("shows on every worker the day's units spent and left as the shared ledger counts them, not only its own spend", async () => {
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const ledger = new MemoryUnitLedger();
    const worker = () => {
      const registry = new Registry();
      const metrics = createMarketMetrics(registry);
      const scheduler = new Scheduler({ now: clock.now, sleep: clock.sleep, units: new DailyUnits({ dailyUnits: 50_000, ledger, now: clock.now }) });
      metrics.watch(scheduler);
      return { registry, scheduler };
    };
    const [a, b] = [worker(), worker()];
    expect(await b.registry.metrics()).toContain("chainpulse_market_units_spent_today 0");
    for (const units of [100, 100, 41]) await a.scheduler.run({ lane: "people", endpoint: "batchPrices", units, send: () => Promise.resolve("ok") });
    clock.advance(5_000);
    const text = await b.registry.metrics();
    expect(text).toContain("chainpulse_market_units_spent_today 241");
    expect(text).toContain("chainpulse_market_units_left 49759");
  });
});
