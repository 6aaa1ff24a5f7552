import type { MarketApi } from "../market/api.js";

/** A looked-up value with its age, so replies can say when their data is from. */
export interface Fetched<T> {
  data: T;
  /** When the value was fetched from the service (epoch ms). */
  fetchedAt: number;
  /** True when the service failed and an expired value was served instead. */
  stale: boolean;
}

type Wrapped<F> = F extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<Fetched<R>> : never;

/**
 * The market as the commands see it: every MarketApi method, answered through a cache.
 * An interface so that a shared cache (Redis) can replace the in-process one.
 */
export type CachedMarket = { [K in keyof MarketApi]: Wrapped<MarketApi[K]> } & {
  /**
   * A token's symbol from whatever the cache holds (a detail, a list's records, a risk report)
   * of any age it keeps, never a call: a symbol barely changes. Undefined when nothing holds it;
   * absent from a cache that keeps nothing.
   */
  knownSymbol?(tokenId: string): Promise<string | undefined>;
};
