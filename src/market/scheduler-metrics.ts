/**
 * What the scheduler and the answers look like from /metrics: the wait and queue depth per
 * lane, calls and compute units per endpoint and per lane, the day's units spent (with the
 * allowance and units left when the plan's daily units are known), and answers by freshness
 * (fresh, stale, busy, failed).
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { withinScrape } from "../scrape-bound.js";
import type { DispatchEvent, Scheduler } from "./scheduler.js";
import { LANES } from "./scheduler-lanes.js";

export interface MarketMetrics {
  /** Counts one call leaving the scheduler. */
  dispatched(e: DispatchEvent): void;
  /** Counts one command's answer by how fresh it was. */
  answered(freshness: string): void;
  /** Reads queue depths and the units left from `scheduler` at each scrape. */
  watch(scheduler: Scheduler): void;
}

export function createMarketMetrics(registry: Registry): MarketMetrics {
  const registers = [registry];
  let watched: Scheduler | undefined;
  const wait = new Histogram({
    name: "chainpulse_market_lane_wait_seconds",
    help: "Time a market call waited in the scheduler for its turn, by lane",
    labelNames: ["lane"],
    buckets: [0, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
    registers,
  });
  const units = new Counter({
    name: "chainpulse_market_units_total",
    help: "Compute units spent, by endpoint (calls are chainpulse_market_sent_total)",
    labelNames: ["endpoint"],
    registers,
  });
  const laneUnits = new Counter({
    name: "chainpulse_market_lane_units_total",
    help: `Compute units spent, by scheduler lane (${LANES.join(", ")})`,
    labelNames: ["lane"],
    registers,
  });
  const sent = new Counter({
    name: "chainpulse_market_sent_total",
    help: "HTTP calls sent to the market service (every attempt), by endpoint",
    labelNames: ["endpoint"],
    registers,
  });
  const answers = new Counter({
    name: "chainpulse_answers_total",
    help: "Command answers by freshness: fresh, stale (older data labelled), busy (a sentence saying when to try again), failed",
    labelNames: ["freshness"],
    registers,
  });
  new Gauge({
    name: "chainpulse_market_queue_depth",
    help: "Market calls waiting in the scheduler, by lane",
    labelNames: ["lane"],
    registers,
    collect() {
      if (watched === undefined) return;
      const depth = watched.depth;
      for (const lane of LANES) this.set({ lane }, depth[lane]);
    },
  });
  new Gauge({
    name: "chainpulse_market_units_spent_today",
    help: "Compute units spent since midnight UTC as the day's ledger counts them (shared by the workers with REDIS_URL)",
    registers,
    async collect() {
      if (watched === undefined) return;
      // A shared ledger that does not answer in time leaves this process's own count.
      await withinScrape(watched.units.readShared());
      this.set(watched.units.spent);
    },
  });
  // Registered only for a plan with a daily allowance: a gauge never set would read 0, an
  // allowance of nothing.
  const allowance = (daily: number, ledger: Scheduler["units"]): void => {
    new Gauge({
      name: "chainpulse_market_daily_units",
      help: "The plan's compute units per day (only with MARKET_API_DAILY_UNITS)",
      registers,
      collect() {
        this.set(daily);
      },
    });
    new Gauge({
      name: "chainpulse_market_units_left",
      help: "Compute units left today (only with MARKET_API_DAILY_UNITS)",
      registers,
      async collect() {
        await withinScrape(ledger.readShared());
        const left = ledger.left;
        if (left !== undefined) this.set(left);
      },
    });
  };
  return {
    dispatched(e) {
      wait.observe({ lane: e.lane }, e.waitedMs / 1000);
      units.inc({ endpoint: e.endpoint }, e.units);
      laneUnits.inc({ lane: e.lane }, e.units);
      sent.inc({ endpoint: e.endpoint });
    },
    answered(freshness) {
      answers.inc({ freshness });
    },
    watch(scheduler) {
      if (watched === undefined && scheduler.units.daily !== undefined) allowance(scheduler.units.daily, scheduler.units);
      watched = scheduler;
    },
  };
}
