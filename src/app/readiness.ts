/**
 * What /readyz checks once the bot is up: the database (reachable, writable), the market and each platform. The
 * market is asked through the cache, so a service that fails briefly still counts as ready
 * while answers are served from what was cached; one whose calls have all gone unanswered for
 * a while (the calls' own outcomes, `market/reachability.ts`) is not.
 */
import type { PlatformAdapter } from "../adapters/types.js";
import type { CachedMarket } from "../cache/types.js";
import { isMarketError } from "../market/errors.js";
import type { MarketReachability } from "../market/reachability.js";
import type { ReadinessCheck } from "../ops/http-server.js";
import type { Store } from "../store/types.js";

/** What the checks look at. */
export interface ReadinessParts {
  store: Pick<Store, "health">;
  market: Pick<CachedMarket, "supportedChains">;
  /** What the bot's own calls say of the service; absent, only the cached check counts. */
  reach?: Pick<MarketReachability, "unreached">;
  /** Epoch ms. Default `Date.now`. */
  now?: () => number;
  platforms: readonly PlatformAdapter[];
  /**
   * Among several workers: this one's name and the leases it keeps (held or waiting); `unrenewed`,
   * a lease held on while the store cannot be reached to renew it.
   */
  worker?: { id: string; leases: () => readonly { name: string; held: boolean; unrenewed?: boolean }[] };
  /** The shared Redis, when configured: shown, never failing readiness (its users fall back to in-process state). */
  redis?: { isUp(): boolean };
}

/** "worker-1 holds telegram-polling, waits for digest-poster", "worker-2 waits for telegram-polling, holds digest-poster". */
function describeWorker(worker: NonNullable<ReadinessParts["worker"]>): string {
  const leases = worker.leases().map((l) => `${l.held ? "holds" : "waits for"} ${l.name}${l.unrenewed === true ? " (not renewed: the store is unreachable)" : ""}`);
  return leases.length === 0 ? worker.id : `${worker.id} ${leases.join(", ")}`;
}

/** One check per part, named `store`, `market` and after each platform, then `redis` and `worker` when set. */
export function readinessChecks(parts: ReadinessParts): ReadinessCheck[] {
  const { worker, redis } = parts;
  return [
    // Not ready while the database cannot be reached or written: the detail names DATABASE_URL or DATABASE_PATH.
    { name: "store", check: () => parts.store.health() },
    {
      name: "market",
      check: async () => {
        const gone = parts.reach?.unreached((parts.now ?? Date.now)());
        if (gone !== undefined) {
          const since = new Date(gone.since).toISOString().slice(11, 19);
          return { ok: false, detail: `the service has not answered since ${since} UTC (${gone.kind}): commands answer from the cache or say it is not answering` };
        }
        try {
          const r = await parts.market.supportedChains();
          return { ok: true, ...(r.stale ? { detail: "serving from cache: the service is failing" } : {}) };
        } catch (e) {
          // The day's quota spent is the plan working as sold: commands answer from the cache with one sentence.
          if (isMarketError(e) && e.kind === "quota") return { ok: true, detail: "the market's daily quota is spent; answering from the cache" };
          throw e;
        }
      },
    },
    ...parts.platforms.map((a) => ({
      name: a.platform,
      check: async () => (a.isReady() ? { ok: true } : { ok: false, detail: "not connected" }),
    })),
    ...(redis ? [{ name: "redis", check: async () => ({ ok: true, detail: redis.isUp() ? "shared state" : "away: in-process state until it is back" }) }] : []),
    ...(worker ? [{ name: "worker", check: async () => ({ ok: true, detail: describeWorker(worker) }) }] : []),
  ];
}
