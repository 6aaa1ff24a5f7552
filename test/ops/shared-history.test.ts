/**
 * The operator's page of several workers on one PostgreSQL: each worker (its own registry,
 * store connection, page and port) writes its minutes to the database, and any worker's page
 * charts them all. Worker SQLite stores stand in where only the arithmetic is checked.
 */
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createMarketMetrics, type MarketMetrics } from "../../src/market/scheduler-metrics.js";
import { createDeliveryWatch } from "../../src/ops/delivery-watch.js";
import { startOpsServer, type OpsServer } from "../../src/ops/http-server.js";
import { createMetrics, type Metrics } from "../../src/ops/metrics.js";
import { createOpsPage, type OpsPage } from "../../src/ops/ops-page.js";
import { seriesKey } from "../../src/ops/series.js";
import { createSharedHistory } from "../../src/ops/shared-history.js";
import type { OpsSampleStore, Store } from "../../src/store/types.js";
import { deferred } from "../deferred.js";
import { storeEngines, type TestDatabase } from "../store/engines.js";

const engines = storeEngines();
const TOKEN = "a-token-of-twenty-chars";

interface Worker {
  name: string;
  store: Store;
  metrics: Metrics;
  market: MarketMetrics;
  page: OpsPage;
  server: OpsServer;
  base: string;
}

const running: Worker[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) {
    w.page.close();
    await w.server.close();
  }
});

async function startWorker(db: TestDatabase, name: string): Promise<Worker> {
  const store = await db.open();
  const metrics = createMetrics({ processMetrics: false, worker: name });
  const market = createMarketMetrics(metrics.registry);
  const page = createOpsPage({ token: TOKEN, secrets: [], registry: metrics.registry, worker: name, rps: 5 });
  const server = await startOpsServer({ host: "127.0.0.1", port: 0, metrics, checks: [], logger: pino({ level: "silent" }), page });
  const w = { name, store, metrics, market, page, server, base: `http://127.0.0.1:${server.port}` };
  running.push(w);
  return w;
}

/**
 * The bot built: the page starts sampling, into the database every worker shares. Resolves
 * when the worker's first minute is written there.
 */
function attach(w: Worker): Promise<void> {
  const written = deferred();
  const shared = w.store.opsSamples;
  const samples: OpsSampleStore = {
    addSample: (sample) => shared.addSample(sample).then(() => written.resolve()),
    samplesSince: (at) => shared.samplesSince(at),
    pruneSamples: (before) => shared.pruneSamples(before),
  };
  w.page.attach({ leases: async () => [], holder: "here:1:w1:abc", rows: new Map(), deliveries: createDeliveryWatch(), samples });
  return written.promise;
}

async function pageOf(w: Worker): Promise<string> {
  const res = await fetch(w.base, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

function laneUnits(html: string, lane: string): number | undefined {
  const m = new RegExp(`data-lane-units="${lane}">([\\d,]+)<`).exec(html);
  return m?.[1] === undefined ? undefined : Number(m[1].replaceAll(",", ""));
}

function answers(html: string, freshness: string): number | undefined {
  const section = html.slice(html.indexOf('<section id="answers">'));
  const m = new RegExp(`>${freshness}</td><td class="n">([\\d,]+)<`).exec(section);
  return m?.[1] === undefined ? undefined : Number(m[1].replaceAll(",", ""));
}

describe("the operator's page over several workers on PostgreSQL", () => {
  it("charts on one worker's page the other's traffic, and its own since its last minute", async () => {
    const db = await engines.database("postgres");
    const w1 = await startWorker(db, "w1");
    const w2 = await startWorker(db, "w2");

    // Worker 1 serves people and sends buy posts; worker 2 checks alerts.
    for (let i = 0; i < 3; i++) w1.market.dispatched({ lane: "people", endpoint: "/v2/kline", waitedMs: 4, units: 10 });
    for (let i = 0; i < 4; i++) w1.market.answered("fresh");
    w1.metrics.sends.inc({ kind: "buy_feed", platform: "telegram", outcome: "delivered" }, 2);
    w2.market.dispatched({ lane: "alerts", endpoint: "/v2/price/batch", waitedMs: 1, units: 100 });
    w2.market.answered("stale");

    await Promise.all([attach(w1), attach(w2)]);

    const seen = await pageOf(w2);
    expect(laneUnits(seen, "people")).toBe(30);
    expect(laneUnits(seen, "alerts")).toBe(100);
    expect(seen).toContain('<b id="lane-units-total">130</b>');
    expect(answers(seen, "fresh")).toBe(4);
    expect(answers(seen, "stale")).toBe(1);
    expect(seen).toContain("By lane as every worker counted them");
    const buys = seen.slice(seen.indexOf('id="deliveries-buy_feed"'));
    expect(buys).toContain('<td>delivered</td><td class="n">2</td><td class="n">2</td>');

    // What worker 2 counts after its minute is on its own page at once; worker 1 sees it with worker 2's next minute.
    w2.market.dispatched({ lane: "people", endpoint: "/v2/kline", waitedMs: 2, units: 5 });
    expect(laneUnits(await pageOf(w2), "people")).toBe(35);
    expect(laneUnits(await pageOf(w1), "people")).toBe(30);
    expect(laneUnits(await pageOf(w1), "alerts")).toBe(100);
  });
});

describe("the shared history's sums", () => {
  it("adds a restarted worker's counts to what it counted before, and counts a gone worker's queue no more", async () => {
    const db = await engines.database("sqlite");
    const store = await db.open();
    const fresh = seriesKey("chainpulse_answers_total", { freshness: "fresh" });
    const depth = seriesKey("chainpulse_market_queue_depth", { lane: "people" });
    const spent = seriesKey("chainpulse_market_units_spent_today");
    const t0 = Date.UTC(2026, 10, 27, 10);

    const before = createSharedHistory({ store: store.opsSamples, worker: "w1", startedAt: t0 });
    await before.record({ at: t0 + 60_000, values: new Map([[fresh, 5], [depth, 7], [spent, 400]]) });
    await before.record({ at: t0 + 120_000, values: new Map([[fresh, 8], [depth, 2], [spent, 450]]) });
    // The same worker started again: its counters begin at 0.
    const after = createSharedHistory({ store: store.opsSamples, worker: "w1", startedAt: t0 + 180_000 });
    await after.record({ at: t0 + 240_000, values: new Map([[fresh, 1], [depth, 3], [spent, 460]]) });
    const other = createSharedHistory({ store: store.opsSamples, worker: "w2", startedAt: t0 + 200_000 });

    const at = t0 + 5 * 60_000;
    const timeline = await other.read(at);
    expect(timeline.shared).toBe(true);
    expect(timeline.from).toBe(t0);
    expect(timeline.since(0).map((p) => [p.at, p.values.get(fresh)])).toEqual([
      [t0 + 60_000, 5],
      [t0 + 120_000, 8],
      [t0 + 240_000, 9],
    ]);
    // Worker 2 answered twice and has one call waiting; worker 1's last minute has 3 waiting.
    const live = new Map([[fresh, 2], [depth, 1], [spent, 470]]);
    const now = timeline.now(live);
    expect(now.get(fresh)).toBe(11);
    expect(now.get(depth)).toBe(4);
    // The key's one ledger, read by both: the highest reading, not the sum.
    expect(now.get(spent)).toBe(470);
    // Five minutes on, worker 1 has written nothing: gone, its queue is no longer waiting.
    expect((await other.read(at + 5 * 60_000)).now(live).get(depth)).toBe(1);
  });
});
