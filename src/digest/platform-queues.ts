/**
 * The digest delivery queues as the bot ships them, one per platform. The bot and the fan-out
 * benchmark both build their queues here, so the benchmark measures the settings that ship.
 */
import type { Logger } from "pino";
import { TELEGRAM_GROUP_PER_MINUTE } from "../core/budget.js";
import type { SharedRedis } from "../redis/connection.js";
import { redisPaceLedger } from "../redis/pace-ledger.js";
import type { Platform, Store } from "../store/types.js";
import { createPacedQueue, type PacedQueue } from "./paced-queue.js";
import { memoryPaceLedger, MINUTE, type PaceLedger, type PaceOptions, type PastSend } from "./pace-ledger.js";

/**
 * Telegram digest messages a minute to one chat: 20. Telegram refuses a group more than about
 * 20 messages a minute with 429, and a refused send pauses every chat's digests.
 */
export const TELEGRAM_PER_CHAT_PER_MINUTE = TELEGRAM_GROUP_PER_MINUTE;

/**
 * Telegram's least time between two messages to one chat: 1 s. Telegram asks bots for no more
 * than about one message a second in a chat and answers bursts past it with 429 sooner or later;
 * a group's backlog would otherwise go out its 20 of the minute in one second.
 */
export const TELEGRAM_PER_CHAT_SPACING_MS = 1000;

/**
 * Slots of a Telegram group's 20 a minute that scheduled posts (digests, alerts, launches, buys)
 * leave to the replies to commands: 4. A group whose buy feed filled its minute made a member's
 * /price wait 22 s for the oldest post to pass its minute; with 4 left, a reply goes at once
 * (after the second between two messages) unless the group asked 4 things that minute already.
 */
export const TELEGRAM_REPLY_RESERVE = 4;

/** Scheduled posts a Telegram group takes a minute: 16. */
export const TELEGRAM_POSTS_PER_MINUTE = TELEGRAM_PER_CHAT_PER_MINUTE - TELEGRAM_REPLY_RESERVE;

/**
 * Telegram digest sends in flight at once: 4. Enough to hide one Bot API round trip behind the
 * pace; more would only let a burst of 429s pile up before the first one pauses the queue.
 */
export const TELEGRAM_IN_FLIGHT = 4;

/**
 * Discord digest posts in flight at once: 5. discord.js paces its REST calls per route itself;
 * a post it could not make comes back as `retry` and pauses the queue.
 */
export const DISCORD_IN_FLIGHT = 5;

/**
 * Discord digest posts a second over all channels: 50, Discord's global limit per bot. One
 * process's discord.js keeps to it alone; several processes share it through Redis.
 */
export const DISCORD_GLOBAL_PER_SECOND = 50;

/**
 * Least ms between two posts to one Discord channel: 1000, its 5 posts in 5 s spread evenly.
 * discord.js (and across workers the REST gate's route books, adapters/discord/rest-gate.ts)
 * would hold a sixth post to a channel itself, but by then the post holds one of the queue's
 * sends in flight: a burst in one channel held up every other channel's posts. Spaced here, a
 * channel not due gives its turn to the next.
 */
export const DISCORD_PER_CHANNEL_SPACING_MS = 1000;

/** What a digest queue reports and, in tests, which clock it runs on. */
export interface DigestQueueHooks {
  /** Time a digest waited for the pace before it was sent (metrics). */
  onWait?: (ms: number) => void;
  /** A 429 paused the queue (metrics). */
  onRateLimited?: (afterMs: number) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Shares the pace with every process of the bot; undefined keeps it in process. */
  redis?: SharedRedis;
  /** The bot's id, naming its pace in Redis. */
  bot?: string;
}

function paced(platform: string, opts: DigestQueueHooks, pace: PaceOptions, maxInFlight: number): PacedQueue {
  const ledger = opts.redis === undefined ? undefined : redisPaceLedger({ ...pace, redis: opts.redis, scope: `${platform}:${opts.bot ?? ""}` });
  return createPacedQueue({ ...opts, ...pace, ...(ledger ? { ledger } : {}), maxInFlight });
}

/**
 * The Telegram bot's one pace: `ratePerSecond` over all chats (DIGEST_TELEGRAM_RATE), 20 a minute
 * and one a second per chat; in Redis for every worker when one is shared. Replies take their
 * slots from it as the digest queue does (adapters/telegram/reply-pace.ts), so both must be given
 * the same one. `sent`: the sends the store recorded in the minute before this process started,
 * which Telegram still counts; the process's own books start from them (Redis keeps its books
 * across processes, and takes them only while it is away).
 */
export function telegramPaceLedger(opts: Pick<DigestQueueHooks, "redis" | "bot"> & { ratePerSecond: number; sent?: readonly PastSend[] }): PaceLedger {
  const pace = {
    ratePerSecond: opts.ratePerSecond, perChatPerMinute: TELEGRAM_PER_CHAT_PER_MINUTE, perChatSpacingMs: TELEGRAM_PER_CHAT_SPACING_MS, sent: opts.sent,
  };
  return opts.redis === undefined ? memoryPaceLedger(pace) : redisPaceLedger({ ...pace, redis: opts.redis, scope: `telegram:${opts.bot ?? ""}` });
}

/**
 * The sends `store` recorded to `platform` in the last minute, which the platform still counts: a
 * process starting after a kill begins its pace's books with them. None, logged, when the store
 * cannot tell.
 */
export async function lastMinuteSends(store: Pick<Store, "recentSends">, platform: Platform, log: Logger, now = Date.now()): Promise<PastSend[]> {
  try {
    return await store.recentSends(platform, now - MINUTE);
  } catch (e) {
    log.warn({ err: e instanceof Error ? e.message : String(e), platform }, "the sends of the last minute could not be read: the pace starts from none");
    return [];
  }
}

/**
 * The Telegram digest queue: `ratePerSecond` over all chats (DIGEST_TELEGRAM_RATE), 16 of a group's
 * 20 a minute (the rest left to replies) and one a second per chat, 4 in flight; on `ledger` when
 * given (the pace the bot's replies share).
 */
export function createTelegramDigestQueue(opts: DigestQueueHooks & { ratePerSecond: number; ledger?: PaceLedger }): PacedQueue {
  return createPacedQueue({ ...opts, ledger: opts.ledger ?? telegramPaceLedger(opts), maxInFlight: TELEGRAM_IN_FLIGHT, reservePerChat: TELEGRAM_REPLY_RESERVE });
}

/**
 * The Discord digest queue: Discord's global 50 a second, one post a second per channel, 5 in
 * flight. `channelSpacingMs` is for a fake Discord whose channel window is shorter than Discord's.
 */
export function createDiscordDigestQueue(opts: DigestQueueHooks & { channelSpacingMs?: number } = {}): PacedQueue {
  const perChatSpacingMs = opts.channelSpacingMs ?? DISCORD_PER_CHANNEL_SPACING_MS;
  return paced("discord", opts, { ratePerSecond: DISCORD_GLOBAL_PER_SECOND, perChatSpacingMs }, DISCORD_IN_FLIGHT);
}
