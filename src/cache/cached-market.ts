/**
 * The CachedMarket: every lookup answered from a cache store (memory-store.ts by default), a
 * TTL per kind, coalesced misses, stale-while-revalidate for every kind (an entry within its
 * grace is served at once and refreshed in the refresh lane), and the answer deadline of the
 * asker (ask.ts): when the service has not answered by then, the newest value up to the kind's
 * maximum staleness is served, and the ask notes how old it is and why. A refresh that misses
 * the deadline keeps running, so the next person gets fresh data.
 */
import type { BatchPricesParams, MarketApi } from "../market/api.js";
import { asking, currentAsk, newAsk, type Ask, type StaleReason } from "../market/ask.js";
import { LIMITS } from "../market/limits.js";
import { LANES, type Lane } from "../market/scheduler-lanes.js";
import { isMarketError, MarketError } from "../market/errors.js";
import { setTimeout as delay } from "node:timers/promises";
import type { PriceEntry, PriceMap, RiskReport, TokenDetail, TokenV2 } from "../market/schemas.js";
import { canonicalId, canonicalParams, cacheKey, stableStringify } from "./keys.js";
import { createMemoryStore } from "./memory-store.js";
import { createPriceBatcher } from "./price-batch.js";
import { slimDetail, slimHolders, slimPrice, slimRiskReport, slimV1Token } from "./slim.js";
import type { CacheEntry, CacheStore } from "./store.js";
import { DEFAULT_NOT_FOUND_TTL_MS, DEFAULT_TTL, freshMsOf, MAX_STALE } from "./ttl.js";
import type { CachedMarket, Fetched } from "./types.js";

/** One lookup as the cache saw it: answered from memory, from the service, or from an expired entry. */
export interface CacheEvent {
  method: keyof MarketApi;
  outcome: "hit" | "miss" | "stale";
}

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

interface Loading {
  promise: Promise<CacheEntry>;
  startedAt: number;
  /** The lane of the asker who started it: a person does not wait behind a refresh. */
  lane: Lane;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Price ids remembered per threshold group as candidates for refreshing in passing. */
const RECENT_PRICES_MAX = 1_000;
/** Entries this much past their TTL are still served at once while a refresh runs. */
const GRACE_FACTOR = 1;
/** A load running this long has already kept someone waiting: later askers get the old value at once. */
const OVERDUE_MS = 2_000;
/**
 * How long a person with an older value at hand waits for a fresh one, when the ask does not
 * say (`Ask.patientUntil`): the rest of the deadline is for people with nothing to show but a sentence.
 */
const STALE_PATIENCE_MS = 800;

const LATE = Symbol("late");

/** Why an expired value was served instead of the service's answer. */
function reasonOf(error: unknown): StaleReason {
  if (!isMarketError(error)) return "failing";
  if (error.kind === "busy" || error.kind === "rate_limited") return "busy";
  if (error.kind === "quota") return "quota";
  if (error.kind === "timeout") return "slow";
  return "failing";
}

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/** The full token records in a list answer (search, rank list, main tokens, trending), up to 300 a call. */
function recordsOf(method: keyof MarketApi, data: unknown): readonly TokenV2[] {
  if (method === "search" || method === "rankList" || method === "mainTokens") return Array.isArray(data) ? (data as TokenV2[]) : [];
  if (method === "trending") return (data as { tokens?: TokenV2[] } | undefined)?.tokens ?? [];
  return [];
}

/** Token symbols remembered from the records that pass through, at most: about 1 MB of short strings. */
const SYMBOLS_MAX = 20_000;

/** The token symbols an answer carries, by token id: a detail's token, a list's records, a risk report's token. */
function symbolsOf(method: keyof MarketApi, args: readonly unknown[], data: unknown): [string, string][] {
  const out: [string, string][] = [];
  const add = (token: unknown, chain: unknown, symbol: unknown) => {
    if (typeof token === "string" && typeof chain === "string" && typeof symbol === "string" && symbol.trim() !== "") out.push([canonicalId(`${token}-${chain}`), symbol]);
  };
  for (const r of recordsOf(method, data)) add(r.token, r.chain, r.symbol);
  if (method === "tokenDetail") {
    const t = (data as TokenDetail | null)?.token;
    add(t?.token, t?.chain, t?.symbol);
  }
  // A report does not name its token: its argument does.
  if (method === "riskReport" && typeof args[0] === "string") {
    const symbol = (data as RiskReport | null)?.token_symbol;
    if (typeof symbol === "string" && symbol.trim() !== "") out.push([args[0], symbol]);
  }
  return out;
}

/** How a cache takes in batch prices fetched outside it (the alert checker's). */
interface PriceSink {
  /** Ids asked for lately, not fetched this half TTL, to ride along in a call of `group` with room for `room` more. */
  companions(group: string, taken: ReadonlySet<string>, room: number): string[];
  /** Keeps `map`, the answer to `p`, each price fresh for the price TTL and `longerMs` more. */
  keep(p: BatchPricesParams, map: PriceMap, longerMs: number): void;
}

/** What each cache keeps of batch prices fetched outside it (the alert checker's), by cache. */
const priceSinks = new WeakMap<CachedMarket, PriceSink>();

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
  const sink = priceSinks.get(market);
  if (sink === undefined) return prices;
  // Ids in the caller's calls still out: a check's calls leave together, and the room of one is
  // not for the ids of another.
  const out = new Map<string, number>();
  return {
    async batchPrices(p) {
      const asked = new Set(p.tokenIds.map(canonicalId));
      const group = stableStringify({ tvlMin: p.tvlMin, txVolume24hMin: p.txVolume24hMin });
      const along = sink.companions(group, new Set([...asked, ...out.keys()]), LIMITS.batchPrices.maxIds - asked.size);
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

/** Wraps `api` in the cache. */
export function createCachedMarket(api: MarketApi, opts: CachedMarketOptions = {}): CachedMarket {
  const now = opts.now ?? Date.now;
  const ttls: Record<keyof MarketApi, number> = { ...DEFAULT_TTL, ...opts.ttl };
  const maxStale: Record<keyof MarketApi, number> = { ...MAX_STALE, ...opts.maxStale };
  const notFoundTtl = opts.notFoundTtlMs ?? DEFAULT_NOT_FOUND_TTL_MS;
  const emit = opts.onEvent ?? (() => undefined);

  if (opts.disabled === true) return passThrough(api, now, emit);

  const store = opts.store ?? createMemoryStore({ maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES, now });
  const loading = new Map<string, Loading>();

  // Symbols by token id, newest last: a symbol is a near-constant fact, worth no call of its own.
  const symbols = new Map<string, string>();
  const noteSymbol = (tokenId: string, symbol: string): void => {
    symbols.delete(tokenId);
    symbols.set(tokenId, symbol);
    if (symbols.size > SYMBOLS_MAX) symbols.delete(symbols.keys().next().value as string);
  };

  /** A token's symbol from a record seen lately, else from its detail in the store, of any age the store keeps. */
  async function knownSymbol(tokenId: string): Promise<string | undefined> {
    const id = canonicalId(tokenId);
    const seen = symbols.get(id);
    if (seen !== undefined) return seen;
    const card = await store.get(cacheKey("tokenDetail", [id]));
    const symbol = (card?.data as TokenDetail | null | undefined)?.token.symbol;
    return typeof symbol === "string" && symbol.trim() !== "" ? symbol : undefined;
  }

  /** Kept as long as it may be served stale, and at least through its grace. */
  const keepFor = (method: keyof MarketApi, freshMs: number): number => Math.max(maxStale[method], freshMs * (1 + GRACE_FACTOR));

  /**
   * A list's records carry each token's price and market figures: they bring the cached cards
   * of those tokens up to date, instead of a detail call each.
   */
  async function refreshCards(records: readonly TokenV2[], fetchedAt: number): Promise<void> {
    for (const r of records) {
      if (typeof r.token !== "string" || typeof r.chain !== "string") continue;
      const key = cacheKey("tokenDetail", [canonicalId(`${r.token}-${r.chain}`)]);
      const card = await store.get(key);
      if (card === undefined || card.notFound !== undefined || card.fetchedAt >= fetchedAt) continue;
      const detail = card.data as TokenDetail;
      const data: TokenDetail = slimDetail({ ...detail, token: { ...detail.token, ...r } });
      await store.set(key, { data, fetchedAt, freshMs: card.freshMs }, keepFor("tokenDetail", card.freshMs));
    }
  }

  /**
   * Loads `key` and stores the answer. `by`: the epoch ms (on the asker's clock) the asker stops
   * waiting, when sooner than its deadline, so the scheduler refuses at once a call that cannot
   * answer by then. A load started for a higher lane than a running one's takes its place.
   */
  function startLoad(method: keyof MarketApi, key: string, load: () => Promise<unknown>, old: CacheEntry | undefined, by?: number): Loading {
    const ask = currentAsk();
    const lane = ask?.lane ?? "people";
    const started: Loading = { promise: Promise.resolve(undefined as unknown as CacheEntry), startedAt: now(), lane };
    loading.set(key, started);
    const run = by === undefined || ask === undefined ? load : () => asking({ ...ask, deadline: Math.min(by, ask.deadline ?? by) }, load);
    started.promise = (async (): Promise<CacheEntry> => {
      try {
        const data = await run();
        const entry: CacheEntry = { data, fetchedAt: now(), freshMs: freshMsOf(method, data, ttls[method]) };
        await store.set(key, entry, keepFor(method, entry.freshMs));
        const records = recordsOf(method, entry.data);
        if (records.length > 0) void refreshCards(records, entry.fetchedAt).catch(() => undefined);
        return entry;
      } catch (error) {
        if (isMarketError(error) && error.kind === "not_found") {
          const entry: CacheEntry = { data: null, fetchedAt: now(), freshMs: notFoundTtl, notFound: error.message };
          await store.set(key, entry, notFoundTtl);
          return entry;
        }
        if (old !== undefined) await store.set(key, { ...old, refreshFailedAt: now() }, keepFor(method, old.freshMs) - (now() - old.fetchedAt));
        // A person's call that found no room in time: fetch it anyway, behind everyone, for the next one.
        if (isMarketError(error) && error.kind === "busy" && lane !== "refresh") queueMicrotask(() => refresh(method, key, load, old));
        throw error;
      } finally {
        if (loading.get(key) === started) loading.delete(key);
      }
    })();
    // Whoever gave up waiting at their deadline no longer listens; the failure is theirs to ignore.
    started.promise.catch(() => undefined);
    return started;
  }

  /** Loads `key` in the refresh lane without anyone waiting. */
  function refresh(method: keyof MarketApi, key: string, load: () => Promise<unknown>, old: CacheEntry | undefined): void {
    if (loading.has(key)) return;
    asking(newAsk("refresh"), () => startLoad(method, key, load, old)).promise.catch(() => undefined);
  }

  /** `promise`'s outcome, or LATE when `until` (epoch ms on the asker's clock) comes first; no bound without an asker's deadline. */
  function byDeadline<T>(promise: Promise<T>, ask: Ask | undefined, until: number | undefined): Promise<T | typeof LATE> {
    if (ask === undefined || until === undefined) return promise;
    const left = until - ask.now();
    if (left <= 0) return Promise.resolve(LATE);
    // The real timer is cleared once the answer is in: a pending one kept `chainpulse ask`
    // alive for the rest of the deadline after it had answered.
    const settled = new AbortController();
    const late = opts.sleep === undefined ? delay(left, LATE, { signal: settled.signal }) : opts.sleep(left).then((): typeof LATE => LATE);
    return Promise.race([promise, late.catch((): typeof LATE => LATE)]).finally(() => settled.abort());
  }

  function served(method: keyof MarketApi, entry: CacheEntry, stale: StaleReason | undefined): Fetched<unknown> {
    if (entry.notFound !== undefined) {
      throw new MarketError({ kind: "not_found", endpoint: method, status: 404, message: entry.notFound });
    }
    if (stale !== undefined) currentAsk()?.stale.push({ fetchedAt: entry.fetchedAt, why: stale });
    return { data: entry.data, fetchedAt: entry.fetchedAt, stale: stale !== undefined };
  }

  async function lookup(method: keyof MarketApi, key: string, load: () => Promise<unknown>): Promise<Fetched<unknown>> {
    const ask = currentAsk();
    const entry = await store.get(key);
    const t = now();
    if (entry !== undefined) {
      const age = t - entry.fetchedAt;
      if (age <= entry.freshMs) {
        emit({ method, outcome: "hit" });
        return served(method, entry, undefined);
      }
      if (age <= entry.freshMs * (1 + GRACE_FACTOR) && entry.notFound === undefined) {
        refresh(method, key, load, entry);
        emit({ method, outcome: "stale" });
        return served(method, entry, entry.refreshFailedAt === undefined ? undefined : "failing");
      }
    }
    const old = entry?.notFound === undefined ? entry : undefined;
    const running = loading.get(key);
    const deadline = ask?.deadline;
    if (old !== undefined && running !== undefined && deadline !== undefined && t - running.startedAt >= OVERDUE_MS) {
      emit({ method, outcome: "stale" });
      return served(method, old, "slow");
    }
    // With older data at hand a person waits only as long as the command's patience, and the
    // call is refused at once when the queue cannot answer it by then.
    const patientBy = old === undefined || deadline === undefined || ask === undefined ? undefined : Math.min(deadline, ask.patientUntil ?? ask.now() + STALE_PATIENCE_MS);
    // A person does not wait behind a refresh or a digest: the own call joins the queued one
    // in the scheduler, which moves it up to the person's lane or refuses it at once.
    const behind = running !== undefined && deadline !== undefined && LANES.indexOf(running.lane) > LANES.indexOf(ask?.lane ?? "people");
    const pending = running === undefined || behind ? startLoad(method, key, load, old, patientBy) : running;
    let outcome: CacheEntry | typeof LATE;
    try {
      outcome = await byDeadline(pending.promise, ask, patientBy ?? deadline);
    } catch (error) {
      if (old === undefined) throw error;
      emit({ method, outcome: "stale" });
      return served(method, old, reasonOf(error));
    }
    if (outcome !== LATE) {
      emit({ method, outcome: running === undefined ? "miss" : "hit" });
      return served(method, outcome, undefined);
    }
    if (old !== undefined) {
      emit({ method, outcome: "stale" });
      return served(method, old, "slow");
    }
    throw new MarketError({ kind: "timeout", endpoint: method, message: "no answer before the asker's deadline; the call goes on in the background" });
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
      return lookup(method, cacheKey(method, c), async () => {
        const data = keep((await call(...c)) as Awaited<ReturnType<MarketApi[K]>>);
        for (const [tokenId, symbol] of symbolsOf(method, c, data)) noteSymbol(tokenId, symbol);
        return data;
      });
    };
    return wrapped as unknown as CachedMarket[K];
  }

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
  const priceKey = (group: string, id: string) => `batchPrices:${group}:${id}`;
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
  const batcher = createPriceBatcher(api, {
    companions,
    refreshed(group, id, entry) {
      const fresh: CacheEntry = { data: slimPrice(entry), fetchedAt: now(), freshMs: ttls.batchPrices };
      recentPrices.get(group)?.set(id, fresh.fetchedAt + fresh.freshMs / 2);
      void store.set(priceKey(group, id), fresh, keepFor("batchPrices", fresh.freshMs));
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
    const results = await Promise.all(ids.map((id) => lookup("batchPrices", priceKey(group, id), async () => slimPrice(await batcher.load(group, thresholds, id)))));
    const data: PriceMap = {};
    ids.forEach((id, i) => {
      const result = results[i];
      if (result === undefined) return;
      if (!result.stale) notePrice(group, id, result.fetchedAt + ttls.batchPrices / 2);
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
  function keepPrices(p: BatchPricesParams, map: PriceMap, longerMs: number): void {
    const freshMs = ttls.batchPrices + longerMs;
    const group = stableStringify({ tvlMin: p.tvlMin, txVolume24hMin: p.txVolume24hMin });
    const byId = new Map<string, PriceEntry>();
    for (const [id, entry] of Object.entries(map)) byId.set(canonicalId(id), entry);
    const fetchedAt = now();
    const asked = recentPrices.get(group);
    for (const id of new Set(p.tokenIds.map(canonicalId))) {
      if (asked?.has(id) === true) asked.set(id, fetchedAt + freshMs / 2);
      void store.set(priceKey(group, id), { data: slimPrice(byId.get(id) ?? null), fetchedAt, freshMs }, keepFor("batchPrices", freshMs));
    }
  }

  const params = (p: object) => [canonicalParams(p)];
  const id = (tokenId: string) => [canonicalId(tokenId)];
  const none = () => [];
  const asIs = (s: string) => [s];

  const market: CachedMarket = {
    search: wrap("search", params),
    batchPrices,
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
  };
  market.knownSymbol = knownSymbol;
  priceSinks.set(market, { companions, keep: keepPrices });
  return market;
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
