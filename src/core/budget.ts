/**
 * Per-user and per-chat command budgets over fixed windows of the clock. Over budget, the
 * first command gets one polite sentence and the rest silence until the next window, so a
 * flood cannot turn the bot into a flood of its own.
 *
 * The counting is rate-limiter-flexible's: in process by default, in Redis when one is shared
 * (every process of the bot then counts against the same budget), with the in-process counter
 * standing in while Redis is away.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { SharedRedis } from "../redis/connection.js";

/**
 * Messages Telegram takes in one group a minute: about 20. Past that it answers 429, and a
 * refused reply is one a person never reads.
 */
export const TELEGRAM_GROUP_PER_MINUTE = 20;

/**
 * Commands a Telegram group may run a minute: one less than Telegram takes, so that the
 * budget's sentence, the 20th message, is taken too.
 */
export const TELEGRAM_GROUP_COMMANDS_PER_MINUTE = TELEGRAM_GROUP_PER_MINUTE - 1;

export interface BudgetOptions {
  /** Commands one user may run per window, over all chats. Default 10. */
  perUser?: number;
  /** Commands one chat may run per window, over all its users. Default 30. */
  perChat?: number;
  /** The same for a Telegram group, which takes about 20 messages a minute. Default 19: the 20th is the budget's sentence. */
  perTelegramGroup?: number;
  /** Window length in ms. Default 60000. */
  windowMs?: number;
  /** Shared counters; undefined counts in process. */
  redis?: SharedRedis;
}

/** What the budget says about one command. */
export type BudgetVerdict =
  | { kind: "ok" }
  /** Over budget and not yet told: answer once, with how long to wait. */
  | { kind: "warn"; scope: "user" | "chat"; retryInMs: number }
  /** Over budget and already told: stay silent, unless the caller must answer anyway. */
  | { kind: "silent"; scope: "user" | "chat"; retryInMs: number };

export interface Budget {
  /**
   * Counts one command by `userId` in `chatKey` at `now` (epoch ms) and says whether it may
   * run; a `telegramGroup` has the lower budget of `perTelegramGroup` (what Telegram takes).
   * `quiet`: the caller tells nobody of a refusal (an inline query, an unasked paste), so a
   * refused one is not counted and the warning stays for the next command.
   */
  take(userId: string, chatKey: string, now: number, telegramGroup?: boolean, quiet?: boolean): Promise<BudgetVerdict>;
}

function limiter(points: number, durationSec: number, keyPrefix: string, redis: SharedRedis | undefined): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ points, duration: durationSec, keyPrefix });
  if (redis === undefined) return memory;
  return new RateLimiterRedis({
    storeClient: redis.client,
    points,
    duration: durationSec,
    keyPrefix,
    // Redis away: count in process at once rather than wait for a reconnect.
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** Points consumed in the window after this take, or the error that was not a refusal. */
async function consume(l: RateLimiterAbstract, key: string): Promise<number> {
  try {
    return (await l.consume(key)).consumedPoints;
  } catch (e) {
    if (e instanceof RateLimiterRes) return e.consumedPoints;
    throw e;
  }
}

export function createBudget(opts: BudgetOptions = {}): Budget {
  const perUser = opts.perUser ?? 10;
  const perChat = opts.perChat ?? 30;
  const perTelegramGroup = Math.min(perChat, opts.perTelegramGroup ?? TELEGRAM_GROUP_COMMANDS_PER_MINUTE);
  const windowMs = opts.windowMs ?? 60_000;
  // The window is read from the caller's clock (the key names it); the store's expiry only
  // clears counters of windows gone by.
  const keepSec = Math.max(1, Math.ceil(windowMs / 1000));
  const users = limiter(perUser, keepSec, "budget:user", opts.redis);
  const chats = limiter(perChat, keepSec, "budget:chat", opts.redis);

  return {
    async take(userId, chatKey, now, telegramGroup = false, quiet = false) {
      const chatMax = telegramGroup ? perTelegramGroup : perChat;
      const window = Math.floor(now / windowMs);
      const retryInMs = (window + 1) * windowMs - now;
      // The user and chat ids are opaque to the store: JSON keeps a ":" in one from reading as another key.
      const userKey = JSON.stringify([window, userId]);
      const user = await consume(users, userKey);
      if (user > perUser) {
        if (quiet) await users.reward(userKey).catch(() => undefined);
        return { kind: user === perUser + 1 ? "warn" : "silent", scope: "user", retryInMs };
      }
      const chatWindowKey = JSON.stringify([window, chatKey]);
      const chat = await consume(chats, chatWindowKey);
      if (chat > chatMax) {
        // A command the chat refused was not run: it does not count against the user.
        await users.reward(userKey).catch(() => undefined);
        if (quiet) await chats.reward(chatWindowKey).catch(() => undefined);
        return { kind: chat === chatMax + 1 ? "warn" : "silent", scope: "chat", retryInMs };
      }
      return { kind: "ok" };
    },
  };
}
