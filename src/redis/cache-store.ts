/**
 * The lookup cache in Redis, shared by every process of the bot, with each miss loaded once
 * for all of them: the process that claims a key (a mark with an expiry, renewed while its
 * load runs) asks the service, and the others watch for its answer (cache/lookup.ts). Entries
 * are kept as JSON for as long as the cache may serve them. While Redis is away the
 * in-process store, written through all along, answers, and every process loads for itself.
 */
import { randomBytes } from "node:crypto";
import { createMemoryStore } from "../cache/memory-store.js";
import type { CacheEntry, CacheStore } from "../cache/store.js";
import type { SharedRedis } from "./connection.js";
import { LET_GO, TAKE_OR_RENEW } from "./hold-scripts.js";

export interface RedisCacheStoreOptions {
  redis: SharedRedis;
  /** The in-process store: written through, and answering while Redis is away. Default 32 MiB of JSON on the wall clock. */
  local?: CacheStore;
}

const CLAIM = "cache-claim:";
const ENTRY = "cache:";

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
  const me = randomBytes(6).toString("base64url");

  const release = async (key: string): Promise<void> => {
    if (!redis.isUp()) return;
    try {
      await redis.client.eval(LET_GO, 1, CLAIM + key, me);
    } catch {
      // The claim lapses on its own.
    }
  };

  return {
    async get(key) {
      if (redis.isUp()) {
        try {
          return parse(await redis.client.get(ENTRY + key));
        } catch {
          // The connection logs the outage once; the in-process store answers meanwhile.
        }
      }
      return local.get(key);
    },
    async set(key, entry, keepMs) {
      await local.set(key, entry, keepMs);
      if (!redis.isUp()) return;
      try {
        await redis.client.set(ENTRY + key, JSON.stringify(entry), "PX", Math.max(1, Math.ceil(keepMs)));
      } catch {
        // Kept in process; the next process to miss it fetches it again.
        return;
      }
      await release(key);
    },
    async claim(key, forMs) {
      // Without Redis nobody can be told: this process loads for itself.
      if (!redis.isUp()) return true;
      try {
        return Number(await redis.client.eval(TAKE_OR_RENEW, 1, CLAIM + key, me, Math.max(1, Math.ceil(forMs)))) === 1;
      } catch {
        return true;
      }
    },
    release,
  };
}
