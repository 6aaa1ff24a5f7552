/**
 * What a PostgreSQL store last read, per chat, to answer with while the server is lost: a
 * chat's settings, subscriptions, alerts and watchlist stay readable through an outage. It is
 * consulted only when the server cannot be reached; a change the process makes to a chat
 * forgets that chat's lists, so they are read afresh.
 */
import { LRUCache } from "lru-cache";
import { isStoreError } from "./errors.js";
import type { ChatKey } from "./types.js";

/** Chats whose reads are kept: the busy ones, by recent use. */
const CACHED_ENTRIES = 40_000;

export type CachedRead = "settings" | "subscriptions" | "alerts" | "watchlist";

const entry = (chat: ChatKey, what: CachedRead): string => `${what}\u0000${chat.platform}\u0000${chat.chatId}`;

export class OutageCache {
  private readonly entries = new LRUCache<string, { value: unknown }>({ max: CACHED_ENTRIES });

  /** `read()`'s answer, remembered; while the server is unavailable, the remembered one. */
  async read<T>(chat: ChatKey, what: CachedRead, read: () => Promise<T>): Promise<T> {
    try {
      const value = await read();
      this.entries.set(entry(chat, what), { value });
      return value;
    } catch (e) {
      const kept = this.entries.get(entry(chat, what));
      if (kept !== undefined && isStoreError(e) && e.kind === "unavailable") return kept.value as T;
      throw e;
    }
  }

  /** Remembers `value` as the chat's current answer (after a write that returned it). */
  set(chat: ChatKey, what: CachedRead, value: unknown): void {
    this.entries.set(entry(chat, what), { value });
  }

  /** Forgets what was read of the chat, all of it or one kind. */
  forget(chat: ChatKey, what?: CachedRead): void {
    for (const kind of what === undefined ? (["settings", "subscriptions", "alerts", "watchlist"] as const) : [what]) {
      this.entries.delete(entry(chat, kind));
    }
  }

  /** Runs a write about one chat and forgets that chat's `what` when it succeeded. */
  async change<T>(chat: ChatKey, what: CachedRead, write: () => Promise<T>): Promise<T> {
    const result = await write();
    this.forget(chat, what);
    return result;
  }
}
