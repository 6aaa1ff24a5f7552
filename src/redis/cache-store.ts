/**
 * The lookup cache in Redis, shared by every process of the bot, with misses coalesced across
 * them where it is cheap: the first process to miss a key takes a short claim on it and
 * fetches; another that misses meanwhile waits briefly for that value instead of asking the
 * service too. Entries are kept as JSON for as long as the cache may serve them; the lookup
 * logic around them (cached-market.ts) is the same as in process. While Redis is away the
 * in-process store, written through all along, answers.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as wait } from "node:timers/promises";
import { LRUCache } from "lru-cache";
import { createMemoryStore } from "../cache/memory-store.js";
import type { CacheEntry, CacheStore } from "../cache/store.js";
import type { SharedRedis } from "./connection.js";

export interface RedisCacheStoreOptions {
  redis: SharedRedis;
  /** The in-process store: written through, and answering while Redis is away. Default 32 MiB of JSON on the wall clock. */
  local?: CacheStore;
  /** Longest a miss waits for another process's fetch of the same key, ms. Default 750. */
  waitMs?: number;
  /** How often a waiting miss looks again, ms. Default 25. */
  pollMs?: number;
}

const CLAIM = "cache-claim:";
const ENTRY = "cache:";

/** Lets go of a claim only if it is still ours (it may have lapsed and been taken by another). */
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

function parse(json: string | null): CacheEntry | undefined {
  if (json === null) return undefined;
  try {
    const v = JSON.parse(json) as CacheEntry;
    return typeof v === "object" && v !== null && typeof v.fetchedAt === "number" && typeof v.freshMs === "number" ? v : undefined;
  } catch {
    return undefined;
  }
}

export function createRedisCacheStore(opts: RedisCacheStoreOptions): CacheStore {
  const { redis } = opts;
  const local = opts.local ?? createMemoryStore({ maxBytes: 32 * 1024 * 1024, now: Date.now });
  const waitMs = opts.waitMs ?? 750;
  const pollMs = opts.pollMs ?? 25;
  const me = randomBytes(6).toString("base64url");
  /** Keys this process claimed and is fetching: its own later misses join that fetch in process. A failed fetch's claim lapses. */
  const claimed = new LRUCache<string, true>({ max: 10_000, ttl: waitMs });

  const read = async (key: string): Promise<CacheEntry | undefined> => parse(await redis.client.get(ENTRY + key));

  /** Whether this process may fetch `key`: nobody else is, or whoever was let their claim lapse. */
  const claim = async (key: string): Promise<boolean> =>
    (await redis.client.set(CLAIM + key, me, "PX", waitMs, "NX")) === "OK";

  async function sharedGet(key: string): Promise<CacheEntry | undefined> {
    const found = await read(key);
    if (found !== undefined || claimed.has(key)) return found;
    if (await claim(key)) {
      claimed.set(key, true);
      return undefined;
    }
    // Another process is fetching it: its answer is worth a short wait.
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      await wait(pollMs);
      const filled = await read(key);
      if (filled !== undefined) return filled;
    }
    return undefined;
  }

  return {
    async get(key) {
      if (redis.isUp()) {
        try {
          return await sharedGet(key);
        } catch {
          // The connection logs the outage once; the in-process store answers meanwhile.
        }
      }
      return local.get(key);
    },
    async set(key, entry, keepMs) {
      await local.set(key, entry, keepMs);
      const wasClaimed = claimed.delete(key);
      if (!redis.isUp()) return;
      try {
        await redis.client.set(ENTRY + key, JSON.stringify(entry), "PX", Math.max(1, Math.ceil(keepMs)));
        if (wasClaimed) await redis.client.eval(RELEASE, 1, CLAIM + key, me);
      } catch {
        // Kept in process; the next process to miss it fetches it again.
      }
    },
  };
}
