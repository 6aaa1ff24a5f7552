/**
 * The buy feed on /metrics, all named chainpulse_buys_*: pairs watched, polls and their
 * interval, swaps seen and skipped, buys posted and folded, and the delay from the trade to its
 * post. The feed lane's units are chainpulse_market_lane_units_total{lane="feed"}.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { withinScrape } from "../scrape-bound.js";
import type { BuyFeedStore } from "../store/types.js";
import type { WatchEvents } from "./watcher.js";

export interface BuyMetrics extends Required<WatchEvents> {
  settled(e: { platform: string; state: "posted" | "folded"; count: number; delayMs: number }): void;
}

/**
 * `platforms`: those the feed posts to, whose series start at 0 so that a dashboard's rate shows
 * none rather than no data before the first buy.
 */
export function createBuyMetrics(registry: Registry, buys: Pick<BuyFeedStore, "watches">, platforms: readonly string[] = []): BuyMetrics {
  const registers = [registry];
  new Gauge({
    name: "chainpulse_buys_pairs_watched",
    help: "Pairs the buy feed watches (one watcher each for the whole bot)",
    registers,
    async collect() {
      const watched = await withinScrape(buys.watches());
      if (watched !== undefined) this.set(watched.length);
    },
  });
  const polls = new Counter({ name: "chainpulse_buys_polls_total", help: "Swap-history calls of the buy feed (pages included)", registers });
  const interval = new Histogram({
    name: "chainpulse_buys_poll_interval_seconds", help: "Seconds until a pair's next poll, as planned after each poll",
    buckets: [5, 15, 30, 60, 120, 300, 600, 1800], registers,
  });
  const swaps = new Counter({ name: "chainpulse_buys_swaps_total", help: "Swaps read for the first time, by outcome: seen, skipped (no finite amount_usd)", labelNames: ["outcome"], registers });
  const owed = new Counter({ name: "chainpulse_buys_owed_total", help: "Buys recorded as owed to chats", registers });
  const buysOut = new Counter({ name: "chainpulse_buys_posts_total", help: "Buys sent, by state: posted (own post) or folded (in a summary)", labelNames: ["platform", "state"], registers });
  const delay = new Histogram({
    name: "chainpulse_buys_delay_seconds", help: "Seconds from a trade to its post (or summary)", labelNames: ["platform"],
    buckets: [5, 10, 15, 30, 60, 120, 300, 900], registers,
  });
  for (const outcome of ["seen", "skipped"]) swaps.inc({ outcome }, 0);
  for (const platform of platforms) {
    for (const state of ["posted", "folded"]) buysOut.inc({ platform, state }, 0);
    delay.zero({ platform });
  }
  return {
    polled(e) {
      polls.inc(e.pages);
      interval.observe(e.intervalSeconds);
    },
    swaps(e) {
      swaps.inc({ outcome: "seen" }, e.seen);
      swaps.inc({ outcome: "skipped" }, e.skipped);
    },
    owed(n) {
      owed.inc(n);
    },
    settled(e) {
      buysOut.inc({ platform: e.platform, state: e.state }, e.count);
      delay.observe({ platform: e.platform }, e.delayMs / 1000);
    },
  };
}
