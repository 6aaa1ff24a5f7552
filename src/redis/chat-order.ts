/**
 * A chat's reply tickets (adapters/telegram/chat-order.ts) in Redis, so that the workers answering
 * one chat's updates keep its order together: per chat, a sorted set of the updates holding a
 * ticket, scored by when each ticket lapses unless renewed. While Redis is away each worker keeps
 * its own tickets, and its order holds within the process.
 */
import { memoryChatOrder, TICKET_MS, TURN_POLL_MS, type ChatOrder } from "../adapters/telegram/chat-order.js";
import type { SharedRedis } from "./connection.js";

export interface RedisChatOrderOptions {
  redis: SharedRedis;
  /** Whose chats: the bot's id (one Redis may serve several bots). */
  scope: string;
  now?: () => number;
  pollMs?: number;
}

/** KEYS[1] the chat's tickets; ARGV: now, update id. 1 when a ticket of an earlier update is alive. */
const EARLIER = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local mine = tonumber(ARGV[2])
for _, u in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if tonumber(u) < mine then return 1 end
end
return 0
`;

export function redisChatOrder(opts: RedisChatOrderOptions): ChatOrder {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const pollMs = opts.pollMs ?? TURN_POLL_MS;
  const local = memoryChatOrder({ pollMs });
  const key = (chatId: string) => `order:${opts.scope}:${chatId}`;

  const ticket = (chatId: string, updateId: number): Promise<unknown> =>
    redis.client.multi().zadd(key(chatId), now() + TICKET_MS, String(updateId)).pexpire(key(chatId), TICKET_MS * 2).exec();

  /** Whether an earlier update of the chat holds a ticket; undefined when Redis cannot say. */
  const earlier = async (chatId: string, updateId: number): Promise<boolean | undefined> => {
    if (!redis.isUp()) return undefined;
    try {
      return (await redis.client.eval(EARLIER, 1, key(chatId), now(), updateId)) === 1;
    } catch {
      return undefined;
    }
  };

  return {
    async hold(chatId, updateId) {
      const releaseLocal = await local.hold(chatId, updateId);
      let shared = false;
      if (redis.isUp()) {
        try {
          await ticket(chatId, updateId);
          shared = true;
        } catch {
          // The connection logs the outage once; the ticket holds in this process.
        }
      }
      // Renewed while held: a reply may wait longer than a ticket lives for the chat's pace.
      const renew = shared ? setInterval(() => void ticket(chatId, updateId).catch(() => undefined), TICKET_MS / 3) : undefined;
      renew?.unref();
      return async () => {
        clearInterval(renew);
        await releaseLocal();
        if (shared && redis.isUp()) await redis.client.zrem(key(chatId), String(updateId)).catch(() => undefined);
      };
    },
    async turn(chatId, updateId) {
      await local.turn(chatId, updateId);
      while ((await earlier(chatId, updateId)) === true) await new Promise((r) => setTimeout(r, pollMs));
    },
  };
}
