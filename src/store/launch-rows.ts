/** New-launch subscriptions and posts as both engines read their rows (the tables: migration 11). */
import type { SendTable } from "./send-rows.js";
import type { LaunchPost, LaunchPostKind, LaunchSubscription } from "./types.js";

export const LAUNCH_SEND_TABLE: SendTable = { table: "launch_posts", key: ["platform", "chat_id", "token_id"] };

export interface LaunchSubscriptionRow {
  platform: string;
  chat_id: string;
  chain: string;
  min_liquidity: number | string;
  created_at: number | string;
}

export interface LaunchPostRow {
  platform: string;
  chat_id: string;
  token_id: string;
  kind: string;
  chain: string;
  payload: string;
  queued_at: number | string;
  state: string;
}

export const toLaunchSubscription = (r: LaunchSubscriptionRow): LaunchSubscription => ({
  platform: r.platform as LaunchSubscription["platform"],
  chatId: r.chat_id,
  chain: r.chain,
  minLiquidity: Number(r.min_liquidity),
  createdAt: Number(r.created_at),
});

export const toLaunchPost = (r: LaunchPostRow): LaunchPost => ({
  platform: r.platform as LaunchPost["platform"],
  chatId: r.chat_id,
  tokenId: r.token_id,
  kind: r.kind as LaunchPostKind,
  chain: r.chain,
  payload: r.payload,
  queuedAt: Number(r.queued_at),
  state: r.state as LaunchPost["state"],
});

export const launchKey = (p: Pick<LaunchPost, "platform" | "chatId" | "tokenId">): string[] => [p.platform, p.chatId, p.tokenId];
