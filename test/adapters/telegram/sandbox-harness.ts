/**
 * The real core on the sandbox market behind the Telegram adapter: a seeded sandbox on
 * loopback, the real client and cache, one SQLite store shared by core and adapter, and a
 * budget wide enough for tests that send many commands from one user (or the one given).
 */
import { pino } from "pino";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import { createBotCore, type CoreDeps } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore } from "../../../src/store/sqlite-store.js";
import type { FakeTelegramOptions } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

/** 2026-11-22 12:00 UTC. */
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

export interface SandboxHarness extends Harness {
  sandbox: Sandbox;
}

export async function startSandboxHarness(
  opts: { sandbox?: Partial<SandboxOptions>; fake?: FakeTelegramOptions; budget?: CoreDeps["budget"] } = {},
): Promise<SandboxHarness> {
  const sandbox = await startSandbox({ time: T0, seed: 1, ...opts.sandbox });
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 },
    timeoutMs: 2000,
  });
  const store = await openSqliteStore({ path: ":memory:" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: () => T0 }),
    store,
    charts: noCharts,
    log: pino({ level: "silent" }),
    source: "demo data (sandbox)",
    now: () => T0,
    budget: opts.budget ?? { perUser: 100_000, perChat: 100_000 },
  });
  const h = await startHarness({ core, store, ...(opts.fake ? { fake: opts.fake } : {}) });
  return {
    ...h,
    sandbox,
    close: async () => {
      await h.close();
      await client.close();
      await sandbox.close();
    },
  };
}
