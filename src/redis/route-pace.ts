/**
 * Discord's limits per route kept in Redis, so that every worker of one bot counts its requests
 * on a route (a channel's posts) together: one script takes a turn atomically (a spent route's
 * hold first, then the route's window under the limit learned from Discord's headers, or the
 * route's default before the first answer), another records an answer and what it taught. While
 * Redis is away the process's own books take over, and Redis is used again once it answers.
 */
import { randomBytes } from "node:crypto";
import { IN_FLIGHT_MS, IN_FLIGHT_RETRY_MS, memoryRoutePace, ROUTE_DEFAULTS, type RouteAnswer, type RoutePace, type RouteSlot } from "../adapters/discord/route-pace.js";
import type { SharedRedis } from "./connection.js";

export interface RedisRoutePaceOptions {
  redis: SharedRedis;
  /** Whose routes these are: the bot's application id (one Redis may serve several bots). */
  scope: string;
}

/** Learned limits outlive a quiet day: Discord changes them rarely. */
const LEARNED_MS = 86_400_000;

/**
 * KEYS[1] learned limits (hash: kind → "limit window"), KEYS[2] the route's window (sorted set of
 * stamps by time: a turn in flight scored `IN_FLIGHT_MS` ahead, until its answer), KEYS[3] the
 * route's hold (epoch ms). ARGV: t, kind, default limit (0: none), default window, stamp, in
 * flight ms, retry ms. Returns {1, 0} counted, {0, 0} not counted (no limit known), {-1, wait}.
 */
const TAKE = `
local t = tonumber(ARGV[1])
local hold = tonumber(redis.call('GET', KEYS[3]) or '0')
if hold > t then return {-1, math.ceil(hold - t)} end
local limit = tonumber(ARGV[3])
local win = tonumber(ARGV[4])
local learned = redis.call('HGET', KEYS[1], ARGV[2])
if learned then
  local sep = string.find(learned, ' ')
  limit = tonumber(string.sub(learned, 1, sep - 1))
  win = tonumber(string.sub(learned, sep + 1))
end
if limit <= 0 then return {0, 0} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', t - win)
local flight = tonumber(ARGV[6])
if redis.call('ZCARD', KEYS[2]) < limit then
  redis.call('ZADD', KEYS[2], t + flight, ARGV[5])
  redis.call('PEXPIRE', KEYS[2], win * 2 + flight + 60000)
  return {1, 0}
end
local oldest = tonumber(redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2])
if oldest > t then return {-1, tonumber(ARGV[7])} end
return {-1, math.max(math.ceil(oldest + win - t), 1)}
`;

/**
 * Same KEYS. ARGV: at, kind, stamp ('' when not counted), the bucket's limit (0: the headers said
 * nothing), remaining, reset-after ms, the kind's default window, hold until (0: none), learned TTL.
 * The window is learned as learnLimit (route-pace.ts) does it; a hold is only ever lengthened.
 */
const ANSWERED = `
local at = tonumber(ARGV[1])
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], 'XX', at, ARGV[3]) end
local limit = tonumber(ARGV[4])
if limit > 0 then
  local remaining = tonumber(ARGV[5])
  local reset = math.ceil(tonumber(ARGV[6]))
  local known = tonumber(ARGV[7])
  local learned = redis.call('HGET', KEYS[1], ARGV[2])
  if learned then known = tonumber(string.sub(learned, string.find(learned, ' ') + 1)) end
  local win = reset
  if remaining ~= limit - 1 then win = math.max(known, reset) end
  redis.call('HSET', KEYS[1], ARGV[2], limit .. ' ' .. win)
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[9]))
end
local hold = tonumber(ARGV[8])
if hold > at and hold > tonumber(redis.call('GET', KEYS[3]) or '0') then
  redis.call('SET', KEYS[3], ARGV[8], 'PX', math.ceil(hold - at))
end
return 0
`;

export function redisRoutePace(opts: RedisRoutePaceOptions): RoutePace {
  const { redis } = opts;
  const local = memoryRoutePace();
  const keys = (key: string): string[] => [`rpace:${opts.scope}:limits`, `rpace:${opts.scope}:w:${key}`, `rpace:${opts.scope}:h:${key}`];
  // Stamps name one request across every process.
  const origin = randomBytes(6).toString("base64url");
  let seq = 0;

  return {
    async take(route, t): Promise<RouteSlot> {
      if (redis.isUp()) {
        const stamp = `r${origin}.${(seq += 1)}`;
        const known = ROUTE_DEFAULTS.get(route.kind);
        try {
          const [counted, waitMs] = (await redis.client.eval(TAKE, 3, ...keys(route.key), t, route.kind, known?.limit ?? 0, known?.windowMs ?? 0, stamp, IN_FLIGHT_MS, IN_FLIGHT_RETRY_MS)) as [number, number];
          return counted < 0 ? { waitMs } : { stamp: counted > 0 ? stamp : undefined };
        } catch {
          // The connection logs the outage once; this process's books stand in meanwhile.
        }
      }
      return local.take(route, t);
    },
    async answered(route, stamp, answer: RouteAnswer) {
      // The process's books learn too, to stand in well informed while Redis is away.
      await local.answered(route, stamp, answer);
      if (!redis.isUp()) return;
      const b = answer.bucket;
      await redis.client
        .eval(
          ANSWERED,
          3,
          ...keys(route.key),
          answer.at,
          route.kind,
          stamp?.startsWith("r") ? stamp : "",
          b?.limit ?? 0,
          b?.remaining ?? 0,
          b?.resetAfterMs ?? 0,
          ROUTE_DEFAULTS.get(route.kind)?.windowMs ?? 0,
          answer.holdUntil ?? 0,
          LEARNED_MS,
        )
        .catch(() => undefined);
    },
  };
}
