/**
 * What a PostgreSQL store last read, per chat, to answer with while the server is lost: a
 * chat's settings, subscriptions, alerts and watchlist stay readable through an outage. It is
 * consulted when the server cannot be reached, and when it does not answer in the time a
 * person waiting allows (a hung server holds a query until its 15 s timeout); a change the
 * process makes to a chat forgets that chat's lists, so they are read afresh.
 */
import { LRUCache } from "lru-cache";
import { isStoreError, StoreError } from "../errors.js";
import type { ChatKey } from "../types.js";
import { entryBound } from "../../lru-bound.js";

/** Chats whose reads are kept: the busy ones, by recent use. */
const CACHED_ENTRIES = 40_000;
/** How long a person's read waits for the server when the chat's last answer is at hand, ms. */
const PATIENCE_MS = 500;
/** Kept of a person's time when no answer is at hand, for the reply itself, ms. */
const MARGIN_MS = 150;

const LATE = Symbol("late");

function within<T>(p: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), Math.max(0, ms))));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export interface OutageCacheOptions {
  /** The server in messages, e.g. "PostgreSQL at DATABASE_URL (db:5432/chainpulse)". */
  server: string;
  /** Ms a person still waits for the current work; undefined when nobody waits. */
  timeLeft: () => number | undefined;
}

export type CachedRead = "settings" | "subscriptions" | "alerts" | "watchlist";

const entry = (chat: ChatKey, what: CachedRead): string => `${what}\u0000${chat.platform}\u0000${chat.chatId}`;

export class OutageCache {
  private readonly entries = new LRUCache<string, { value: unknown }>(entryBound(CACHED_ENTRIES));
  /** Reads that outlived a person's wait and have not settled: while any is out, the server counts as hung. */
  private hung = 0;

  constructor(private readonly opts: OutageCacheOptions) {}

  /**
   * `read()`'s answer, remembered; while the server is unavailable, the remembered one. A person
   * waits for the server only as long as the answer deadline allows (a moment, when the last
   * answer is at hand), and not at all while an earlier read hangs.
   */
  async read<T>(chat: ChatKey, what: CachedRead, read: () => Promise<T>): Promise<T> {
    const key = entry(chat, what);
    const kept = this.entries.get(key);
    const left = this.opts.timeLeft();
    if (left !== undefined && this.hung > 0) {
      if (kept !== undefined) return kept.value as T;
      throw new StoreError("timeout", `${this.opts.server} is not answering: an earlier query is still waiting`);
    }
    const pending = read().then((value) => {
      this.entries.set(key, { value });
      return value;
    });
    try {
      const limit = left === undefined ? undefined : kept !== undefined ? Math.min(PATIENCE_MS, left) : left - MARGIN_MS;
      const outcome = limit === undefined ? await pending : await within(pending, limit);
      if (outcome !== LATE) return outcome;
      this.hung++;
      void pending.then(
        () => this.hung--,
        () => this.hung--,
      );
      if (kept !== undefined) return kept.value as T;
      throw new StoreError("timeout", `${this.opts.server} did not answer within ${Math.max(0, Math.round(limit ?? 0))} ms`);
    } catch (e) {
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
