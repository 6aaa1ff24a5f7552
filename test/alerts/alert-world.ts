/**
 * What the end-to-end alert tests share: the sandbox market on a hand-moved clock, the real
 * client, a SQLite file, the real core (alert limits of the test's choosing), and helpers that
 * find moments when a sandbox token's price has risen or fallen, so that moving the clock moves
 * the price. Each test adds its platform's adapter and the alert service.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino, type Logger } from "pino";
import type { AlertLimits } from "../../src/alerts/limits.js";
import { createAlertService, type AlertService } from "../../src/alerts/service.js";
import type { AlertSink } from "../../src/alerts/delivery.js";
import type { CheckReport } from "../../src/alerts/checker.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createBotCore } from "../../src/core/create-core.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite-store.js";
import type { Platform } from "../../src/store/types.js";

export const SOURCE = "demo data (sandbox)";
/** 2026-11-24 09:00 UTC. */
export const T0 = Date.UTC(2026, 10, 24, 9, 0);
const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("no charts here")), close: async () => undefined };

export interface AlertWorld {
  /** `sleep` really waits (the fakes check pacing on the wall clock), then moves the clock to where the wait ends. */
  clock: { now(): number; set(t: number): void; sleep(ms: number): Promise<void> };
  sandbox: Sandbox;
  client: MarketClient;
  store: SqliteStore;
  core: BotCore;
  log: Logger;
  /** The alert service delivering to `sink` on `platform`, on this world's clock. */
  service(platform: Platform, sink: AlertSink, opts?: { cooldownMs?: number; holder?: string; onCheck?: (report: CheckReport) => void }): AlertService;
  /** The sandbox's USD price of `tokenId` at epoch ms `t`. */
  priceAt(tokenId: string, t: number): number;
  /** The id the resolver picks for a famous symbol (the most liquid token of that symbol). */
  idOf(symbol: string): string;
  /** The first whole minute after `from` at which `tokenId` is at least `factor` times (or at most, below 1) its price at `from`. */
  momentWhen(tokenId: string, from: number, factor: number): number;
  close(): Promise<void>;
}

export async function startAlertWorld(opts: { limits?: AlertLimits; path?: string } = {}): Promise<AlertWorld> {
  let t = T0;
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
  const store = await openSqliteStore({ path: opts.path ?? join(mkdtempSync(join(tmpdir(), "cp-alerts-")), "db.sqlite") });
  const log = pino({ level: "silent" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: clock.now }),
    store,
    charts: noCharts,
    log,
    source: SOURCE,
    now: clock.now,
    budget: { perUser: 100_000, perChat: 100_000 },
    alertLimits: opts.limits,
  });
  const services: AlertService[] = [];
  const priceAt = (tokenId: string, at: number): number => {
    const token = sandbox.market.token(tokenId);
    if (token === undefined) throw new Error(`the sandbox has no ${tokenId}`);
    return sandbox.market.priceAt(token, Math.floor(at / 1000));
  };
  return {
    clock,
    sandbox,
    client,
    store,
    core,
    log,
    service(platform, sink, o = {}) {
      const s = createAlertService({
        store,
        prices: client.onLane("alerts"),
        adapters: { [platform]: sink },
        queues: { [platform]: createPacedQueue({ ratePerSecond: 30, perChatPerMinute: 20, maxInFlight: 4, now: clock.now, sleep: clock.sleep }) },
        checkMs: 30_000,
        cooldownMs: o.cooldownMs ?? 15 * 60_000,
        source: SOURCE,
        logger: log,
        now: clock.now,
        holder: o.holder,
        onCheck: o.onCheck,
      });
      services.push(s);
      return s;
    },
    priceAt,
    idOf(symbol) {
      const token = sandbox.market.bySymbol(symbol)[0];
      if (token === undefined) throw new Error(`the sandbox has no ${symbol}`);
      return token.id;
    },
    momentWhen(tokenId, from, factor) {
      const p0 = priceAt(tokenId, from);
      for (let m = 1; m <= 7 * 24 * 60; m++) {
        const at = from + m * 60_000;
        const p = priceAt(tokenId, at);
        if (factor >= 1 ? p >= p0 * factor : p <= p0 * factor) return at;
      }
      throw new Error(`${tokenId} never moved by ×${factor} within a week of ${new Date(from).toISOString()}`);
    },
    async close() {
      for (const s of services) await s.stop();
      await client.close();
      await sandbox.close();
      await store.close();
    },
  };
}

/** A price level as a person would type it (plain decimals, no exponent). */
export function typed(n: number): string {
  return n.toFixed(Math.max(2, 6 - Math.floor(Math.log10(n))));
}
