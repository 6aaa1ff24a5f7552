/**
 * After Telegram answers 403 for a chat (blocked, kicked, no rights), the bot stops calling
 * that chat: every further call would be refused the same way, and floods of refusals are
 * what gets bots limited. An update from the chat (a message, the bot re-added or promoted)
 * lifts the block.
 *
 * The set lives in Redis when one is shared, so every process of the bot knows what one of
 * them learned; in process it is an LRU with a bound (the chat forgotten first costs one more
 * refused call, nothing else). While Redis is away the in-process set, written through all
 * along, answers.
 */
import type { Transformer } from "grammy";
import { LRUCache } from "lru-cache";
import { entryBound } from "../../lru-bound.js";
import type { SharedRedis } from "../../redis/connection.js";
import type { SendOutcome } from "../types.js";
import { classifyRefusal } from "./errors.js";

export interface ChatGuardOptions {
  /** Blocked chats remembered in process; the least recently seen go first. Default 100 000. */
  max?: number;
  /** Shared set; undefined keeps it in process. */
  redis?: SharedRedis;
  /** Whose blocks these are in Redis: the bot's id, since one Redis may serve several bots. */
  scope?: string;
}

/** How long Redis keeps a block nobody lifted: then one call finds out again. */
const SHARED_TTL_SECONDS = 30 * 24 * 60 * 60;

export class ChatGuard {
  private readonly blocked: LRUCache<string, string>;
  private readonly redis: SharedRedis | undefined;
  private readonly prefix: string;

  constructor(opts: ChatGuardOptions = {}) {
    this.blocked = new LRUCache<string, string>(entryBound(opts.max ?? 100_000));
    this.redis = opts.redis;
    this.prefix = `blocked:${opts.scope ?? "telegram"}:`;
  }

  /** An API transformer that refuses calls to blocked chats without sending them. */
  readonly transformer: Transformer = async (prev, method, payload, signal) => {
    const chatId = payload && typeof payload === "object" && "chat_id" in payload ? String(payload.chat_id) : undefined;
    const known = chatId === undefined ? undefined : await this.reason(chatId);
    if (known !== undefined) return { ok: false, error_code: 403, description: known };
    const res = await prev(method, payload, signal);
    if (!res.ok && res.error_code === 403 && chatId !== undefined) this.block(chatId, res.description);
    return res;
  };

  /** Why calls to `chatId` are withheld, as a send outcome; `undefined` when they are not. */
  async outcome(chatId: string): Promise<SendOutcome | undefined> {
    const description = await this.reason(chatId);
    return description === undefined ? undefined : classifyRefusal(403, description);
  }

  /** Marks the chat as refusing us (e.g. `my_chat_member` says the bot was removed). */
  block(chatId: string, description: string): void {
    this.blocked.set(chatId, description);
    this.shared((r) => r.client.set(this.prefix + chatId, description, "EX", SHARED_TTL_SECONDS));
  }

  /** The chat spoke to us again: calls may go through. */
  lift(chatId: string): void {
    this.blocked.delete(chatId);
    this.shared((r) => r.client.del(this.prefix + chatId));
  }

  /** Chats remembered in process (tests, the bound). */
  get size(): number {
    return this.blocked.size;
  }

  /** The refusal on record for `chatId`: Redis's when it answers, else this process's. */
  private async reason(chatId: string): Promise<string | undefined> {
    if (this.redis?.isUp()) {
      try {
        return (await this.redis.client.get(this.prefix + chatId)) ?? undefined;
      } catch {
        // The connection logs the outage once; this process's set answers meanwhile.
      }
    }
    return this.blocked.get(chatId);
  }

  /** A write to the shared set; a failure leaves the in-process set to answer. */
  private shared(write: (r: SharedRedis) => Promise<unknown>): void {
    if (this.redis?.isUp()) void write(this.redis).catch(() => undefined);
  }
}
