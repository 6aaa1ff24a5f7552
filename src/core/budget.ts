/**
 * Per-user and per-chat command budgets over a sliding window. Over budget, the first command
 * gets one polite sentence and the rest silence until the window has room again, so a flood
 * cannot turn the bot into a flood of its own.
 */
import { LRUCache } from "lru-cache";

export interface BudgetOptions {
  /** Commands one user may run per window, over all chats. Default 10. */
  perUser?: number;
  /** Commands one chat may run per window, over all its users. Default 30. */
  perChat?: number;
  /** Window length in ms. Default 60000. */
  windowMs?: number;
  /** Users and chats tracked at once; the least recent are forgotten. Default 50000. */
  maxTracked?: number;
}

/** What the budget says about one command. */
export type BudgetVerdict =
  | { kind: "ok" }
  /** Over budget and not yet told: answer once, with how long to wait. */
  | { kind: "warn"; scope: "user" | "chat"; retryInMs: number }
  /** Over budget and already told: stay silent, unless the caller must answer anyway. */
  | { kind: "silent"; scope: "user" | "chat"; retryInMs: number };

interface Track {
  times: number[];
  warned: boolean;
}

export interface Budget {
  /** Counts one command by `userId` in `chatKey` at `now` (epoch ms) and says whether it may run. */
  take(userId: string, chatKey: string, now: number): BudgetVerdict;
}

export function createBudget(opts: BudgetOptions = {}): Budget {
  const perUser = opts.perUser ?? 10;
  const perChat = opts.perChat ?? 30;
  const windowMs = opts.windowMs ?? 60_000;
  const tracks = new LRUCache<string, Track>({ max: opts.maxTracked ?? 50_000 });

  function track(key: string, now: number): Track {
    let t = tracks.get(key);
    if (t === undefined) {
      t = { times: [], warned: false };
      tracks.set(key, t);
    }
    while (t.times.length > 0 && (t.times[0] as number) <= now - windowMs) t.times.shift();
    return t;
  }

  return {
    take(userId, chatKey, now) {
      const user = track(`u:${userId}`, now);
      const chat = track(`c:${chatKey}`, now);
      const over: [Track, "user" | "chat"] | undefined =
        user.times.length >= perUser ? [user, "user"] : chat.times.length >= perChat ? [chat, "chat"] : undefined;
      // Room again means the next time the budget runs out deserves a sentence again.
      if (user.times.length < perUser) user.warned = false;
      if (chat.times.length < perChat) chat.warned = false;
      if (over === undefined) {
        user.times.push(now);
        chat.times.push(now);
        return { kind: "ok" };
      }
      const [t, scope] = over;
      const retryInMs = Math.max(0, (t.times[0] as number) + windowMs - now);
      if (t.warned) return { kind: "silent", scope, retryInMs };
      t.warned = true;
      return { kind: "warn", scope, retryInMs };
    },
  };
}
