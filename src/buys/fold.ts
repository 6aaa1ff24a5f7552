/**
 * Which of a chat's queued buys go out one by one and which fold into one summary post. A chat
 * takes only so many messages (Telegram: 20 in any minute per group, replies to commands
 * included, 4 of them kept for replies; Discord: 5 per 5 s per channel): when the queued buys need more messages than the
 * chat has left in the next two minutes, the newest that fit one slot short of them go out as
 * posts and the rest fold into one summary, so every buy is in exactly one post or summary.
 * Whales go out as posts first: a summary has no 🐳 and no media, and a whale is what the
 * chat's members wait for.
 */
import { TELEGRAM_POSTS_PER_MINUTE } from "../digest/platform-queues.js";
import type { Platform } from "../store/types.js";

/** Posts a chat takes within the two minutes a folded buy may wait (Telegram: its minute less what replies keep). */
export const SLOTS_IN_TWO_MINUTES: Readonly<Record<Platform, number>> = { telegram: 2 * TELEGRAM_POSTS_PER_MINUTE, discord: 120, console: 1_000 };

export interface FoldPlan<T> {
  /** Sent as posts of their own, oldest first. */
  posts: T[];
  /** Folded into one summary post (empty: no summary). */
  folded: T[];
}

/**
 * Splits `queued` (oldest first) for a chat with `slots` messages left: all as posts when they
 * fit; else the summary takes one slot and the rest go as posts, `first` ones (whales) before
 * others, the newest of each; posts and summary keep the order they were queued in.
 */
export function planFold<T>(queued: readonly T[], slots: number, first: (t: T) => boolean = () => false): FoldPlan<T> {
  const n = Math.max(1, Math.floor(slots));
  if (queued.length <= n) return { posts: [...queued], folded: [] };
  const own = n - 1;
  const preferred = queued.filter(first);
  const kept = new Set(preferred.slice(Math.max(0, preferred.length - own)));
  const others = queued.filter((t) => !kept.has(t));
  for (const t of others.slice(Math.max(0, others.length - (own - kept.size)))) kept.add(t);
  return { posts: queued.filter((t) => kept.has(t)), folded: queued.filter((t) => !kept.has(t)) };
}
