/**
 * Posting to a channel unprompted (digests) and sorting what went wrong, as
 * @discordjs/rest's `Shared.ts` sorts 5xx / 4xx / 429: the poster drops gone channels at the
 * first refusal (Discord bans IPs that keep hitting them), pauses forbidden ones, waits out
 * rate limits.
 */
import { DiscordAPIError, HTTPError, RateLimitError, Routes, type REST } from "discord.js";
import type { SendOutcome } from "../types.js";
import { causeCode, UNREACHABLE_RETRY_MS } from "../unreachable.js";
import { restMessage, type DiscordMessage } from "./message.js";

/** Discord error codes that mean the channel is gone for this bot: Unknown Channel, Unknown Guild. */
export const GONE_CODES: ReadonlySet<number> = new Set([10003, 10004]);
/**
 * Missing Access: the bot cannot see the channel. Either it is no longer in the server (gone),
 * or an admin took View Channel away from it, which they may give back: that channel is paused
 * like one where the bot may not post, never dropped with its settings.
 */
export const MISSING_ACCESS_CODE = 50001;
/** Missing Permissions: the channel is there but the bot may not post. */
export const FORBIDDEN_CODE = 50013;
/** Wait this long on a 429 that names no delay. */
const DEFAULT_RETRY_MS = 1000;
/** A system error of a request that found no connection: never a bug's code, which must not be retried. */
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

/**
 * The outcome of a failed post. Never includes the token: errors carry method, URL and code only.
 * `inServer`: the channel is one of a server the bot is still in, as the gateway told it.
 */
export function classifySendError(err: unknown, inServer = false): SendOutcome {
  if (err instanceof RateLimitError) {
    const afterMs = err.retryAfter > 0 ? err.retryAfter : err.timeToReset;
    // A route's limit (the channel's posts) holds that channel only; the global one, every post.
    return { kind: "retry", afterMs: afterMs > 0 ? afterMs : DEFAULT_RETRY_MS, ...(err.global ? {} : { scope: "chat" as const }) };
  }
  if (err instanceof DiscordAPIError) {
    const reason = `${err.status} ${String(err.code)} ${err.message}`;
    if (typeof err.code === "number" && GONE_CODES.has(err.code)) return { kind: "gone", reason };
    if (err.code === MISSING_ACCESS_CODE) return { kind: inServer ? "forbidden" : "gone", reason };
    if (err.code === FORBIDDEN_CODE) return { kind: "forbidden", reason };
    if (err.status === 429) return { kind: "retry", afterMs: DEFAULT_RETRY_MS };
    if (err.status >= 500) return { kind: "retry", afterMs: UNREACHABLE_RETRY_MS, reason };
    return { kind: "failed", reason };
  }
  if (err instanceof HTTPError) {
    if (err.status === 429) return { kind: "retry", afterMs: DEFAULT_RETRY_MS };
    const reason = `${err.status} ${err.message}`;
    return err.status >= 500 ? { kind: "retry", afterMs: UNREACHABLE_RETRY_MS, reason } : { kind: "failed", reason };
  }
  // A request that timed out or found no connection, once @discordjs/rest's own retries are
  // spent: it throws the fetch's own error.
  const network = causeCode(err, NETWORK_CODE);
  if (err instanceof Error && (err.name === "AbortError" || network !== undefined)) {
    return { kind: "retry", afterMs: UNREACHABLE_RETRY_MS, reason: network ?? err.name };
  }
  return { kind: "failed", reason: err instanceof Error ? err.message : String(err) };
}

/**
 * Whether a channel's server still has the bot, asked on a Missing Access: true or false, or
 * undefined when it could not be told (the post is tried again, nothing is dropped).
 */
export type InServer = (channelId: string) => Promise<boolean | undefined>;

/** Posts a rendered message to a channel through raw REST; never rejects. */
export async function postToChannel(rest: REST, channelId: string, message: DiscordMessage, inServer: InServer = async () => false): Promise<SendOutcome> {
  if (!/^\d{1,25}$/.test(channelId)) return { kind: "gone", reason: "not a Discord channel id" };
  const { body, files } = restMessage(message);
  try {
    await rest.post(Routes.channelMessages(channelId), { body, files });
    return { kind: "delivered" };
  } catch (err) {
    if (!(err instanceof DiscordAPIError && err.code === MISSING_ACCESS_CODE)) return classifySendError(err);
    const member = await inServer(channelId);
    if (member === undefined) {
      return { kind: "retry", afterMs: UNREACHABLE_RETRY_MS, scope: "chat", reason: `${err.status} ${String(err.code)} ${err.message}; not known whether the bot is still in the server` };
    }
    return classifySendError(err, member);
  }
}

/**
 * For `rest.rejectOnRateLimit`: channel posts fail fast with a RateLimitError instead of
 * queueing, so that the poster paces the whole digest; everything else waits as usual.
 */
export function rejectChannelPostsOnRateLimit(info: { method: string; route: string }): boolean {
  return info.method.toUpperCase() === "POST" && /^\/channels\/[^/]+\/messages$/.test(info.route);
}
