/**
 * Telegram delivers again every update whose webhook request was not answered 2xx in time,
 * and behind a load balancer the second delivery may reach another worker. Each update id is
 * claimed before it is handled and marked answered once the webhook answer (which carries a
 * one-message reply) was written: a delivery of an answered update gets that same answer
 * again, so a reply whose answer was lost on the way (Telegram gave up waiting, a proxy cut
 * it) is still made once, and one already made is not made twice, since Telegram delivers
 * again only what it never received. One that arrives while another worker handles it is
 * sent back (503) for Telegram to deliver later. A claim outlives its worker only by
 * `claimMs`, so an update whose worker died before its answer was written is handled by the
 * next delivery after it. In Redis with REDIS_URL, in process otherwise and while Redis is away.
 */
import { LRUCache } from "lru-cache";
import { entryBound } from "../lru-bound.js";
import type { SharedRedis } from "../redis/connection.js";

/** `new`: handle it; `answered`: answer it again with `answer()`; `busy`: another worker handles it now. */
export type UpdateClaim = "new" | "answered" | "busy";

export interface UpdateDedupe {
  claim(updateId: number): Promise<UpdateClaim>;
  /** The update's webhook answer was written, with `body` when a reply rode in it: later deliveries get it again. */
  answered(updateId: number, body?: string): Promise<void>;
  /** The body an answered update was answered with, while it is kept; undefined for an empty answer. */
  answer(updateId: number): Promise<string | undefined>;
}

export interface UpdateDedupeOptions {
  /** Shares the claims with every worker of the bot; undefined keeps them in process. */
  redis?: SharedRedis;
  /** Names the bot's keys (its id). */
  scope: string;
  /** How long a claim stands without an answer: longer than a worker takes to answer (8 s). Default 15 000 ms. */
  claimMs?: number;
  /** How long an answered update is remembered: longer than Telegram keeps redelivering (24 h). */
  rememberMs?: number;
  /**
   * How long an answer's body is kept for a redelivery: Telegram delivers an update again
   * within seconds to minutes, and a body is kilobytes where the mark is bytes. Default 15 min.
   */
  keepAnswerMs?: number;
}

const ANSWERED = "answered";

export function createUpdateDedupe(opts: UpdateDedupeOptions): UpdateDedupe {
  const claimMs = opts.claimMs ?? 15_000;
  const rememberMs = opts.rememberMs ?? 24 * 3_600_000;
  const keepAnswerMs = opts.keepAnswerMs ?? 15 * 60_000;
  const local = new LRUCache<number, string>({ ...entryBound(100_000), ttl: rememberMs, ttlAutopurge: false });
  const localAnswers = new LRUCache<number, string>({ max: 1_000, ttl: keepAnswerMs, ttlAutopurge: false });
  const key = (id: number) => `tg-update:${opts.scope}:${id}`;
  const answerKey = (id: number) => `tg-answer:${opts.scope}:${id}`;
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
    async answered(id, body) {
      local.set(id, ANSWERED);
      if (body !== undefined) localAnswers.set(id, body);
      const redis = shared();
      if (redis === undefined) return;
      // One transaction: a mark without its body would answer a redelivery empty.
      const tx = redis.client.multi();
      if (body !== undefined) tx.set(answerKey(id), body, "PX", keepAnswerMs);
      await tx.set(key(id), ANSWERED, "PX", rememberMs).exec().catch(() => undefined);
    },
    async answer(id) {
      const redis = shared();
      if (redis !== undefined) {
        try {
          return (await redis.client.get(answerKey(id))) ?? undefined;
        } catch {
          // This process's copy answers while Redis does not.
        }
      }
      return localAnswers.get(id);
    },
  };
}
