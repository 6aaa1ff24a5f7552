/**
 * Where cached answers live: an interface so that several workers can share one (Redis) while
 * a single process keeps them in memory (memory-store.ts). An entry is plain JSON data plus
 * when it was fetched; the lookup logic around it (cached-market.ts) is the same for both.
 */

/** One cached answer. */
export interface CacheEntry {
  /** The answer as the cache keeps it (JSON-serialisable). */
  data: unknown;
  /** When the service answered (epoch ms). */
  fetchedAt: number;
  /** How long after `fetchedAt` the answer counts as fresh, ms. */
  freshMs: number;
  /** Set when the answer was "not found": the service's message, remembered briefly. */
  notFound?: string;
  /** Set when refreshing this entry failed after it expired (epoch ms). */
  refreshFailedAt?: number;
}

export interface CacheStore {
  /** The entry under `key`, or undefined when absent or past the time it was kept for. */
  get(key: string): Promise<CacheEntry | undefined>;
  /** Keeps `entry` under `key` for `keepMs` (the longest it may still be served, stale). */
  set(key: string, entry: CacheEntry, keepMs: number): Promise<void>;
}
