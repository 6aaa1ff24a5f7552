import type { Reply } from "../core/reply.js";
import type { Platform } from "../store/types.js";

/** What became of one delivery of a post (digest) to a chat. */
export type SendOutcome =
  | { kind: "delivered" }
  /** The bot was removed or the chat no longer exists: drop the subscription. */
  | { kind: "gone"; reason: string }
  /** A Telegram group became a supergroup: move the subscription and send again. */
  | { kind: "moved"; toChatId: string }
  /** Rate limited: try again after `afterMs`. */
  | { kind: "retry"; afterMs: number }
  /** The bot may not post here (missing rights): keep the subscription, pause it. */
  | { kind: "forbidden"; reason: string }
  | { kind: "failed"; reason: string };

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
}
