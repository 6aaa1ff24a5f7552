/**
 * The buy feed's rows as both engines read them (the tables: migration 9). Each of
 * `buy_messages` carries buys moved out of `queued` in the transaction that queued it.
 */
import type { SendTable } from "./send-rows.js";
import type { BuyFeed, BuyOptions, BuyPost, OwedBuy, OwedBuyState, PairWatch, Platform, SendState } from "./types.js";

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
