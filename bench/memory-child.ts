/**
 * A row of the memory benchmark in a fresh process of its own, so that its RSS is the cache's
 * and not the harness's (which loads every benchmark) or another row's high-water mark:
 * `node --expose-gc child.mjs <local|redis> <entries> <samples.json> <out.json> <settle ms> [redis url]`,
 * run compiled (bench/memory.ts bundles it), as the bot runs from dist/ without the TypeScript
 * loader. `local` fills the cache in process; `redis` fills it with its store in Redis, wired
 * as REDIS_URL wires it. Writes a `ChildFill` to out.json.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { setTimeout as wait } from "node:timers/promises";
import pino from "pino";
import { createCachedMarket } from "../src/cache/cached-market.js";
import type { CachedMarket } from "../src/cache/types.js";
import { createRedisCacheStore } from "../src/redis/cache-store.js";
import { connectRedis, KEY_PREFIX, type SharedRedis } from "../src/redis/connection.js";
import { heapMb, rssMb } from "./measure.js";
import { fill, lookup, sampleApi } from "./memory-fill.js";
import type { Kind } from "./memory-samples.js";

/** What one row measured, MB unless named otherwise. */
export interface ChildFill {
  rssBefore: number;
  /** Right after the fill, its garbage collected but not yet given back. */
  rssPeak: number;
  /** Once V8 has given back the pages the fill's garbage took (or `settle ms` passed). */
  rssSettled: number;
  heapGrowth: number;
  /** Redis only: cache entries found in Redis after the fill. */
  entriesInRedis?: number;
  /** Redis only: growth of the server's own memory (INFO memory used_memory). */
  serverGrowth?: number;
}

/** Poll spacing while waiting for RSS to settle, and how long it must stay put once it has fallen. */
const POLL_MS = 500;
const QUIET_MS = 2_000;

/**
 * RSS once the fill is over: V8 keeps the pages its garbage took until its memory reducer runs,
 * a few seconds after allocation calms down, as it does in a bot between bursts. Polled (without
 * forcing collections, which would keep the reducer waiting) until it has fallen and then held
 * for `QUIET_MS`, at most `settleMs`; the lowest reading.
 */
async function settledRss(settleMs: number): Promise<number> {
  const MB = 1024 * 1024;
  const started = performance.now();
  let low = process.memoryUsage.rss() / MB;
  let fellAt: number | undefined;
  while (performance.now() - started < settleMs) {
    await wait(POLL_MS);
    const now = process.memoryUsage.rss() / MB;
    if (now < low - 1) {
      low = now;
      fellAt = performance.now();
    } else if (fellAt !== undefined && performance.now() - fellAt >= QUIET_MS) {
      break;
    }
  }
  return Math.min(low, rssMb());
}

async function usedMemoryMb(redis: SharedRedis): Promise<number> {
  const m = /^used_memory:(\d+)/m.exec(await redis.client.info("memory"));
  if (m?.[1] === undefined) throw new Error("Redis INFO memory has no used_memory");
  return Number(m[1]) / 1024 ** 2;
}

async function measure(entries: number, samples: Record<Kind, string[]>, settleMs: number, url: string | undefined): Promise<ChildFill> {
  const api = sampleApi(samples);
  const redis = url === undefined ? undefined : await connectRedis({ url, log: pino({ level: "silent" }) });
  try {
    // On its in-process fallback the cache would fill, and the row would measure no Redis at all.
    if (redis !== undefined && !redis.isUp()) throw new Error(`Redis at ${url} did not answer`);
    const serverBefore = redis === undefined ? 0 : await usedMemoryMb(redis);
    const rssBefore = rssMb();
    const heapBefore = heapMb();
    // The clock is pinned so none expires. In process the bound is raised so all stay; with
    // Redis the in-process copy keeps the store's default bound, as in production.
    let market: CachedMarket | undefined = redis === undefined
      ? createCachedMarket(api, { maxBytes: 4 * 1024 ** 3, now: () => 0 })
      : createCachedMarket(api, { now: () => 0, store: createRedisCacheStore({ redis }) });
    await fill(market, entries, 500);
    const rssPeak = rssMb();
    const heapGrowth = heapMb() - heapBefore;
    const rssSettled = await settledRss(settleMs);
    // A last lookup (a hit: the clock is pinned) keeps the cache reachable through the measurements.
    await lookup(market, 0);
    if (redis === undefined) return { rssBefore, rssPeak, rssSettled, heapGrowth };
    market = undefined;
    // KEYS counts exactly (SCAN may repeat a key); the pattern is whole, as the client's prefix does not apply to it.
    const entriesInRedis = Number(await redis.client.eval("return #redis.call('KEYS', ARGV[1])", 0, `${KEY_PREFIX}cache:*`));
    return { rssBefore, rssPeak, rssSettled, heapGrowth, entriesInRedis, serverGrowth: (await usedMemoryMb(redis)) - serverBefore };
  } finally {
    await redis?.close();
  }
}

const [mode, entries, samplesPath, out, settleMs, url] = process.argv.slice(2);
if ((mode === "local" || mode === "redis") && entries !== undefined && samplesPath !== undefined && out !== undefined && settleMs !== undefined) {
  const samples = JSON.parse(readFileSync(samplesPath, "utf8")) as Record<Kind, string[]>;
  writeFileSync(out, JSON.stringify(await measure(Number(entries), samples, Number(settleMs), mode === "redis" ? url : undefined)));
}
