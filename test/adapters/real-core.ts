/**
 * The real command core for adapter tests: a seeded sandbox market on loopback, the real
 * client and cache, and the store the adapter's test reads. Adapter tests drive this, never a
 * copy of the core.
 */
import { pino } from "pino";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createBotCore, type CoreDeps } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import type { Store } from "../../src/store/types.js";

/** 2026-11-22 12:00 UTC. */
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

export interface RealCore {
  core: BotCore;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export interface RealCoreOptions {
  store: Store;
  sandbox?: Partial<SandboxOptions>;
  /**
   * A sandbox already running, for a test file whose cores all read the same market: building
   * one costs a good part of a second of CPU. Left running on `close`; `sandbox` is then unused.
   */
  shared?: Sandbox;
  /** Default wide enough that tests sending many commands from one user are never throttled. */
  budget?: CoreDeps["budget"];
  extraCommands?: CoreDeps["extraCommands"];
  charts?: ChartRenderer;
  /** The core's answer deadline, ms; default the bot's 2.5 s. A test about pacing, not the market, widens it. */
  answerDeadlineMs?: number;
}

export async function startRealCore(opts: RealCoreOptions): Promise<RealCore> {
  const sandbox = opts.shared ?? (await startSandbox({ time: T0, seed: 1, ...opts.sandbox }));
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 },
    // The sandbox shares this process: on a busy machine a loopback answer can take seconds,
    // and no test here is about the market timing out.
    timeoutMs: 20_000,
  });
  const core = createBotCore({
    market: createCachedMarket(client, { now: () => T0 }),
    store: opts.store,
    charts: opts.charts ?? noCharts,
    log: pino({ level: "silent" }),
    source: "demo data (sandbox)",
    now: () => T0,
    budget: opts.budget ?? { perUser: 100_000, perChat: 100_000, perTelegramGroup: 100_000 },
    ...(opts.extraCommands === undefined ? {} : { extraCommands: opts.extraCommands }),
    ...(opts.answerDeadlineMs === undefined ? {} : { answerDeadlineMs: opts.answerDeadlineMs }),
  });
  return {
    core,
    sandbox,
    close: async () => {
      await client.close();
      if (opts.shared === undefined) await sandbox.close();
    },
  };
}
