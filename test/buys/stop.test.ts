/**
 * The buy feed with its PostgreSQL server stopped: a turn of the outage logs no error with a
 * stack (the outage is the database's warning and readiness), and SIGTERM still exits 0, the
 * watcher's lease left to run out with the documented warning.
 */
import { PassThrough } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { consoleAlertSink } from "../../src/adapters/console/alert-sink.js";
import { createBuyFeedService, type BuyFeedService } from "../../src/buys/service.js";
import { WATCHER_LEASE } from "../../src/buys/watcher.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/store.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { endWorld, sigterm } from "../stopping.js";

const NOT_GIVEN_UP = "lease not given up at stop: the store is unreachable; it runs out by itself";

interface World {
  engine: PostgresEngine;
  store: PostgresStore;
  sandbox: Sandbox;
  client: MarketClient;
  service: BuyFeedService;
  lines: Record<string, unknown>[];
  /** Ends the wait before the loop's next turn. */
  nextTurn(): void;
  /** Resolves when the loop waits for its next turn: the turn before it is over. */
  waiting(): Promise<void>;
}
let world: World | undefined;
afterEach(async () => {
  if (world === undefined) return;
  await endWorld(world);
  world = undefined;
});

async function start(): Promise<World> {
  const engine = await startPostgres();
  const store = await openPostgresStore({ url: await engine.createDatabase("buys_stop"), connectTimeoutMs: 1_000 });
  const sandbox = await startSandbox({ seed: 1 });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 } });
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  const pepe = sandbox.market.bySymbol("PEPE")[0]!;
  await store.buys.upsertFeed(
    { platform: "console", chatId: "console", tokenId: pepe.id, symbol: "PEPE", chain: pepe.chain, options: { minUsd: "50", sells: false, whaleUsd: "10000", emoji: "🟢", stepUsd: "50" } },
    [pepe.pairs[0]!.id], 5, Date.now(),
  );
  // The loop's waits between turns, ended by the test: each turn runs when the test says.
  const wakes: (() => void)[] = [];
  let onWait: (() => void) | undefined;
  const sleep = (): Promise<void> =>
    new Promise((resolve) => {
      wakes.push(resolve);
      onWait?.();
    });
  const service = createBuyFeedService({
    store, market: createCachedMarket(client), core: createPostRenderer({ settings: store, source: "test data", log: logger }), feedMarket: client,
    budget: () => ({}), sinks: { console: consoleAlertSink({ output: new PassThrough() }) }, queues: { console: createPacedQueue({ maxInFlight: 1 }) },
    logger, pollSeconds: 15, maxPollSeconds: 300, sleep,
  });
  return (world = {
    engine, store, sandbox, client, service, lines,
    nextTurn: () => wakes.shift()?.(),
    waiting: () => (wakes.length > 0 ? Promise.resolve() : new Promise((resolve) => (onWait = resolve))),
  });
}

describe("the buy feed with PostgreSQL stopped", () => {
  it("logs a turn of the outage at debug without a stack, and a stop exits 0 leaving the watcher's lease to run out with one warning", async () => {
    const w = await start();
    await w.service.turn();
    expect(w.service.leading()).toBe(true);
    await w.engine.stop();

    w.service.start();
    await w.waiting();
    w.nextTurn();
    await w.waiting();
    expect(w.lines.filter((l) => String(l.msg).startsWith("buy feed turn failed")).map((l) => [l.level, l.msg, typeof l.err])).toEqual([
      [20, "buy feed turn failed: store unreachable", "string"],
    ]);

    expect(await sigterm(() => w.service.stop())).toBe(0);
    expect(w.lines.filter((l) => l.msg === NOT_GIVEN_UP).map((l) => [l.level, l.lease])).toEqual([[40, WATCHER_LEASE]]);
    expect(w.service.leading()).toBe(false);
  });
});
