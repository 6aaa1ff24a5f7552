/**
 * The CachedMarket: every MarketApi method as a lookup of the lookup engine (lookup.ts) under
 * its canonical key, keeping only what a reply reads (slim.ts); prices per id through the
 * price sharing (price-sharing.ts); the symbols of every answer learnt by the symbol index
 * (symbol-index.ts). Disabled, every call goes straight through (the benchmark's baseline).
 */
import type { MarketApi } from "../market/api.js";
import { canonicalId, canonicalParams, cacheKey } from "./keys.js";
import { createLookupEngine, type CacheEvent, type LookupEngine } from "./lookup.js";
import { createMemoryStore } from "./memory-store.js";
import { createCachedPrices } from "./price-sharing.js";
import { slimDetail, slimHolders, slimRiskReport, slimV1Token } from "./slim.js";
import type { CacheStore } from "./store.js";
import { createSymbolIndex, type SymbolIndex } from "./symbol-index.js";
import { DEFAULT_NOT_FOUND_TTL_MS, DEFAULT_TTL, MAX_STALE } from "./ttl.js";
import type { CachedMarket } from "./types.js";

export interface CachedMarketOptions {
  /** Clock in epoch ms, also driving the entries' lifetimes. Default `Date.now`. */
  now?: () => number;
  /** Waits `ms` on the same clock: how the cache sees an asker's deadline come. Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Where entries live. Default in this process, bounded by `maxBytes`. */
  store?: CacheStore;
  /** Size bound of the in-process store, in approximate bytes of heap. Default 32 MiB. */
  maxBytes?: number;
  /** TTL overrides per method, ms. Defaults in `DEFAULT_TTL`. */
  ttl?: Partial<Record<keyof MarketApi, number>>;
  /** Oldest value served when the service does not answer in time, per method, ms. Defaults in `MAX_STALE`. */
  maxStale?: Partial<Record<keyof MarketApi, number>>;
  /** How long a "not found" answer is remembered, ms. Default 30 s. */
  notFoundTtlMs?: number;
  /** Pass every call straight through (the benchmark's baseline). Default false. */
  disabled?: boolean;
  /** Told about every lookup (metrics). */
  onEvent?: (e: CacheEvent) => void;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/** Wraps `api` in the cache. */
export function createCachedMarket(api: MarketApi, opts: CachedMarketOptions = {}): CachedMarket {
  const now = opts.now ?? Date.now;
  const ttls: Record<keyof MarketApi, number> = { ...DEFAULT_TTL, ...opts.ttl };
  const emit = opts.onEvent ?? (() => undefined);
  if (opts.disabled === true) return passThrough(api, now, emit);

  const store = opts.store ?? createMemoryStore({ maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES, now });
  const engine = createLookupEngine({
    store, now, sleep: opts.sleep, ttls, maxStale: { ...MAX_STALE, ...opts.maxStale }, notFoundTtlMs: opts.notFoundTtlMs ?? DEFAULT_NOT_FOUND_TTL_MS, emit,
  });
  const symbols = createSymbolIndex(store);
  const prices = createCachedPrices({ api, store, engine, now, ttlMs: ttls.batchPrices });
  const wrap = wrapper(api, engine, symbols);

  const params = (p: object) => [canonicalParams(p)];
  const id = (tokenId: string) => [canonicalId(tokenId)];
  const none = () => [];
  const asIs = (s: string) => [s];

  return {
    search: wrap("search", params),
    batchPrices: prices.batchPrices,
    rankTopics: wrap("rankTopics", none),
    rankList: wrap("rankList", params),
    tokenDetail: wrap("tokenDetail", id, slimDetail),
    pairKline: wrap("pairKline", params),
    tokenKline: wrap("tokenKline", params),
    topHolders: wrap("topHolders", params, slimHolders),
    swaps: wrap("swaps", params),
    supportedChains: wrap("supportedChains", none),
    mainTokens: wrap("mainTokens", asIs),
    trending: wrap("trending", params),
    riskReport: wrap("riskReport", id, slimRiskReport),
    v1Token: wrap("v1Token", id, slimV1Token),
    v1Search: wrap("v1Search", asIs),
    v1Pairs: wrap("v1Pairs", asIs),
    v1PairKline: wrap("v1PairKline", params),
    v1PairTxs: wrap("v1PairTxs", params),
    v1PairLiquidity: wrap("v1PairLiquidity", params),
    v1AmmPairs: wrap("v1AmmPairs", params),
    v1ContractCheck: wrap("v1ContractCheck", params),
    knownSymbol: symbols.known,
    priceSink: prices.sink,
  };
}

/** A method of `api` as a lookup under its canonical arguments; `keep`: what of the answer the entry holds (default all of it). */
function wrapper(api: MarketApi, engine: LookupEngine, symbols: SymbolIndex) {
  return <K extends keyof MarketApi>(
    method: K,
    canon: (...args: Parameters<MarketApi[K]>) => unknown[],
    keep: (data: Awaited<ReturnType<MarketApi[K]>>) => unknown = (data) => data,
  ): CachedMarket[K] => {
    const call = (api[method] as AnyMethod).bind(api);
    const wrapped = (...args: Parameters<MarketApi[K]>) => {
      const c = canon(...args);
      return engine.lookup(method, cacheKey(method, c), async () => {
        const data = keep((await call(...c)) as Awaited<ReturnType<MarketApi[K]>>);
        symbols.note(method, c, data);
        return data;
      });
    };
    return wrapped as unknown as CachedMarket[K];
  };
}

/** Every call straight to the service, stamped with the time it answered. */
function passThrough(api: MarketApi, now: () => number, emit: (e: CacheEvent) => void): CachedMarket {
  const out: Record<string, unknown> = {};
  for (const method of Object.keys(DEFAULT_TTL) as (keyof MarketApi)[]) {
    const call = (api[method] as AnyMethod).bind(api);
    out[method] = async (...args: unknown[]) => {
      const data = await call(...args);
      emit({ method, outcome: "miss" });
      return { data, fetchedAt: now(), stale: false };
    };
  }
  return out as CachedMarket;
}
