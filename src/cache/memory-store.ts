/**
 * The in-process cache store: one LRUCache bounded in approximate bytes of JSON, each entry
 * kept for as long as it may be served at all (its kind's maximum staleness).
 */
import { LRUCache } from "lru-cache";
import type { CacheEntry, CacheStore } from "./store.js";

export interface MemoryStoreOptions {
  /** Size bound of all entries together, in approximate bytes of JSON. */
  maxBytes: number;
  /** Clock in epoch ms driving the entries' lifetimes. */
  now: () => number;
}

function approximateBytes(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "").length + 64;
  } catch {
    return 1024;
  }
}

export function createMemoryStore(opts: MemoryStoreOptions): CacheStore {
  const cache = new LRUCache<string, CacheEntry>({
    maxSize: opts.maxBytes,
    sizeCalculation: (entry) => Math.max(1, approximateBytes(entry.data)),
    perf: { now: opts.now },
    // lru-cache debounces its clock reads by real time; an injected clock must be read every time.
    ttlResolution: 0,
  });
  return {
    get: (key) => Promise.resolve(cache.get(key)),
    set(key, entry, keepMs) {
      cache.set(key, entry, { ttl: Math.max(1, keepMs) });
      return Promise.resolve();
    },
  };
}
