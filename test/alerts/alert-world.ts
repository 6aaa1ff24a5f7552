/**
 * What the end-to-end alert tests share: the clocked world (sandbox market on a hand-moved
 * clock, real client, a SQLite file, the real core with alert limits of the test's choosing),
 * and helpers that find moments when a sandbox token's price has risen or fallen, so that
 * moving the clock moves the price. Each test adds its platform's adapter and the alert service.
 */
import type { AlertLimits } from "../../src/core/alerts/limits.js";
import { createAlertService, type AlertService } from "../../src/alerts/service.js";
import type { AlertSink } from "../../src/alerts/delivery.js";
import type { CheckReport } from "../../src/alerts/checker.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import type { Platform } from "../../src/store/types.js";
import { SOURCE, startClockedWorld, type ClockedWorld } from "../core/clocked-world.js";

export { SOURCE };
/** 2026-11-24 09:00 UTC. */
export const T0 = Date.UTC(2026, 10, 24, 9, 0);

export interface AlertWorld extends ClockedWorld {
  /** The alert service delivering to `sink` on `platform`, on this world's clock. */
  service(platform: Platform, sink: AlertSink, opts?: { cooldownMs?: number; holder?: string; onCheck?: (report: CheckReport) => void }): AlertService;
  /** The sandbox's USD price of `tokenId` at epoch ms `t`. */
  priceAt(tokenId: string, t: number): number;
  /** The id the resolver picks for a famous symbol (the most liquid token of that symbol). */
  idOf(symbol: string): string;
  /** The first whole minute after `from` at which `tokenId` is at least `factor` times (or at most, below 1) its price at `from`. */
  momentWhen(tokenId: string, from: number, factor: number): number;
  /** Stops the services it made, then closes the world. */
  close(): Promise<void>;
}

export async function startAlertWorld(opts: { limits?: AlertLimits; path?: string } = {}): Promise<AlertWorld> {
  const world = await startClockedWorld({ start: T0, path: opts.path, tmpPrefix: "cp-alerts-", core: { alertLimits: opts.limits } });
  const { clock, sandbox, client, store, log } = world;
  const services: AlertService[] = [];
  const priceAt = (tokenId: string, at: number): number => {
    const token = sandbox.market.token(tokenId);
    if (token === undefined) throw new Error(`the sandbox has no ${tokenId}`);
    return sandbox.market.priceAt(token, Math.floor(at / 1000));
  };
  return {
    ...world,
    service(platform, sink, o = {}) {
      const s = createAlertService({
        store,
        prices: client.onLane("alerts"),
        adapters: { [platform]: sink },
        queues: { [platform]: createPacedQueue({ ratePerSecond: 30, perChatPerMinute: 20, maxInFlight: 4, now: clock.now, sleep: clock.sleep }) },
        checkMs: 30_000,
        cooldownMs: o.cooldownMs ?? 15 * 60_000,
        core: world.core,
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
      await world.close();
    },
  };
}

/** A price level as a person would type it (plain decimals, no exponent). */
export function typed(n: number): string {
  return n.toFixed(Math.max(2, 6 - Math.floor(Math.log10(n))));
}
