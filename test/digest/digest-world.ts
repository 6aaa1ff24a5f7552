/**
 * What both end-to-end digest tests share: the sandbox market, the real client, a SQLite file,
 * the real core with the digest commands (which writes each post), all on one hand-moved clock. Each test adds its platform's adapter and the poster.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino, type Logger } from "pino";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createBotCore } from "../../src/core/create-core.js";
import { digestCommands } from "../../src/digest/commands.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite-store.js";

export const SOURCE = "demo data (sandbox)";

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("no charts here")), close: async () => undefined };

export interface DigestWorld {
  /**
   * The hand-moved clock. `sleep` really waits (the fakes check pacing on the wall clock), then
   * moves the clock to where the wait ends, never further: concurrent sleepers don't add up, so
   * the clock never runs ahead of real time and deadlines see the same time pass.
   */
  clock: { now(): number; set(t: number): void; sleep(ms: number): Promise<void> };
  sandbox: Sandbox;
  client: MarketClient;
  store: SqliteStore;
  core: BotCore;
  log: Logger;
  /** Closes the client, the sandbox and the store (not the adapter or poster a test added). */
  close(): Promise<void>;
}

export async function startDigestWorld(start: number): Promise<DigestWorld> {
  let t = start;
  const clock = {
    now: () => t,
    set: (x: number) => void (t = x),
    sleep: async (ms: number) => {
      const until = t + ms;
      await new Promise((r) => setTimeout(r, ms));
      t = Math.max(t, until);
    },
  };
  const sandbox = await startSandbox({ now: clock.now, seed: 1 });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 5_000 });
  const store = await openSqliteStore({ path: join(mkdtempSync(join(tmpdir(), "cp-digest-")), "db.sqlite") });
  const log = pino({ level: "silent" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: clock.now }),
    store,
    charts: noCharts,
    log,
    source: SOURCE,
    now: clock.now,
    budget: { perUser: 100_000, perChat: 100_000 },
    extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }),
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
