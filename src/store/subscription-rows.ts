/** A `subscriptions` row as both engines return it, and the Subscription it stands for. */
import type { Subscription } from "./types.js";

export interface SubscriptionRow {
  id: number;
  platform: string;
  chat_id: string;
  chain: string;
  cron: string;
  timezone: string;
  label: string;
  interval_minutes: number;
  top_n: number;
  paused_reason: string | null;
  last_ranking: string;
  created_at: number;
}

export function toSubscription(r: SubscriptionRow): Subscription {
  let ranking: string[] = [];
  try {
    const parsed: unknown = JSON.parse(r.last_ranking);
    if (Array.isArray(parsed)) ranking = parsed.filter((x): x is string => typeof x === "string");
  } catch {
    // A damaged ranking only costs the movement markers of one digest.
  }
  return {
    id: r.id,
    platform: r.platform as Subscription["platform"],
    chatId: r.chat_id,
    chain: r.chain,
    cron: r.cron,
    timezone: r.timezone,
    label: r.label,
    intervalMinutes: r.interval_minutes,
    topN: r.top_n,
    ...(r.paused_reason === null ? {} : { pausedReason: r.paused_reason }),
    lastRanking: ranking,
    createdAt: r.created_at,
  };
}

/** Digest deliveries as rows of the send protocol: one per (subscription, slot). */
export const DIGEST_SEND_TABLE = { table: "digest_deliveries", key: ["subscription_id", "slot"] } as const;
