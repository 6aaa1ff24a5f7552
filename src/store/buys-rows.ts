/**
 * The buy feed's schema and its rows as both engines read them. `buy_posts` keys a chat's
 * buys by swap identity, so a swap seen by two polls, two workers or a restarted one is owed
 * once; `buy_messages` are the posts the send protocol sends (a single buy or a summary), each
 * carrying buys moved out of `queued` in the transaction that queued it; `buy_pairs` holds one
 * row per pair watched for the whole bot (its cursor).
 */
import { SEND_COLUMNS, type SendTable } from "./send-rows.js";
import type { BuyFeed, BuyOptions, BuyPost, OwedBuy, OwedBuyState, PairWatch, Platform, SendState } from "./types.js";

export const BUYS_SCHEMA = `
CREATE TABLE buy_feeds (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  symbol TEXT NOT NULL,
  chain TEXT NOT NULL,
  options TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (platform, chat_id, token_id)
);
CREATE INDEX buy_feeds_token ON buy_feeds (token_id);
CREATE TABLE buy_pairs (
  pair_id TEXT PRIMARY KEY,
  token_id TEXT NOT NULL,
  cursor BIGINT NOT NULL,
  last_trade_at BIGINT,
  next_poll_at BIGINT NOT NULL
);
CREATE INDEX buy_pairs_token ON buy_pairs (token_id);
CREATE TABLE buy_posts (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  swap_key TEXT NOT NULL,
  token_id TEXT NOT NULL,
  tx_time BIGINT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  queued_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  summary_id TEXT,
  PRIMARY KEY (platform, chat_id, swap_key)
);
CREATE INDEX buy_posts_state ON buy_posts (state, queued_at);
CREATE TABLE buy_messages (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  post_key TEXT NOT NULL,
  token_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  tx_time BIGINT NOT NULL,
  payload TEXT NOT NULL,
  queued_at BIGINT NOT NULL,
  ${SEND_COLUMNS},
  PRIMARY KEY (platform, chat_id, post_key)
);
CREATE INDEX buy_messages_state ON buy_messages (state, queued_at);
`;

/**
 * Each wallet's first buy of a token the feed saw (its swap key), kept while some chat follows
 * the token and forgotten with its last feed; a token holds at most a bounded number of wallets
 * (the watcher's bound), past which no buy is called a wallet's first.
 */
export const BUY_WALLETS_SCHEMA = `
CREATE TABLE buy_wallets (
  token_id TEXT NOT NULL,
  wallet TEXT NOT NULL,
  swap_key TEXT NOT NULL,
  PRIMARY KEY (token_id, wallet)
);
`;

/** Tables of BUYS_SCHEMA whose rows belong to one chat (forget and move act on them). */
export const BUY_CHAT_TABLES = ["buy_feeds", "buy_posts", "buy_messages"] as const;

/** The feed's posts as rows of the send protocol. */
export const BUY_MESSAGES: SendTable = { table: "buy_messages", key: ["platform", "chat_id", "post_key"] };

export interface MessageRow {
  platform: string;
  chat_id: string;
  post_key: string;
  token_id: string;
  kind: string;
  tx_time: number;
  payload: string;
  queued_at: number;
  state: string;
}

export function toBuyPost(r: MessageRow): BuyPost {
  return {
    platform: r.platform as Platform, chatId: r.chat_id, postKey: r.post_key, tokenId: r.token_id, kind: r.kind === "summary" ? "summary" : "post",
    txTime: r.tx_time, payload: r.payload, state: r.state as SendState, queuedAt: r.queued_at,
  };
}

export interface FeedRow {
  platform: string;
  chat_id: string;
  token_id: string;
  symbol: string;
  chain: string;
  options: string;
  created_at: number;
}

export function toFeed(r: FeedRow): BuyFeed {
  return {
    platform: r.platform as Platform, chatId: r.chat_id, tokenId: r.token_id, symbol: r.symbol, chain: r.chain,
    options: JSON.parse(r.options) as BuyOptions, createdAt: r.created_at,
  };
}

export interface PairRow {
  pair_id: string;
  token_id: string;
  cursor: number;
  last_trade_at: number | null;
  next_poll_at: number;
}

export function toWatch(r: PairRow): PairWatch {
  return {
    pairId: r.pair_id, tokenId: r.token_id, cursor: r.cursor, nextPollAt: r.next_poll_at,
    ...(r.last_trade_at === null ? {} : { lastTradeAt: r.last_trade_at }),
  };
}

export interface PostRow {
  platform: string;
  chat_id: string;
  swap_key: string;
  token_id: string;
  tx_time: number;
  payload: string;
  state: string;
  queued_at: number;
  summary_id: string | null;
}

export function toOwed(r: PostRow): OwedBuy {
  return {
    platform: r.platform as Platform, chatId: r.chat_id, swapKey: r.swap_key, tokenId: r.token_id, txTime: r.tx_time,
    payload: r.payload, state: r.state as OwedBuyState, queuedAt: r.queued_at,
    ...(r.summary_id === null ? {} : { summaryId: r.summary_id }),
  };
}
