/**
 * Prices in the cache: cached per id, not per id set (`/price a b` after `/price a c` then
 * fetches only `b`, and every list that shows prices shares the same entries), the misses of
 * everyone gathered into batch calls (price-batch.ts) that carry companions — ids asked for
 * lately whose prices are about to expire — and the batch answers fetched outside the cache
 * (the alert checker's) kept as if the cache had fetched them (`sharingPrices`).
 */
import type { BatchPricesParams, MarketApi } from "../market/api.js";
import { LIMITS } from "../market/limits.js";
import type { PriceEntry, PriceMap } from "../market/schemas.js";
import { canonicalId, stableStringify } from "./keys.js";
import type { LookupEngine } from "./lookup.js";
import { createPriceBatcher } from "./price-batch.js";
import { slimPrice } from "./slim.js";
import type { CacheEntry, CacheStore } from "./store.js";
import type { CachedMarket, Fetched, PriceSink } from "./types.js";

/** Price ids remembered per threshold group as candidates for refreshing in passing. */
const RECENT_PRICES_MAX = 1_000;

export interface CachedPricesOptions {
  api: Pick<MarketApi, "batchPrices">;
  store: CacheStore;
  engine: LookupEngine;
  now: () => number;
  /** How long a price stays fresh, ms. */
  ttlMs: number;
}

export interface CachedPrices {
  batchPrices(p: BatchPricesParams): Promise<Fetched<PriceMap>>;
  /** Where batch answers fetched outside the cache go in. */
  sink: PriceSink;
}

const groupOf = (p: { tvlMin?: number; txVolume24hMin?: number }): string => stableStringify({ tvlMin: p.tvlMin, txVolume24hMin: p.txVolume24hMin });
const priceKey = (group: string, id: string) => `batchPrices:${group}:${id}`;

export function createCachedPrices(opts: CachedPricesOptions): CachedPrices {
  const { store, engine, now, ttlMs } = opts;
  // Price ids asked for lately, oldest first, with when their price passes half its freshness
  // (a check's prices stay fresh longer than the batcher's): the candidates a price batch
  // refreshes in passing.
  const recentPrices = new Map<string, Map<string, number | undefined>>();
  const notePrice = (group: string, id: string, halfAt?: number): void => {
    let ids = recentPrices.get(group);
    if (ids === undefined) recentPrices.set(group, (ids = new Map()));
    const known = ids.get(id);
    ids.delete(id);
    ids.set(id, halfAt === undefined || (known !== undefined && known > halfAt) ? known : halfAt);
    if (ids.size > RECENT_PRICES_MAX) ids.delete(ids.keys().next().value as string);
  };

  /** Ids asked for lately whose price is past half its freshness, newest asked first, at most `room`. */
  function companions(group: string, taken: ReadonlySet<string>, room: number): string[] {
    const out: string[] = [];
    for (const [id, halfAt] of [...(recentPrices.get(group) ?? [])].reverse()) {
      if (out.length >= room) break;
      if (taken.has(id)) continue;
      if (halfAt === undefined || now() > halfAt) out.push(id);
    }
    return out;
  }

  const batcher = createPriceBatcher(opts.api, {
    companions,
    refreshed(group, id, entry) {
      const fresh: CacheEntry = { data: slimPrice(entry), fetchedAt: now(), freshMs: ttlMs };
      recentPrices.get(group)?.set(id, fresh.fetchedAt + fresh.freshMs / 2);
      void store.set(priceKey(group, id), fresh, engine.keepFor("batchPrices", fresh.freshMs));
    },
  });

  async function batchPrices(p: BatchPricesParams): Promise<Fetched<PriceMap>> {
    const ids = [...new Set(p.tokenIds.map(canonicalId))];
    if (ids.length === 0) return { data: {}, fetchedAt: now(), stale: false };
    const thresholds = { tvlMin: p.tvlMin, txVolume24hMin: p.txVolume24hMin };
    const group = groupOf(thresholds);
    for (const id of ids) notePrice(group, id);
    const results = await Promise.all(ids.map((id) => engine.lookup("batchPrices", priceKey(group, id), async () => slimPrice(await batcher.load(group, thresholds, id)))));
    const data: PriceMap = {};
    ids.forEach((id, i) => {
      const result = results[i];
      if (result === undefined) return;
      if (!result.stale) notePrice(group, id, result.fetchedAt + ttlMs / 2);
      const entry = result.data as PriceEntry | null | undefined;
      if (entry !== null && entry !== undefined) data[id] = entry;
    });
    return {
      data,
      fetchedAt: Math.min(...results.map((r) => r.fetchedAt)),
      stale: results.some((r) => r.stale),
    };
  }

  /** A batch answer fetched outside the cache, kept as if the batcher had fetched it, fresh `longerMs` past the TTL: ids it left out are kept as priceless. */
  function keep(p: BatchPricesParams, map: PriceMap, longerMs: number): void {
    const freshMs = ttlMs + longerMs;
    const group = groupOf(p);
    const byId = new Map<string, PriceEntry>();
    for (const [id, entry] of Object.entries(map)) byId.set(canonicalId(id), entry);
    const fetchedAt = now();
    const asked = recentPrices.get(group);
    for (const id of new Set(p.tokenIds.map(canonicalId))) {
      if (asked?.has(id) === true) asked.set(id, fetchedAt + freshMs / 2);
      void store.set(priceKey(group, id), { data: slimPrice(byId.get(id) ?? null), fetchedAt, freshMs }, engine.keepFor("batchPrices", freshMs));
    }
  }

  return { batchPrices, sink: { companions, keep } };
}

/** Options of `sharingPrices`. */
export interface SharingPricesOptions {
  /**
   * How often the caller fetches its prices again (the alert check's period), ms: a price it
   * fetched stays fresh until its next one is due, with one price TTL of slack for that call's
   * own wait in the queue. Default: the price TTL alone.
   */
  everyMs?: number;
}

/**
 * `prices` (the alert checker's uncached batch calls, in their own lane) with every answer
 * also kept in `market`'s price cache: the prices a check paid for answer /price and refresh
 * prices people asked for lately, instead of a batch call of their own, until the next check
 * brings them again. A call with room left (a batch costs 100 units however many of its 200 ids
 * it carries) also carries ids people asked for lately; the caller gets back only its own ids.
 */
export function sharingPrices(market: CachedMarket, prices: Pick<MarketApi, "batchPrices">, opts: SharingPricesOptions = {}): Pick<MarketApi, "batchPrices"> {
  const sink = market.priceSink;
  if (sink === undefined) return prices;
  // Ids in the caller's calls still out: a check's calls leave together, and the room of one is
  // not for the ids of another.
  const out = new Map<string, number>();
  return {
    async batchPrices(p) {
      const asked = new Set(p.tokenIds.map(canonicalId));
      const along = sink.companions(groupOf(p), new Set([...asked, ...out.keys()]), LIMITS.batchPrices.maxIds - asked.size);
      const sent = [...asked, ...along];
      for (const id of sent) out.set(id, (out.get(id) ?? 0) + 1);
      let map: PriceMap;
      try {
        map = await prices.batchPrices(along.length === 0 ? p : { ...p, tokenIds: [...p.tokenIds, ...along] });
      } finally {
        for (const id of sent) {
          const n = (out.get(id) ?? 1) - 1;
          if (n > 0) out.set(id, n);
          else out.delete(id);
        }
      }
      sink.keep({ ...p, tokenIds: sent }, map, Math.max(0, opts.everyMs ?? 0));
      if (along.length === 0) return map;
      const own: PriceMap = {};
      for (const [id, entry] of Object.entries(map)) if (asked.has(canonicalId(id))) own[id] = entry;
      return own;
    },
  };
}
