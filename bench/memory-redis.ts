/**
 * The memory benchmark's Redis row in a fresh process of its own
 * (`node --expose-gc --import tsx bench/memory-redis.ts <entries> <samples.json> <redis url> <out.json>`):
 * the same entries through the same cache with its store in Redis, wired as REDIS_URL wires it,
 * so that its RSS is not the in-process fill's high-water mark. Writes a `RedisFill` to out.json.
 */
import { readFileSync, writeFileSync } from "node:fs";
import pino from "pino";
import { createCachedMarket } from "../src/cache/cached-market.js";
import type { CachedMarket } from "../src/cache/types.js";
import { createRedisCacheStore } from "../src/redis/cache-store.js";
import { connectRedis, KEY_PREFIX, type SharedRedis } from "../src/redis/connection.js";
import { heapMb, rssMb } from "./measure.js";
import { fill, sampleApi } from "./memory-fill.js";
import type { Kind } from "./memory-samples.js";

/** What the Redis row measured, MB unless named otherwise. */
export interface RedisFill {
  rssBefore: number;
  rssFull: number;
  heapGrowth: number;
  /** Cache entries found in Redis after the fill. */
  entriesInRedis: number;
  /** Growth of the server's own memory (INFO memory used_memory). */
  serverGrowth: number;
}

async function usedMemoryMb(redis: SharedRedis): Promise<number> {
  const m = /^used_memory:(\d+)/m.exec(await redis.client.info("memory"));
  if (m?.[1] === undefined) throw new Error("Redis INFO memory has no used_memory");
  return Number(m[1]) / 1024 ** 2;
}

async function measure(entries: number, samples: Record<Kind, string[]>, url: string): Promise<RedisFill> {
  const redis = await connectRedis({ url, log: pino({ level: "silent" }) });
  try {
    // On its in-process fallback the cache would fill, and the row would measure no Redis at all.
    if (!redis.isUp()) throw new Error(`Redis at ${url} did not answer`);
    const api = sampleApi(samples);
    const serverBefore = await usedMemoryMb(redis);
    const rssBefore = rssMb();
    const heapBefore = heapMb();
    // The clock is pinned so none expires; the in-process copy keeps the store's default bound, as in production.
    let market: CachedMarket | undefined = createCachedMarket(api, { now: () => 0, store: createRedisCacheStore({ redis }) });
    await fill(market, entries, 500);
    const rssFull = rssMb();
    const heapGrowth = heapMb() - heapBefore;
    market = undefined;
    // KEYS counts exactly (SCAN may repeat a key); the pattern is whole, as the client's prefix does not apply to it.
    const entriesInRedis = Number(await redis.client.eval("return #redis.call('KEYS', ARGV[1])", 0, `${KEY_PREFIX}cache:*`));
    return { rssBefore, rssFull, heapGrowth, entriesInRedis, serverGrowth: (await usedMemoryMb(redis)) - serverBefore };
  } finally {
    await redis.close();
  }
}

const [entries, samplesPath, url, out] = process.argv.slice(2);
if (entries !== undefined && samplesPath !== undefined && url !== undefined && out !== undefined) {
  const samples = JSON.parse(readFileSync(samplesPath, "utf8")) as Record<Kind, string[]>;
  writeFileSync(out, JSON.stringify(await measure(Number(entries), samples, url)));
}
