/**
 * Issue 27, point 7: SIGTERM exits 0 whenever the stop itself goes as planned — with the
 * PostgreSQL server stopped (the leases cannot be given up; they run out by themselves), and
 * with an alert check whose price call the day's pace holds for hours.
 */
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import { PassThrough } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { consoleAlertSink } from "../../src/adapters/console/alert-sink.js";
import { createAlertService, type AlertService } from "../../src/alerts/service.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { MarketClient } from "../../src/market/client.js";
import { DAY_MS, MemoryUnitLedger } from "../../src/market/quota-ledger.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/store.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { endWorld, sigterm } from "../stopping.js";

interface World {
  engine: PostgresEngine;
  store: PostgresStore;
  sandbox: Sandbox;
  client: MarketClient;
  service: AlertService;
  lines: Record<string, unknown>[];
}
let world: World | undefined;
afterEach(async () => {
  if (world === undefined) return;
  await endWorld(world);
  world = undefined;
});

async function start(opts: { spent?: number } = {}): Promise<World> {
  const engine = await startPostgres();
  const store = await openPostgresStore({ url: await engine.createDatabase("stop"), connectTimeoutMs: 1_000 });
  const sandbox = await startSandbox({ seed: 1 });
  const ledger = new MemoryUnitLedger();
  if (opts.spent !== undefined) await ledger.add(Math.floor(Date.now() / DAY_MS), opts.spent);
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, dailyUnits: opts.spent === undefined ? undefined : 1_000, unitLedger: ledger });
  // The pace counts what the ledger already holds for today.
  await client.scheduler.units.known();
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  const pepe = sandbox.market.bySymbol("PEPE")[0]!;
  const added = await store.alerts.addAlert(
    { platform: "console", chatId: "console", tokenId: pepe.id, symbol: "PEPE", chain: "eth", rule: "move", level: "10", anchorPrice: "0.00001", anchorAt: Date.now() },
    20, Date.now(),
  );
  expect("alert" in added).toBe(true);
  const service = createAlertService({
    store, prices: client.onLane("alerts"),
    adapters: { console: consoleAlertSink({ output: new PassThrough() }) },
    queues: { console: createPacedQueue({ ratePerSecond: 30, perChatPerMinute: 20, maxInFlight: 4 }) },
    checkMs: 30_000, cooldownMs: 60_000, core: createPostRenderer({ settings: store, source: "test data", log: logger }), logger,
  });
  return (world = { engine, store, sandbox, client, service, lines });
}

describe("a stop", () => {
  it("exits 0 with PostgreSQL stopped: the leases it cannot give up are left to run out, with one warning each (and beats log at debug)", async () => {
    const w = await start();
    await w.service.start();
    await w.service.tick();
    await w.engine.stop();
    // A beat of the outage: the outage is the store's warning and readiness, not an error with a stack each beat.
    await w.service.beat();
    expect(w.lines.filter((l) => String(l.msg).startsWith("alert lease renewal failed")).map((l) => [l.level, l.msg])).toEqual([
      [20, "alert lease renewal failed: store unreachable"],
    ]);
    expect(await sigterm(() => w.service.stop())).toBe(0);
    expect(w.lines.filter((l) => l.msg === "lease not given up at stop: the store is unreachable; it runs out by itself").map((l) => l.lease)).toEqual(
      expect.arrayContaining(["alerts.checker"]),
    );
  });

  it("exits 0 while the day's pace holds the alert check's price call, which ends unrecorded", async () => {
    // 999 of 1,000 units spent: the alerts lane waits for midnight.
    const w = await start({ spent: 999 });
    await w.service.start();
    await expect.poll(() => w.client.scheduler.depth.alerts).toBe(1);
    expect(await sigterm(() => w.service.stop())).toBe(0);
    expect(await w.store.alerts.sightings([w.sandbox.market.bySymbol("PEPE")[0]!.id])).toEqual([]);
  });
});
