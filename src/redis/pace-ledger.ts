/**
 * The platform's pace kept in Redis, so that every process sending for one bot shares
 * Telegram's ~30 messages a second, 20 a minute per group and about one a second per chat (or
 * Discord's global rate): one script takes a slot atomically — the global spacing and a 429's
 * pause first, then the first candidate chat whose minute has room and whose last message is
 * far enough behind. While Redis is away the process's own ledger takes over, and Redis is used
 * again once it answers.
 */
import { randomBytes } from "node:crypto";
import { memoryPaceLedger, MINUTE, spacingMs, type PaceLedger, type PaceOptions, type PaceSlot, type PastSend } from "../digest/pace-ledger.js";
import type { SharedRedis } from "./connection.js";

export interface RedisPaceOptions extends PaceOptions {
  redis: SharedRedis;
  /** Whose pace this is: the platform and the bot's id (one Redis may serve several bots). */
  scope: string;
  /** Sends made before this process started, for its own books that stand in while Redis is away. */
  sent?: readonly PastSend[];
}

/**
 * KEYS[1] the gate (hash: next, paused), KEYS[2..n+1] the n candidates' windows (sorted sets of
 * stamps by time; a reply's stamp has `.q`), KEYS[n+2..2n+1] their holds (until when a reply
 * waits for the chat); ARGV[6] the least ms between two messages to one chat, from the newest in
 * its window; ARGV[7] the slots of a chat's minute this send leaves to others (more than 0: a
 * post, which a hold keeps out and which leaves one more for each reply in the window).
 */
const TAKE = `
local t = tonumber(ARGV[1])
local spacing = tonumber(ARGV[2])
local per = tonumber(ARGV[3])
local win = tonumber(ARGV[4])
local apart = tonumber(ARGV[6])
local reserve = tonumber(ARGV[7])
local n = (#KEYS - 1) / 2
local gate = redis.call('HMGET', KEYS[1], 'next', 'paused')
local nextAt = tonumber(gate[1] or '0')
local paused = tonumber(gate[2] or '0')
local held = math.max(nextAt, paused) - t
if held > 0 then return {-1, math.ceil(held)} end
local soonest = -1
local booked = per > 0 or apart > 0
for i = 2, n + 1 do
  local w = 0
  if reserve > 0 then
    local held = tonumber(redis.call('GET', KEYS[i + n]) or '0') - t
    if held > 0 then w = held end
  end
  if booked then
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', t - win)
    local count = redis.call('ZCARD', KEYS[i])
    local answered = 0
    if reserve > 0 and per > 0 then
      for _, m in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
        if string.find(m, '.q', 1, true) then answered = answered + 1 end
      end
    end
    local limit = math.max(1, per - reserve - answered)
    if per > 0 and count >= limit then
      local freeing = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
      w = tonumber(freeing[2]) + win - t
    end
    if apart > 0 then
      local newest = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
      if newest[2] then w = math.max(w, tonumber(newest[2]) + apart - t) end
    end
  end
  if w > 0 then
    if soonest < 0 or w < soonest then soonest = w end
  else
    if booked then
      redis.call('ZADD', KEYS[i], t, ARGV[5])
      redis.call('PEXPIRE', KEYS[i], win * 2)
    end
    redis.call('HSET', KEYS[1], 'next', tostring(math.max(t, nextAt) + spacing))
    redis.call('PEXPIRE', KEYS[1], 3600000)
    return {i - 2, 0}
  end
end
return {-1, math.max(math.ceil(soonest), 0)}
`;

/** KEYS[1] the gate; ARGV[1] the pause's end. A pause is only ever lengthened. */
const PAUSE = `
local paused = tonumber(redis.call('HGET', KEYS[1], 'paused') or '0')
if tonumber(ARGV[1]) > paused then
  redis.call('HSET', KEYS[1], 'paused', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], 3600000)
end
return 0
`;

/**
 * KEYS[1] a chat's hold; ARGV[1] until when (0 lifts it). The key outlives any hold a reply
 * keeps (a few seconds): it only cleans up after a process that died holding it.
 */
const HOLD = `
if tonumber(ARGV[1]) <= 0 then return redis.call('DEL', KEYS[1]) end
return redis.call('SET', KEYS[1], ARGV[1], 'PX', 60000)
`;

/** KEYS[1] a chat's window; the stamp counts from its answer. Gone (expired) stamps stay gone. */
const ANSWERED = "return redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])";

export function redisPaceLedger(opts: RedisPaceOptions): PaceLedger {
  const { redis } = opts;
  const local = memoryPaceLedger(opts);
  const spacing = spacingMs(opts);
  const perChat = opts.perChatPerMinute ?? 0;
  const apart = opts.perChatSpacingMs ?? 0;
  const gateKey = `pace:${opts.scope}:gate`;
  const chatKey = (chatId: string) => `pace:${opts.scope}:chat:${chatId}`;
  const holdKey = (chatId: string) => `pace:${opts.scope}:hold:${chatId}`;
  // Stamps name one send across every process.
  const origin = randomBytes(6).toString("base64url");
  let seq = 0;

  return {
    async take(chatIds, t, reserve = 0): Promise<PaceSlot> {
      if (redis.isUp()) {
        // A reply's stamp says so: posts leave a chat one more slot of its minute for each (`.q`).
        const stamp = `r${origin}.${reserve === 0 ? "q" : ""}${(seq += 1)}`;
        try {
          const keys = [gateKey, ...chatIds.map(chatKey), ...chatIds.map(holdKey)];
          const [index, waitMs] = (await redis.client.eval(TAKE, keys.length, ...keys, t, spacing, perChat, MINUTE, stamp, apart, reserve)) as [number, number];
          return index >= 0 ? { index, stamp } : { waitMs };
        } catch {
          // The connection logs the outage once; this process's books stand in meanwhile.
        }
      }
      return local.take(chatIds, t, reserve);
    },
    async answered(chatId, stamp, at) {
      if (!stamp.startsWith("r")) return local.answered(chatId, stamp, at);
      if (!redis.isUp()) return;
      await redis.client.eval(ANSWERED, 1, chatKey(chatId), at, stamp).catch(() => undefined);
    },
    async pause(until) {
      // Both books: Redis may be gone by the next take.
      await local.pause(until);
      if (redis.isUp()) await redis.client.eval(PAUSE, 1, gateKey, until).catch(() => undefined);
    },
    async hold(chatId, until) {
      await local.hold(chatId, until);
      if (redis.isUp()) await redis.client.eval(HOLD, 1, holdKey(chatId), until).catch(() => undefined);
    },
  };
}
