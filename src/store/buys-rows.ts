/**
 * The buy feed's rows as both engines read them (the tables: migration 9). Each of
 * `buy_messages` carries buys moved out of `queued` in the transaction that queued it.
 */
import type { SendTable } from "./send-rows.js";
import type { BuyFeed, BuyMedia, BuyOptions, BuyPost, OwedBuy, OwedBuyState, PairGap, PairWatch, Platform, SendState } from "./types.js";

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

/** A feed's columns but the media's bytes, which only `feedMedia` reads; `table` names the feed table in a join. */
export function feedColumns(table?: string): string {
  const columns = ["platform", "chat_id", "token_id", "symbol", "chain", "options", "created_at", "media_kind"];
  return columns.map((c) => (table === undefined ? c : `${table}.${c}`)).join(", ");
}

export const MEDIA_COLUMNS = "media_kind, media_file_id, media_name, media_type, media_data";

export interface FeedRow {
  platform: string;
  chat_id: string;
  token_id: string;
  symbol: string;
  chain: string;
  options: string;
  created_at: number;
  media_kind: string | null;
}

const MEDIA_KINDS = new Map<string, BuyMedia["kind"]>([["photo", "photo"], ["animation", "animation"], ["video", "video"]]);

export function toFeed(r: FeedRow): BuyFeed {
  const media = r.media_kind === null ? undefined : MEDIA_KINDS.get(r.media_kind);
  return {
    platform: r.platform as Platform, chatId: r.chat_id, tokenId: r.token_id, symbol: r.symbol, chain: r.chain,
    options: JSON.parse(r.options) as BuyOptions, createdAt: r.created_at, ...(media === undefined ? {} : { media }),
  };
}

export interface MediaRow {
  media_kind: string | null;
  media_file_id: string | null;
  media_name: string | null;
  media_type: string | null;
  media_data: Uint8Array | null;
}

/** The row's media; none when no kind is recorded. */
export function toMedia(r: MediaRow | undefined): BuyMedia | undefined {
  const kind = r?.media_kind == null ? undefined : MEDIA_KINDS.get(r.media_kind);
  if (r === undefined || kind === undefined) return undefined;
  const file = r.media_name !== null && r.media_type !== null && r.media_data !== null ? { name: r.media_name, type: r.media_type, data: new Uint8Array(r.media_data) } : undefined;
  return { kind, ...(r.media_file_id === null ? {} : { fileId: r.media_file_id }), ...(file === undefined ? {} : { file }) };
}

/** The media columns' values in order (kind, file id, name, type, data), all null to remove it. */
export function mediaValues(m: BuyMedia | undefined): [string | null, string | null, string | null, string | null, Buffer | null] {
  if (m === undefined) return [null, null, null, null, null];
  return [m.kind, m.fileId ?? null, m.file?.name ?? null, m.file?.type ?? null, m.file === undefined ? null : Buffer.from(m.file.data)];
}

export interface PairRow {
  pair_id: string;
  token_id: string;
  cursor: number;
  last_trade_at: number | null;
  next_poll_at: number;
  gaps: string | null;
}

export function toWatch(r: PairRow): PairWatch {
  return {
    pairId: r.pair_id, tokenId: r.token_id, cursor: r.cursor, nextPollAt: r.next_poll_at,
    ...(r.last_trade_at === null ? {} : { lastTradeAt: r.last_trade_at }),
    ...(r.gaps === null ? {} : { gaps: JSON.parse(r.gaps) as PairGap[] }),
  };
}

/** The `gaps` column's value: NULL when nothing is left unread. */
export function gapsValue(w: PairWatch): string | null {
  return w.gaps === undefined || w.gaps.length === 0 ? null : JSON.stringify(w.gaps.map((g) => ({ after: g.after, to: g.to })));
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
