/**
 * The market key's pace shared by every worker through Redis: one script reserves the next
 * free turn (a little over `1000 / rps` ms after the last one handed out, by Redis's own
 * clock so that the workers' clocks need not agree) and the call waits until then. While
 * Redis is away each worker keeps its own scheduler's pace alone, as one process does.
 */
import { createHash } from "node:crypto";
import type { SpacingGate } from "../market/spacing-gate.js";
import type { SharedRedis } from "./connection.js";

/** Returns the wait in ms until the reserved turn; the key expires once no turn is pending. */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nextFree)
redis.call('SET', KEYS[1], at + interval, 'PX', math.ceil(at + interval - now) + 1000)
return at - now
`;

export interface RedisSpacingGateOptions {
  redis: SharedRedis;
  /** The key's requests per second (MARKET_API_RPS). */
  rps: number;
  /** The key whose pace this is; only a hash of it names the pace in Redis. */
  apiKey: string;
  sleep?: (ms: number) => Promise<void>;
}

export function redisSpacingGate(opts: RedisSpacingGateOptions): SpacingGate {
  // A tenth slower than the plan: the service counts calls per second as they arrive, and a
  // call delayed on its way would otherwise land beside the next one in the same second.
  const interval = Math.ceil(1100 / opts.rps);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const key = `market-pace:${createHash("sha256").update(opts.apiKey).digest("base64url").slice(0, 16)}`;
  return {
    shared: true,
    async turn() {
      if (!opts.redis.isUp()) return;
      let waitMs: number;
      try {
        waitMs = Number(await opts.redis.client.eval(RESERVE, 1, key, interval));
      } catch {
        return;
      }
      if (waitMs > 0) await sleep(waitMs);
    },
  };
}
