/**
 * Which of a chat's queued buys go out one by one and which fold into one summary post. A chat
 * takes only so many messages (Telegram: 20 in any minute per group, replies to commands
 * included, 4 of them kept for replies; Discord: 5 per 5 s per channel): when the queued buys need more messages than the
 * chat has left in the next two minutes, the newest that fit one slot short of them go out as
 * posts and the rest fold into one summary, so every buy is in exactly one post or summary.
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
 * fit; else the summary takes one slot and the oldest buys, the newest `slots - 1` go as posts.
 */
export function planFold<T>(queued: readonly T[], slots: number): FoldPlan<T> {
  const n = Math.max(1, Math.floor(slots));
  if (queued.length <= n) return { posts: [...queued], folded: [] };
  const own = n - 1;
  return { posts: queued.slice(queued.length - own), folded: queued.slice(0, queued.length - own) };
}
