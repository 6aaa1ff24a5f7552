import type { Reply } from "../core/reply.js";
import type { Platform } from "../store/types.js";

/** What became of one delivery of a post (digest) to a chat. */
export type SendOutcome =
  | { kind: "delivered" }
  /** The bot was removed or the chat no longer exists: drop the subscription. */
  | { kind: "gone"; reason: string }
  /** A Telegram group became a supergroup: move the subscription and send again. */
  | { kind: "moved"; toChatId: string }
  /**
   * Try again after `afterMs`: rate limited, or, with a `reason`, the platform could not be
   * reached or failed on its side (5xx), so the post may not have been made. `scope: "chat"`:
   * the limit is this chat's alone (a Discord channel's route), so other chats need not wait.
   */
  | { kind: "retry"; afterMs: number; reason?: string; scope?: "chat" }
  /** The bot may not post here (missing rights): keep the subscription, pause it. */
  | { kind: "forbidden"; reason: string }
  | { kind: "failed"; reason: string };

/**
 * A post with every check and wait of its send done: either the outcome known without sending
 * (a chat that refuses the bot), or `send()`, which puts the request on the wire without
 * awaiting anything first.
 */
export type PreparedSend = { outcome: SendOutcome } | { send(): Promise<SendOutcome> };

/** A running platform connection. */
export interface PlatformAdapter {
  readonly platform: Platform;
  start(): Promise<void>;
  /** Stop taking input, finish the work in hand. */
  stop(): Promise<void>;
  /** Connected and taking updates. */
  isReady(): boolean;
  /** Post a reply to a chat unprompted (digests). Never rejects. */
  send(chatId: string, reply: Reply): Promise<SendOutcome>;
  /**
   * `send` in two steps, for the digest poster: it claims the delivery row between them, so
   * that a crash after the claim finds the request already sent (Telegram has no idempotency
   * key to make a resend safe). Adapters without it are sent with `send` right after the claim.
   */
  prepareSend?(chatId: string, reply: Reply): Promise<PreparedSend>;
}
