/**
 * Where cached answers live: an interface so that several workers can share one (Redis) while
 * a single process keeps them in memory (memory-store.ts). An entry is plain JSON data plus
 * when it was fetched; the lookup logic around it (lookup.ts) is the same for both. A shared
 * store also keeps which keys a process is loading, so that one call serves every worker.
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
  /** Keeps `entry` under `key` for `keepMs` (the longest it may still be served, stale); ends this process's claim on `key`. */
  set(key: string, entry: CacheEntry, keepMs: number): Promise<void>;
  /**
   * Marks `key` as being loaded by this process for the next `forMs` (again: for longer):
   * false while another process's mark stands. Absent from a store of one process, whose
   * loads are known in process.
   */
  claim?(key: string, forMs: number): Promise<boolean>;
  /** Ends this process's claim on `key` when its load stored nothing. */
  release?(key: string): Promise<void>;
}
