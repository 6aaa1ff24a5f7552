/**
 * Collects the price ids that miss the cache within one tick into a single batch call, so
 * `/price a b c` and a digest asking at the same moment cost one upstream request between them.
 * A batch costs the same compute units whatever its size (up to 200 ids), so each call also
 * carries companions — other ids asked for lately whose prices are about to expire — and
 * refreshes them in passing.
 */
import type { MarketApi } from "../market/api.js";
import type { PriceEntry } from "../market/schemas.js";
import { canonicalId } from "./keys.js";

/** The thresholds of a batch; ids are only merged into one call when these agree. */
export interface PriceThresholds {
  tvlMin?: number;
  txVolume24hMin?: number;
}

interface Waiter {
  resolve(entry: PriceEntry | null): void;
  reject(error: unknown): void;
}

interface PendingBatch {
  thresholds: PriceThresholds;
  waiters: Map<string, Waiter[]>;
}

/** A loader of single prices that batches them per tick. */
export interface PriceBatcher {
  /** The price of one canonical id; `null` when the service left it out (unknown or below thresholds). */
  load(group: string, thresholds: PriceThresholds, id: string): Promise<PriceEntry | null>;
}

export interface PriceBatcherOptions {
  /** Up to `room` more ids of `group` worth refreshing now, none of them in `taken`. */
  companions?: (group: string, taken: ReadonlySet<string>, room: number) => string[];
  /** A companion's fresh price (`null` when the service left it out). */
  refreshed?: (group: string, id: string, entry: PriceEntry | null) => void;
}

/** Ids in one batch call (the service's limit). */
const BATCH_MAX = 200;

export function createPriceBatcher(api: Pick<MarketApi, "batchPrices">, opts: PriceBatcherOptions = {}): PriceBatcher {
  const pending = new Map<string, PendingBatch>();

  async function flush(group: string): Promise<void> {
    const batch = pending.get(group);
    if (batch === undefined) return;
    pending.delete(group);
    const ids = [...batch.waiters.keys()];
    const taken = new Set(ids);
    const extra = ids.length < BATCH_MAX ? (opts.companions?.(group, taken, BATCH_MAX - ids.length) ?? []) : [];
    try {
      const map = await api.batchPrices({ tokenIds: [...ids, ...extra], ...batch.thresholds });
      const byId = new Map<string, PriceEntry>();
      for (const [id, entry] of Object.entries(map)) byId.set(canonicalId(id), entry);
      for (const [id, waiters] of batch.waiters) {
        for (const w of waiters) w.resolve(byId.get(id) ?? null);
      }
      for (const id of extra) opts.refreshed?.(group, id, byId.get(id) ?? null);
    } catch (error) {
      for (const waiters of batch.waiters.values()) for (const w of waiters) w.reject(error);
    }
  }

  return {
    load(group, thresholds, id) {
      let batch = pending.get(group);
      if (batch === undefined) {
        batch = { thresholds, waiters: new Map() };
        pending.set(group, batch);
        // A microtask runs after every synchronous lookup of the current call has queued its id.
        queueMicrotask(() => void flush(group));
      }
      const b = batch;
      return new Promise<PriceEntry | null>((resolve, reject) => {
        const list = b.waiters.get(id);
        if (list === undefined) b.waiters.set(id, [{ resolve, reject }]);
        else list.push({ resolve, reject });
      });
    },
  };
}
