/**
 * The lookup engine: every lookup answered from a cache store (memory-store.ts by default), a
 * TTL per kind, coalesced misses, stale-while-revalidate for every kind (an entry within its
 * grace is served at once and refreshed in the refresh lane), and the answer deadline of the
 * asker (ask.ts): when the service has not answered by then, the newest value up to the kind's
 * maximum staleness is served, and the ask notes how old it is and why. A load that misses
 * the deadline keeps running, so the next person gets fresh data.
 *
 * A miss is loaded once for every process sharing the store: the process that claims the key
 * (CacheStore.claim) asks the service, the others watch the store for its answer. A person
 * watching another worker's load that has not come by the deadline reads "busy", not "not
 * answering": the call is waiting for its turn, the service is not slow.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { MarketApi } from "../market/api.js";
import { asking, currentAsk, lateReason, newAsk, type Ask, type StaleReason } from "../market/ask.js";
import { isMarketError, MarketError } from "../market/errors.js";
import { LANES, type Lane } from "../market/scheduler-lanes.js";
import type { TokenDetail, TokenV2 } from "../market/schemas.js";
import { canonicalId, cacheKey } from "./keys.js";
import { recordsOf } from "./records.js";
import { slimDetail } from "./slim.js";
import type { CacheEntry, CacheStore } from "./store.js";
import { freshMsOf } from "./ttl.js";
import type { Fetched } from "./types.js";

/** One lookup as the cache saw it: answered from memory, from the service, or from an expired entry. */
export interface CacheEvent {
  method: keyof MarketApi;
  outcome: "hit" | "miss" | "stale";
}

export interface LookupEngineOptions {
  store: CacheStore;
  now: () => number;
  /** Waits `ms` on `now`'s clock; default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  ttls: Readonly<Record<keyof MarketApi, number>>;
  maxStale: Readonly<Record<keyof MarketApi, number>>;
  notFoundTtlMs: number;
  emit: (e: CacheEvent) => void;
}

export interface LookupEngine {
  /** The answer of `method` under `key`, `load`ed from the service when the store has none fresh enough. */
  lookup(method: keyof MarketApi, key: string, load: () => Promise<unknown>): Promise<Fetched<unknown>>;
  /** How long an entry fresh for `freshMs` is kept: as long as it may be served stale, and at least through its grace. */
  keepFor(method: keyof MarketApi, freshMs: number): number;
}

interface Loading {
  promise: Promise<CacheEntry>;
  startedAt: number;
  /** The lane of the asker who started it: a person does not wait behind a refresh. */
  lane: Lane;
  /** While true, another process holds the key's claim and this one waits for its answer in the store. */
  watching: boolean;
}

/** Entries this much past their TTL are still served at once while a refresh runs. */
const GRACE_FACTOR = 1;
/** A load running this long has already kept someone waiting: later askers get the old value at once. */
const OVERDUE_MS = 2_000;
/**
 * How long a person with an older value at hand waits for a fresh one, when the ask does not
 * say (`Ask.patientUntil`): the rest of the deadline is for people with nothing to show but a sentence.
 */
const STALE_PATIENCE_MS = 800;
/**
 * How long a claim on a key stands unless its process renews it (every half of this while its
 * load runs, real time): a process that died loading lets the others load it after this.
 */
const CLAIM_MS = 5_000;
/** How often a process waiting for another's load looks into the store, ms of real time. */
const WATCH_POLL_MS = 25;

const LATE = Symbol("late");

/** Why an expired value was served instead of the service's answer. */
function reasonOf(error: unknown): StaleReason {
  return lateReason(error) ?? "failing";
}

export function createLookupEngine(opts: LookupEngineOptions): LookupEngine {
  const { store, now, ttls, maxStale, emit } = opts;
  const loading = new Map<string, Loading>();

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
   * Until this process may load `key` (undefined), or another process stored an answer newer
   * than `old` (that entry). A claim that is never renewed lapses, so the wait ends.
   */
  async function turnToLoad(claim: (key: string, forMs: number) => Promise<boolean>, key: string, old: CacheEntry | undefined, started: Loading): Promise<CacheEntry | undefined> {
    const newer = async (): Promise<CacheEntry | undefined> => {
      const entry = await store.get(key);
      return entry !== undefined && entry.fetchedAt > (old?.fetchedAt ?? Number.NEGATIVE_INFINITY) ? entry : undefined;
    };
    started.watching = true;
    try {
      for (;;) {
        if (await claim(key, CLAIM_MS)) {
          // The claim may be free because its holder has just stored the answer.
          const stored = await newer();
          if (stored !== undefined) await store.release?.(key);
          return stored;
        }
        const stored = await newer();
        if (stored !== undefined) return stored;
        await delay(WATCH_POLL_MS);
      }
    } finally {
      started.watching = false;
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
    const started: Loading = { promise: Promise.resolve(undefined as unknown as CacheEntry), startedAt: now(), lane, watching: false };
    loading.set(key, started);
    const run = by === undefined || ask === undefined ? load : () => asking({ ...ask, deadline: Math.min(by, ask.deadline ?? by) }, load);
    started.promise = (async (): Promise<CacheEntry> => {
      let renewing: NodeJS.Timeout | undefined;
      try {
        // In one process the load starts in this very turn, beside the other lookups of the same call.
        if (store.claim !== undefined) {
          const stored = await turnToLoad(store.claim.bind(store), key, old, started);
          if (stored !== undefined) return stored;
          const claim = store.claim.bind(store);
          renewing = setInterval(() => void claim(key, CLAIM_MS).catch(() => undefined), CLAIM_MS / 2);
          renewing.unref();
        }
        return await loadAndStore(method, key, run, old);
      } catch (error) {
        // A person's call that found no room in time: fetch it anyway, behind everyone, for the next one.
        if (isMarketError(error) && error.kind === "busy" && lane !== "refresh") queueMicrotask(() => refresh(method, key, load, old));
        throw error;
      } finally {
        clearInterval(renewing);
        if (loading.get(key) === started) loading.delete(key);
      }
    })();
    // Whoever gave up waiting at their deadline no longer listens; the failure is theirs to ignore.
    started.promise.catch(() => undefined);
    return started;
  }

  /** `run`'s answer stored under `key`; a failure leaves `old` marked as failed to refresh. */
  async function loadAndStore(method: keyof MarketApi, key: string, run: () => Promise<unknown>, old: CacheEntry | undefined): Promise<CacheEntry> {
    try {
      const data = await run();
      const entry: CacheEntry = { data, fetchedAt: now(), freshMs: freshMsOf(method, data, ttls[method]) };
      await store.set(key, entry, keepFor(method, entry.freshMs));
      const records = recordsOf(method, entry.data);
      if (records.length > 0) void refreshCards(records, entry.fetchedAt).catch(() => undefined);
      return entry;
    } catch (error) {
      if (isMarketError(error) && error.kind === "not_found") {
        const entry: CacheEntry = { data: null, fetchedAt: now(), freshMs: opts.notFoundTtlMs, notFound: error.message };
        await store.set(key, entry, opts.notFoundTtlMs);
        return entry;
      }
      if (old !== undefined) await store.set(key, { ...old, refreshFailedAt: now() }, keepFor(method, old.freshMs) - (now() - old.fetchedAt));
      else await store.release?.(key);
      throw error;
    }
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
      return served(method, old, pending.watching ? "busy" : "slow");
    }
    if (pending.watching) {
      throw new MarketError({ kind: "busy", endpoint: method, message: "not answered yet: another worker's call for it waits for its turn; it fills the shared cache" });
    }
    throw new MarketError({ kind: "timeout", endpoint: method, message: "no answer before the asker's deadline; the call goes on in the background" });
  }

  return { lookup, keepFor };
}
