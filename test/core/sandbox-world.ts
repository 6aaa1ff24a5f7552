/**
 * The whole core against the sandbox, driven through the console adapter: a seeded market on
 * loopback, the real client (no retries, so each fault is seen once), the cache and the core on
 * one hand-moved clock.
 */
import { PassThrough, Readable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { runConsole, CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { CachedMarket } from "../../src/cache/types.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore, type CoreDeps } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";

/** 2026-11-22 12:00 UTC. */
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

export interface World {
  sandbox: Sandbox;
  clock: { now(): number; advance(ms: number): void; reset(): void };
  /** A fresh client, cache and core on the shared sandbox. */
  fresh(opts?: { budget?: CoreDeps["budget"]; unmetered?: CoreDeps["unmetered"]; extraCommands?: CoreDeps["extraCommands"] }): Promise<Bot>;
  close(): Promise<void>;
}

export interface Bot {
  core: BotCore;
  market: CachedMarket;
  client: MarketClient;
  /** Lines in, everything the console printed out. */
  say(lines: string | readonly string[], chat?: ChatContext): Promise<string>;
}

const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

export async function startWorld(opts: Partial<SandboxOptions> = {}): Promise<World> {
  let t = T0;
  const clock = { now: () => t, advance: (ms: number) => void (t += ms), reset: () => void (t = T0) };
  const sandbox = await startSandbox({ now: () => t, seed: 1, ...opts });
  const closers: (() => Promise<void>)[] = [];
  return {
    sandbox,
    clock,
    async fresh(o = {}) {
      const client = new MarketClient({
        v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
        v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
        retry: { maxAttempts: 1 },
        // Below the 2 s of the slow faults the failure tests inject, and well above what the
        // in-process sandbox needs on a busy machine (500 ms was not always enough there).
        timeoutMs: 1_500,
      });
      const market = createCachedMarket(client, { now: clock.now });
      const store = await openSqliteStore({ path: ":memory:" });
      closers.push(() => client.close(), () => store.close());
      const core = createBotCore({
        market, store, charts: noCharts, log: pino({ level: "silent" }), source: "demo data (sandbox)", now: clock.now,
        budget: o.budget, unmetered: o.unmetered, extraCommands: o.extraCommands,
      });
      return {
        core,
        market,
        client,
        async say(lines, chat = CONSOLE_CHAT) {
          const text = typeof lines === "string" ? lines : lines.join("\n");
          const output = new PassThrough();
          const chunks: string[] = [];
          output.on("data", (c: Buffer) => chunks.push(c.toString()));
          await runConsole({ core, input: Readable.from([`${text}\n`]), output, now: clock.now, chat });
          return chunks.join("");
        },
      };
    },
    async close() {
      for (const c of closers) await c();
      await sandbox.close();
    },
  };
}

/**
 * One sandbox for a whole test file and a fresh bot for each test: before each, the clock is
 * back at T0, the faults cleared and the request counts zeroed. Read `world` and `bot` inside
 * tests and hooks (they exist once the file's hooks have run).
 */
export function sandboxPerFile(opts: Partial<SandboxOptions> = {}): { readonly world: World; readonly bot: Bot } {
  let world: World | undefined;
  let bot: Bot | undefined;
  beforeAll(async () => {
    world = await startWorld(opts);
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(async () => {
    if (world === undefined) throw new Error("the sandbox did not start");
    world.clock.reset();
    world.sandbox.clearFaults();
    world.sandbox.resetStats();
    bot = await world.fresh();
  });
  return {
    get world() {
      if (world === undefined) throw new Error("the sandbox is read before the file's hooks ran");
      return world;
    },
    get bot() {
      if (bot === undefined) throw new Error("the bot is read before the file's hooks ran");
      return bot;
    },
  };
}
