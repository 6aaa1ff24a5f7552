/**
 * Who may change a chat's settings: its creator and administrators, asked through
 * `getChatMember` and remembered briefly so that a burst of settings commands costs one call.
 */
import type { Api } from "grammy";
import type { Chat } from "grammy/types";
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import { describeError } from "./errors.js";
import { entryBound } from "../../lru-bound.js";

/** Telegram's account that speaks for anonymous group admins. */
const GROUP_ANONYMOUS_BOT = 1087968824;

export interface AdminCheckOptions {
  /** How long an answer is remembered. Default 60 000 ms. */
  ttlMs?: number;
  /** Clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  log: Logger;
}

export class AdminCheck {
  private readonly cache: LRUCache<string, boolean, { chatId: number; userId: number }>;

  constructor(api: Api, opts: AdminCheckOptions) {
    const now = opts.now ?? Date.now;
    this.cache = new LRUCache<string, boolean, { chatId: number; userId: number }>({
      ...entryBound(10_000),
      ttl: opts.ttlMs ?? 60_000,
      perf: { now },
      fetchMethod: async (_key, _stale, { context }) => {
        try {
          const member = await api.getChatMember(context.chatId, context.userId);
          return member.status === "creator" || member.status === "administrator";
        } catch (e) {
          // Not remembered: the next question asks again.
          opts.log.warn({ err: describeError(e), chatId: context.chatId }, "telegram admin check failed");
          return undefined;
        }
      },
    });
  }

  /**
   * Whether `userId` administers `chat`. Private chats belong to their user; a message an
   * anonymous admin sends on behalf of the group (`senderChatId` = the chat) is an admin's.
   * A failed lookup answers false.
   */
  async isAdmin(chat: Pick<Chat, "id" | "type">, userId: number, senderChatId?: number): Promise<boolean> {
    if (chat.type === "private") return true;
    if (userId === GROUP_ANONYMOUS_BOT && senderChatId === chat.id) return true;
    const answer = await this.cache.fetch(`${chat.id}:${userId}`, { context: { chatId: chat.id, userId } });
    return answer ?? false;
  }

  /** Drops what is known about a chat's members (the bot left it, or it moved). */
  forgetChat(chatId: number): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${chatId}:`)) this.cache.delete(key);
  }
}
