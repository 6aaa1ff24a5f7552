import type { BatchPricesParams, MarketApi } from "../market/api.js";
import type { PriceMap } from "../market/schemas.js";

/** A looked-up value with its age, so replies can say when their data is from. */
export interface Fetched<T> {
  data: T;
  /** When the value was fetched from the service (epoch ms). */
  fetchedAt: number;
  /** True when the service failed and an expired value was served instead. */
  stale: boolean;
}

type Wrapped<F> = F extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<Fetched<R>> : never;

/** How a cache takes in batch prices fetched outside it (the alert checker's). */
export interface PriceSink {
  /** Ids asked for lately, not fetched this half TTL, to ride along in a call of `group` with room for `room` more. */
  companions(group: string, taken: ReadonlySet<string>, room: number): string[];
  /** Keeps `map`, the answer to `p`, each price fresh for the price TTL and `longerMs` more. */
  keep(p: BatchPricesParams, map: PriceMap, longerMs: number): void;
}

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
  /** Where batch prices fetched outside the cache are kept (price-sharing.ts); absent from a cache that keeps nothing. */
  readonly priceSink?: PriceSink;
};
