/**
 * Telegram delivers again every update whose webhook request was not answered 2xx in time,
 * and behind a load balancer the second delivery may reach another worker. Each update id is
 * claimed before it is handled and marked answered after: a delivery of an answered update is
 * acknowledged without running it again; one that arrives while another worker handles it is
 * sent back (503) for Telegram to deliver later. A claim outlives its worker only by
 * `claimMs`, so an update whose worker died mid-way is handled by the next delivery after it.
 * In Redis with REDIS_URL, in process otherwise and while Redis is away.
 */
import { LRUCache } from "lru-cache";
import type { SharedRedis } from "../redis/connection.js";

/** `new`: handle it; `answered`: acknowledge it, it was handled; `busy`: another worker handles it now. */
export type UpdateClaim = "new" | "answered" | "busy";

export interface UpdateDedupe {
  claim(updateId: number): Promise<UpdateClaim>;
  /** The update was handled (answered or failed for good): later deliveries are acknowledged only. */
  answered(updateId: number): Promise<void>;
}

export interface UpdateDedupeOptions {
  /** Shares the claims with every worker of the bot; undefined keeps them in process. */
  redis?: SharedRedis;
  /** Names the bot's keys (its id). */
  scope: string;
  /** How long a claim stands without an answer. Default 15 000 ms. */
  claimMs?: number;
  /** How long an answered update is remembered: longer than Telegram keeps redelivering (24 h). */
  rememberMs?: number;
}

const ANSWERED = "answered";

export function createUpdateDedupe(opts: UpdateDedupeOptions): UpdateDedupe {
  const claimMs = opts.claimMs ?? 15_000;
  const rememberMs = opts.rememberMs ?? 24 * 3_600_000;
  const local = new LRUCache<number, string>({ max: 100_000, ttl: rememberMs, ttlAutopurge: false });
  const key = (id: number) => `tg-update:${opts.scope}:${id}`;
  const shared = (): SharedRedis | undefined => (opts.redis?.isUp() ? opts.redis : undefined);

  const claimLocally = (id: number): UpdateClaim => {
    const seen = local.get(id);
    if (seen === ANSWERED) return "answered";
    if (seen !== undefined) return "busy";
    local.set(id, "claimed", { ttl: claimMs });
    return "new";
  };

  return {
    async claim(id) {
      const redis = shared();
      if (redis === undefined) return claimLocally(id);
      try {
        const took = await redis.client.set(key(id), "claimed", "PX", claimMs, "NX");
        if (took === "OK") return "new";
        return (await redis.client.get(key(id))) === ANSWERED ? "answered" : "busy";
      } catch {
        return claimLocally(id);
      }
    },
    async answered(id) {
      local.set(id, ANSWERED);
      const redis = shared();
      if (redis === undefined) return;
      await redis.client.set(key(id), ANSWERED, "PX", rememberMs).catch(() => undefined);
    },
  };
}
