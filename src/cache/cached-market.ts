/**
 * The in-process CachedMarket: one LRUCache bounded in bytes, a TTL per kind of lookup,
 * coalesced misses (lru-cache `fetch`), stale-while-revalidate within a grace window,
 * stale-if-error (`allowStaleOnFetchRejection`) and short negative caching of "not found".
 */
import { LRUCache } from "lru-cache";
import type { BatchPricesParams, MarketApi } from "../market/api.js";
import { isMarketError, MarketError } from "../market/errors.js";
import type { PriceEntry, PriceMap } from "../market/schemas.js";
import { canonicalId, canonicalParams, cacheKey, stableStringify } from "./keys.js";
import { createPriceBatcher } from "./price-batch.js";
import { slimHolders } from "./slim.js";
import { DEFAULT_NOT_FOUND_TTL_MS, DEFAULT_TTL } from "./ttl.js";
import type { CachedMarket, Fetched } from "./types.js";

/** One lookup as the cache saw it: answered from memory, from the service, or from an expired entry. */
export interface CacheEvent {
  method: keyof MarketApi;
  outcome: "hit" | "miss" | "stale";
}

export interface CachedMarketOptions {
  /** Clock in epoch ms, also driving lru-cache's TTLs. Default `Date.now`. */
  now?: () => number;
  /** Size bound of all entries together, in approximate bytes of JSON. Default 32 MiB. */
  maxBytes?: number;
  /** TTL overrides per method, ms. Defaults in `DEFAULT_TTL`. */
  ttl?: Partial<Record<keyof MarketApi, number>>;
  /** How long a "not found" answer is remembered, ms. Default 30 s. */
  notFoundTtlMs?: number;
  /** Pass every call straight through (the benchmark's baseline). Default false. */
  disabled?: boolean;
  /** Told about every lookup (metrics). */
  onEvent?: (e: CacheEvent) => void;
}

interface Entry {
  data: unknown;
  fetchedAt: number;
  ttl: number;
  /** Set on an expired entry when refreshing it failed; serving it is then "stale". */
  refreshFailed: boolean;
  /** A remembered "not found" answer. */
  notFound?: MarketError;
}

interface LoadContext {
  load: () => Promise<unknown>;
  ttl: number;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Price ids remembered per threshold group as candidates for refreshing in passing. */
const RECENT_PRICES_MAX = 1_000;
/** Entries this much past their TTL are still served at once while a refresh runs. */
const GRACE_FACTOR = 1;

function approximateBytes(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "").length + 64;
  } catch {
    return 1024;
  }
}

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/** Wraps `api` in the in-process cache. */
export function createCachedMarket(api: MarketApi, opts: CachedMarketOptions = {}): CachedMarket {
  const now = opts.now ?? Date.now;
  const ttls: Record<keyof MarketApi, number> = { ...DEFAULT_TTL, ...opts.ttl };
  const notFoundTtl = opts.notFoundTtlMs ?? DEFAULT_NOT_FOUND_TTL_MS;
  const emit = opts.onEvent ?? (() => undefined);

  if (opts.disabled === true) return passThrough(api, now, emit);

  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const cache = new LRUCache<string, Entry, LoadContext>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, approximateBytes(entry.data)),
    perf: { now },
    // lru-cache debounces its clock reads by real time; an injected clock must be read every time.
    ttlResolution: 0,
    // Loaders ignore abort signals: a fetch whose placeholder was evicted under size pressure
    // still answers the callers waiting on it, instead of rejecting them with a bare "evicted".
    ignoreFetchAbort: true,
    fetchMethod: async (_key, stale, { options, context }) => {
      try {
        const data = await context.load();
        return { data, fetchedAt: now(), ttl: context.ttl, refreshFailed: false };
      } catch (error) {
        if (isMarketError(error) && error.kind === "not_found") {
          options.ttl = notFoundTtl;
          return { data: undefined, fetchedAt: now(), ttl: notFoundTtl, refreshFailed: false, notFound: error };
        }
        if (stale !== undefined) stale.refreshFailed = true;
        throw error;
      }
    },
  });

  async function lookup(method: keyof MarketApi, key: string, load: () => Promise<unknown>): Promise<Fetched<unknown>> {
    const ttl = ttls[method];
    const existing = cache.peek(key, { allowStale: true });
    const inGrace = existing !== undefined && now() - existing.fetchedAt <= existing.ttl * (1 + GRACE_FACTOR);
    const status: LRUCache.Status<string, Entry, LoadContext> = {};
    const entry = await cache.fetch(key, {
      ttl,
      allowStale: inGrace,
      // Only with an old value to fall back on; without one, the failure must reach every waiter.
      allowStaleOnFetchRejection: existing !== undefined,
      status,
      context: { load, ttl },
    });
    if (entry === undefined) {
      throw status.fetchError instanceof Error
        ? status.fetchError
        : new MarketError({ kind: "network", endpoint: method, message: "the lookup failed without an answer" });
    }
    const expired = now() - entry.fetchedAt > entry.ttl;
    const hit = status.fetch === "hit" || status.fetch === "inflight";
    emit({ method, outcome: expired ? "stale" : hit ? "hit" : "miss" });
    if (entry.notFound !== undefined) throw entry.notFound;
    return { data: entry.data, fetchedAt: entry.fetchedAt, stale: expired && (entry.refreshFailed || !inGrace) };
  }

  /** `keep`: what of the answer the entry holds (default all of it). */
  function wrap<K extends keyof MarketApi>(
    method: K,
    canon: (...args: Parameters<MarketApi[K]>) => unknown[],
    keep: (data: Awaited<ReturnType<MarketApi[K]>>) => unknown = (data) => data,
  ): CachedMarket[K] {
    const call = (api[method] as AnyMethod).bind(api);
    const wrapped = (...args: Parameters<MarketApi[K]>) => {
      const c = canon(...args);
      return lookup(method, cacheKey(method, c), async () => keep((await call(...c)) as Awaited<ReturnType<MarketApi[K]>>));
    };
    return wrapped as unknown as CachedMarket[K];
  }

  // Price ids asked for lately, oldest first: the candidates a price batch refreshes in passing.
  const recentPrices = new Map<string, Set<string>>();
  const notePrice = (group: string, id: string): void => {
    let ids = recentPrices.get(group);
    if (ids === undefined) recentPrices.set(group, (ids = new Set()));
    ids.delete(id);
    ids.add(id);
    if (ids.size > RECENT_PRICES_MAX) ids.delete(ids.values().next().value as string);
  };
  const priceKey = (group: string, id: string) => `batchPrices:${group}:${id}`;
  const batcher = createPriceBatcher(api, {
    companions(group, taken, room) {
      const ttl = ttls.batchPrices;
      const out: string[] = [];
      for (const id of [...(recentPrices.get(group) ?? [])].reverse()) {
        if (out.length >= room) break;
        if (taken.has(id)) continue;
        const entry = cache.peek(priceKey(group, id), { allowStale: true });
        if (entry === undefined || now() - entry.fetchedAt > ttl / 2) out.push(id);
      }
      return out;
    },
    refreshed(group, id, entry) {
      const ttl = ttls.batchPrices;
      cache.set(priceKey(group, id), { data: entry, fetchedAt: now(), ttl, refreshFailed: false }, { ttl });
    },
  });

  // Prices are cached per id, not per id set: `/price a b` after `/price a c` then fetches only
  // `b`, and every list that shows prices shares the same entries.
  async function batchPrices(p: BatchPricesParams): Promise<Fetched<PriceMap>> {
    const ids = [...new Set(p.tokenIds.map(canonicalId))];
    if (ids.length === 0) return { data: {}, fetchedAt: now(), stale: false };
    const thresholds = { tvlMin: p.tvlMin, txVolume24hMin: p.txVolume24hMin };
    const group = stableStringify(thresholds);
    for (const id of ids) notePrice(group, id);
    const results = await Promise.all(ids.map((id) => lookup("batchPrices", priceKey(group, id), () => batcher.load(group, thresholds, id))));
    const data: PriceMap = {};
    ids.forEach((id, i) => {
      const entry = results[i]?.data as PriceEntry | null | undefined;
      if (entry !== null && entry !== undefined) data[id] = entry;
    });
    return {
      data,
      fetchedAt: Math.min(...results.map((r) => r.fetchedAt)),
      stale: results.some((r) => r.stale),
    };
  }

  const params = (p: object) => [canonicalParams(p)];
  const id = (tokenId: string) => [canonicalId(tokenId)];
  const none = () => [];
  const asIs = (s: string) => [s];

  return {
    search: wrap("search", params),
    batchPrices,
    rankTopics: wrap("rankTopics", none),
    rankList: wrap("rankList", params),
    tokenDetail: wrap("tokenDetail", id),
    pairKline: wrap("pairKline", params),
    tokenKline: wrap("tokenKline", params),
    topHolders: wrap("topHolders", params, slimHolders),
    swaps: wrap("swaps", params),
    supportedChains: wrap("supportedChains", none),
    mainTokens: wrap("mainTokens", asIs),
    trending: wrap("trending", params),
    riskReport: wrap("riskReport", id),
    v1Token: wrap("v1Token", id),
    v1Search: wrap("v1Search", asIs),
    v1Pairs: wrap("v1Pairs", asIs),
    v1PairKline: wrap("v1PairKline", params),
    v1PairTxs: wrap("v1PairTxs", params),
    v1PairLiquidity: wrap("v1PairLiquidity", params),
    v1AmmPairs: wrap("v1AmmPairs", params),
    v1ContractCheck: wrap("v1ContractCheck", params),
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
