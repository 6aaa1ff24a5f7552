/**
 * The day's compute units of one API key in Redis, so that every process spending them counts
 * against the same daily limit. While Redis is away the process counts in its own ledger (the
 * connection logs the outage once), and Redis's total is the one read again once it is back.
 */
import { ledgerKeyName, MemoryUnitLedger, type UnitLedger } from "../market/quota-ledger.js";
import type { SharedRedis } from "./connection.js";

/** A day's count outlives the day a little, for a process whose clock is behind. */
const KEEP_SECONDS = 2 * 86_400;

export function redisUnitLedger(redis: SharedRedis, apiKey: string): UnitLedger {
  const local = new MemoryUnitLedger();
  const name = ledgerKeyName(apiKey);
  const keyOf = (day: number) => `units:${name}:${day}`;
  return {
    async add(day, units) {
      const mine = await local.add(day, units);
      if (!redis.isUp()) return mine;
      try {
        const total = await redis.client
          .multi()
          .incrbyfloat(keyOf(day), units)
          .expire(keyOf(day), KEEP_SECONDS)
          .exec();
        const value = Number(total?.[0]?.[1]);
        return Number.isFinite(value) ? value : mine;
      } catch {
        return mine;
      }
    },
    async total(day) {
      if (redis.isUp()) {
        try {
          const value = Number((await redis.client.get(keyOf(day))) ?? 0);
          if (Number.isFinite(value)) return value;
        } catch {
          // Counted locally meanwhile.
        }
      }
      return local.total(day);
    },
  };
}
