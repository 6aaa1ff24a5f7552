/**
 * The digest delivery queues as the bot ships them, one per platform. The bot and the fan-out
 * benchmark both build their queues here, so the benchmark measures the settings that ship.
 */
import { createPacedQueue, type PacedQueue } from "./paced-queue.js";

/**
 * Telegram digest messages a minute to one chat: 20. Telegram refuses a group more than about
 * 20 messages a minute with 429, and a refused send pauses every chat's digests.
 */
export const TELEGRAM_PER_CHAT_PER_MINUTE = 20;

/**
 * Telegram digest sends in flight at once: 4. Enough to hide one Bot API round trip behind the
 * pace; more would only let a burst of 429s pile up before the first one pauses the queue.
 */
export const TELEGRAM_IN_FLIGHT = 4;

/**
 * Discord digest posts in flight at once: 5. discord.js paces its REST calls per route itself,
 * so the queue sets no global rate; a post it could not make comes back as `retry` and pauses the queue.
 */
export const DISCORD_IN_FLIGHT = 5;

/** What a digest queue reports and, in tests, which clock it runs on. */
export interface DigestQueueHooks {
  /** Time a digest waited for the pace before it was sent (metrics). */
  onWait?: (ms: number) => void;
  /** A 429 paused the queue (metrics). */
  onRateLimited?: (afterMs: number) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The Telegram digest queue: `ratePerSecond` over all chats (DIGEST_TELEGRAM_RATE), 20 a minute per chat, 4 in flight. */
export function createTelegramDigestQueue(opts: DigestQueueHooks & { ratePerSecond: number }): PacedQueue {
  return createPacedQueue({ ...opts, perChatPerMinute: TELEGRAM_PER_CHAT_PER_MINUTE, maxInFlight: TELEGRAM_IN_FLIGHT });
}

/** The Discord digest queue: no global pace of its own (discord.js has one), 5 in flight. */
export function createDiscordDigestQueue(opts: DigestQueueHooks = {}): PacedQueue {
  return createPacedQueue({ ...opts, maxInFlight: DISCORD_IN_FLIGHT });
}
