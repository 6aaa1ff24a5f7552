/**
 * Benchmark "Calls": 1,000 groups holding 20,000 calls of 2,000 tokens in the store (a tenth of
 * the tokens called only 8 to 20 days ago). `/lb` is answered from the store by the real core;
 * one sweep (as the hour after the one before) runs on each plan through the real client and
 * scheduler against the sandbox, the
 * scheduler on a simulated clock so the plan's rate decides the sweep's time without waiting
 * for it. Figures: `/lb` p95, K-line calls and units per sweep (one per called token and
 * period, none for a token no chat called in 7 days), the sweep's simulated and wall time per
 * plan, RSS.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { sweepOnce } from "../src/calls/sweep.js";
import { readsPerPeriod } from "../src/calls/sweep-plan.js";
import { createCachedMarket } from "../src/cache/cached-market.js";
import type { ChartRenderer } from "../src/chart/types.js";
import { createBotCore } from "../src/core/create-core.js";
import { MarketClient } from "../src/market/client.js";
import { DIGEST_LANE } from "../src/market/scheduler-lanes.js";
import { startSandbox } from "../src/sandbox/index.js";
import { openSqliteStore } from "../src/store/sqlite/store.js";
import { percentile, rssMb } from "./measure.js";
import type { BenchResult, Benchmark, Figure, Size } from "./types.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The plans of service-notes.md: requests per second. */
const PLANS = [{ name: "free", rps: 1 }, { name: "normal", rps: 5 }, { name: "pro", rps: 20 }] as const;

interface Case {
  groups: number;
  calls: number;
  tokens: number;
  /** `/lb` commands timed. */
  boards: number;
}

// Full size took 63.9 s on 2 shared cores, most of it the three sweeps' K-line calls (BENCHMARKS.md).
const PLAN: Record<Size, { case: Case; limitSeconds: number }> = {
  full: { case: { groups: 1_000, calls: 20_000, tokens: 2_000, boards: 500 }, limitSeconds: 90 },
  smoke: { case: { groups: 20, calls: 400, tokens: 40, boards: 20 }, limitSeconds: 40 },
};

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("no charts")), close: async () => undefined };

async function run(size: Size): Promise<BenchResult> {
  const started = performance.now();
  const c = PLAN[size].case;
  const t0 = Math.floor(Date.now() / HOUR) * HOUR;
  const now = () => t0;
  const sandbox = await startSandbox({ seed: 1, now });
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-bench-calls-"));
  const store = await openSqliteStore({ path: join(dir, "calls.sqlite") });
  const log = pino({ level: "silent" });
  try {
    const tokens = sandbox.market.tokens.filter((t) => t.pairs.length > 0 && t.launchAt * 1000 < t0 - 30 * DAY).slice(0, c.tokens);
    // A tenth of the tokens were called only 8 to 20 days ago: the sweep must leave them alone.
    const stale = new Set(tokens.slice(0, Math.floor(tokens.length / 10)).map((t) => t.id));
    // The setup is not what is measured: one transaction for it, not a commit per call.
    store.db.exec("BEGIN");
    for (let i = 0; i < c.calls; i++) {
      const token = tokens[i % tokens.length]!;
      const ago = stale.has(token.id) ? 8 * DAY + ((i * 7_919) % (12 * DAY)) : HOUR + ((i * 7_919) % (6 * DAY));
      const at = t0 - ago;
      await store.calls.recordCall({
        platform: "telegram", boardId: `-100${(i * 31) % c.groups}`, tokenId: token.id, symbol: token.symbol, chain: token.chain,
        userId: String(i % (c.groups * 5)), userName: `member ${i % (c.groups * 5)}`, calledAt: at,
        price: String(sandbox.market.priceAt(token, at / 1000)),
      }, 0);
    }
    store.db.exec("COMMIT");
    const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 } });
    const core = createBotCore({
      market: createCachedMarket(client), store, charts: noCharts, log, source: "benchmark (sandbox)", now, unmetered: ["telegram"],
    });
    const lbMs: number[] = [];
    for (let i = 0; i < c.boards; i++) {
      const chat = { platform: "telegram" as const, chatId: `-100${i % c.groups}`, userId: "1", isPrivate: false, isAdmin: async () => false };
      const t = performance.now();
      await core.handleText(chat, "/lb 30d");
      lbMs.push(performance.now() - t);
    }
    await client.close();
    const figures: Figure[] = [
      { metric: "/lb from the store: p95", unit: "ms", value: percentile(lbMs, 0.95), target: { text: "≤ 50 ms", met: percentile(lbMs, 0.95) <= 50 } },
      { metric: "/lb from the store: median", unit: "ms", value: percentile(lbMs, 0.5) },
    ];
    const notes: string[] = [];
    for (const plan of PLANS) {
      // As a sweep an hour before left them: each token is read from there, the steady state.
      store.db.prepare("UPDATE calls SET high = price, high_at = NULL, last_price = NULL, swept_to = ?").run(t0 - HOUR);
      let simulated = t0;
      const planClient = new MarketClient({
        v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, rps: plan.rps,
        now: () => simulated, sleep: async (ms) => void (simulated += ms),
      });
      const read = new Set<string>();
      let staleReads = 0;
      const lane = planClient.onLane(DIGEST_LANE);
      const market = {
        tokenKline: (p: Parameters<typeof lane.tokenKline>[0]) => {
          read.add(p.tokenId);
          if (stale.has(p.tokenId)) staleReads++;
          return lane.tokenKline(p);
        },
      };
      const wall = performance.now();
      const result = await sweepOnce({ market, store: store.calls, now: () => t0, log, periodMs: HOUR, plan: { rps: plan.rps }, concurrency: 8 });
      const wallMs = performance.now() - wall;
      await planClient.close();
      const capacity = readsPerPeriod({ rps: plan.rps }, HOUR);
      const expected = Math.min(result.tokens, capacity);
      const p = `${plan.name} plan (${plan.rps} req/s)`;
      figures.push(
        { metric: `${p}: tokens called in 7 days`, unit: "", value: result.tokens },
        {
          metric: `${p}: K-line calls in one sweep`, unit: "calls", value: result.klineCalls,
          target: { text: `${expected} (one per token the period reads)`, met: result.klineCalls === expected && read.size === result.klineCalls && result.failed === 0 },
        },
        { metric: `${p}: K-line reads that failed`, unit: "", value: result.failed },
        { metric: `${p}: K-line calls for tokens not called in 7 days`, unit: "calls", value: staleReads, target: { text: "0", met: staleReads === 0 } },
        { metric: `${p}: compute units of one sweep`, unit: "CU", value: result.units },
        { metric: `${p}: sweep time at the plan's rate (simulated)`, unit: "s", value: (simulated - t0) / 1000 },
        { metric: `${p}: sweep wall time`, unit: "ms", value: wallMs },
        { metric: `${p}: each token read every`, unit: "min", value: result.periodMs / 60_000 },
      );
      if (result.periodMs > HOUR) notes.push(`On the ${plan.name} plan a quarter of ${plan.rps} req/s reads ${capacity} tokens an hour: ${result.tokens} called tokens are each read every ${result.periodMs / 60_000} min, and boards say so.`);
    }
    figures.push({ metric: "RSS after", unit: "MB", value: rssMb() });
    return {
      name: "calls",
      title: "10. Calls",
      setup: `${c.groups.toLocaleString("en-US")} Telegram groups, ${c.calls.toLocaleString("en-US")} calls of ${c.tokens.toLocaleString("en-US")} sandbox tokens in SQLite, written in one transaction (a tenth of the tokens called only 8–20 days ago); ${c.boards} /lb 30d answered by the core; one sweep per plan (1, 5, 20 req/s), an hour after the one before, through the real client, the scheduler on a simulated clock.`,
      figures,
      notes,
      elapsedMs: performance.now() - started,
    };
  } finally {
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const calls: Benchmark = {
  name: "calls",
  title: "10. Calls",
  targets: "`/lb` p95 from the store ≤ 50 ms; one K-line call per called token the period reads (the plan's quarter share), none for a token no chat called in 7 days.",
  limitSeconds: PLAN.full.limitSeconds,
  run,
};
