/**
 * Collects the price ids that miss the cache into batch calls of up to 200 ids, so `/price a b c`,
 * a digest and every other chat asking at about the same time cost one upstream request between
 * them (⌈ids/200⌉ when more ask). With no call of the group out, ids asked in the same tick go at
 * once; while one is out, later ids gather for a short window into the next call. The window is
 * cut short for an asker whose deadline is near: company is worth a sliver of its time only.
 * A batch costs the same compute units whatever its size (up to 200 ids), so each call also
 * carries companions — other ids asked for lately whose prices are about to expire — and
 * refreshes them in passing. Refreshes nobody waits for gather for a few seconds first.
 */
import type { MarketApi } from "../market/api.js";
import { currentAsk, timeLeft } from "../market/ask.js";
import { LIMITS } from "../market/limits.js";
import type { PriceEntry } from "../market/schemas.js";
import { canonicalId } from "./keys.js";

/** The thresholds of a batch; ids are only merged into one call when these agree. */
export interface PriceThresholds {
  tvlMin?: number;
  txVolume24hMin?: number;
}

interface Waiter {
  resolve(entry: PriceEntry | null): void;
  reject(error: unknown): void;
}

interface PendingBatch {
  thresholds: PriceThresholds;
  waiters: Map<string, Waiter[]>;
  /** When the batch is sent (epoch ms, real clock): the earliest any of its askers allows. */
  sendAt: number;
  timer?: NodeJS.Timeout;
}

/** A loader of single prices that batches them within a short window. */
export interface PriceBatcher {
  /** The price of one canonical id; `null` when the service left it out (unknown or below thresholds). */
  load(group: string, thresholds: PriceThresholds, id: string): Promise<PriceEntry | null>;
}

export interface PriceBatcherOptions {
  /** Up to `room` more ids of `group` worth refreshing now, none of them in `taken`. */
  companions?: (group: string, taken: ReadonlySet<string>, room: number) => string[];
  /** A companion's fresh price (`null` when the service left it out). */
  refreshed?: (group: string, id: string, entry: PriceEntry | null) => void;
  /** How long a batch waits for more ids while a call of its group is out, ms. Default 25. */
  windowMs?: number;
  /** How long a batch of refreshes alone (nobody waiting) gathers more ids, ms. Default 5000. */
  refreshWindowMs?: number;
}

/** Ids in one batch call (the service's limit). */
const BATCH_MAX = LIMITS.batchPrices.maxIds;
const DEFAULT_WINDOW_MS = 25;
/**
 * A refresh nobody waits for is worth holding a few seconds: a batch costs 100 units whatever
 * its size, and the refreshes of the next seconds (and any person's ids) go in the same call.
 */
const DEFAULT_REFRESH_WINDOW_MS = 5_000;
/** The share of an asker's time left that a batch may keep it waiting for other ids. */
const DEADLINE_SHARE = 0.05;

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function createPriceBatcher(api: Pick<MarketApi, "batchPrices">, opts: PriceBatcherOptions = {}): PriceBatcher {
  const pending = new Map<string, PendingBatch>();
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  const refreshWindowMs = opts.refreshWindowMs ?? DEFAULT_REFRESH_WINDOW_MS;
  /** Batch calls out per group. */
  const out = new Map<string, number>();

  async function send(batch: PendingBatch, group: string, ids: string[]): Promise<void> {
    const taken = new Set(batch.waiters.keys());
    const extra = ids.length < BATCH_MAX ? (opts.companions?.(group, taken, BATCH_MAX - ids.length) ?? []) : [];
    out.set(group, (out.get(group) ?? 0) + 1);
    try {
      const map = await api.batchPrices({ tokenIds: [...ids, ...extra], ...batch.thresholds });
      const byId = new Map<string, PriceEntry>();
      for (const [id, entry] of Object.entries(map)) byId.set(canonicalId(id), entry);
      for (const id of ids) for (const w of batch.waiters.get(id) ?? []) w.resolve(byId.get(id) ?? null);
      for (const id of extra) opts.refreshed?.(group, id, byId.get(id) ?? null);
    } catch (error) {
      for (const id of ids) for (const w of batch.waiters.get(id) ?? []) w.reject(error);
    } finally {
      const left = (out.get(group) ?? 1) - 1;
      if (left === 0) out.delete(group);
      else out.set(group, left);
    }
  }

  function flush(group: string, batch: PendingBatch): void {
    if (pending.get(group) !== batch) return;
    pending.delete(group);
    clearTimeout(batch.timer);
    // Only the last call has room for companions; the full ones carry askers' ids alone.
    for (const ids of chunks([...batch.waiters.keys()], BATCH_MAX)) void send(batch, group, ids);
  }

  /** `idle`: only refreshes wait for this batch, so its timer keeps no process alive (a one-shot `chainpulse ask`). */
  function sendBy(group: string, batch: PendingBatch, at: number, idle = false): void {
    if (at >= batch.sendAt) return;
    batch.sendAt = at;
    clearTimeout(batch.timer);
    const wait = at - Date.now();
    // At once still means after every synchronous lookup of the current call has queued its id.
    if (wait <= 0) queueMicrotask(() => flush(group, batch));
    else batch.timer = setTimeout(() => flush(group, batch), wait);
    if (idle) batch.timer?.unref();
  }

  return {
    load(group, thresholds, id) {
      let batch = pending.get(group);
      if (batch === undefined) {
        batch = { thresholds, waiters: new Map(), sendAt: Number.POSITIVE_INFINITY };
        pending.set(group, batch);
      }
      const ask = currentAsk();
      const left = timeLeft(ask);
      const idle = ask?.lane === "refresh" && left === undefined;
      const wait = idle ? refreshWindowMs : !out.has(group) ? 0 : left === undefined ? windowMs : Math.min(windowMs, Math.max(0, left * DEADLINE_SHARE));
      sendBy(group, batch, Date.now() + wait, idle);
      const b = batch;
      return new Promise<PriceEntry | null>((resolve, reject) => {
        const list = b.waiters.get(id);
        if (list === undefined) b.waiters.set(id, [{ resolve, reject }]);
        else list.push({ resolve, reject });
      });
    },
  };
}
