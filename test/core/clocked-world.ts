/**
 * What the end-to-end digest and alert tests share: the sandbox market on a hand-moved clock,
 * the real client, a SQLite file and the real core. Each caller adds its own core options (the
 * digest commands, alert limits), then its platform's adapter and the poster or alert service.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino, type Logger } from "pino";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createBotCore, type CoreDeps } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import type { DispatchEvent } from "../../src/market/scheduler.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";

export const SOURCE = "demo data (sandbox)";

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("no charts here")), close: async () => undefined };

export interface ClockedWorld {
  /**
   * The hand-moved clock. `sleep` waits no real time: it lets whatever else is ready run first
   * (one turn of the event loop), then moves the clock to where the wait ends, never back.
   * Concurrent sleepers don't add up: four workers each waiting out the same 2.5 ms of pace
   * move the clock 2.5 ms, as real time would. Pacing is checked on what the pacer decided, at
   * this clock, not on arrival times at a fake. The turn is a stand-in for "the sends already
   * granted have finished": without it (or with a microtask only) a paced queue's sleeping
   * worker moves the clock under a send still being claimed and recorded, its answer (from
   * which a chat's minute window counts) lands a pace step late, and the buy feed's burst test
   * ends 166 ms past its two minutes. A send doing real I/O outlasts the turn.
   */
  clock: { now(): number; set(t: number): void; sleep(ms: number): Promise<void> };
  sandbox: Sandbox;
  client: MarketClient;
  store: SqliteStore;
  core: BotCore;
  log: Logger;
  /** Closes the client, the sandbox and the store (not what a test added on top). */
  close(): Promise<void>;
}

export interface ClockedWorldOptions {
  /** Where the clock starts, epoch ms. */
  start: number;
  /** The SQLite file; default a new one in a temporary folder named after `tmpPrefix`. */
  path?: string;
  tmpPrefix: string;
  /** Core options beyond the shared ones. */
  core?: Pick<CoreDeps, "extraCommands" | "alertLimits">;
  /** Each market call as it leaves the client's scheduler (the bot's /metrics count them so). */
  onDispatch?: (e: DispatchEvent) => void;
}

export async function startClockedWorld(opts: ClockedWorldOptions): Promise<ClockedWorld> {
  let t = opts.start;
  const clock = {
    now: () => t,
    set: (x: number) => void (t = x),
    sleep: async (ms: number) => {
      const until = t + ms;
      await new Promise((r) => setImmediate(r));
      t = Math.max(t, until);
    },
  };
  const sandbox = await startSandbox({ now: clock.now, seed: 1 });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 5_000, onDispatch: opts.onDispatch });
  const store = await openSqliteStore({ path: opts.path ?? join(mkdtempSync(join(tmpdir(), opts.tmpPrefix)), "db.sqlite") });
  const log = pino({ level: "silent" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: clock.now }),
    store,
    charts: noCharts,
    log,
    source: SOURCE,
    now: clock.now,
    budget: { perUser: 100_000, perChat: 100_000 },
    ...opts.core,
  });
  return {
    clock,
    sandbox,
    client,
    store,
    core,
    log,
    close: async () => {
      await client.close();
      await sandbox.close();
      await store.close();
    },
  };
}
