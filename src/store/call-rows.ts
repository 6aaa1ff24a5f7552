/** Members' calls as both engines read and write their rows (the tables: migration 10). */
import type { Call, CallStore, Platform, SweepStatus } from "./types.js";

/** A `calls` row as both engines return it. */
export interface CallRow {
  id: number;
  platform: string;
  chat_id: string;
  token_id: string;
  symbol: string;
  chain: string;
  user_id: string;
  user_name: string;
  user_handle: string | null;
  called_at: number;
  price: string;
  market_cap: string | null;
  high: string;
  high_at: number | null;
  last_price: string | null;
  swept_to: number | null;
}

export function toCall(r: CallRow): Call {
  return {
    id: r.id,
    platform: r.platform as Platform,
    boardId: r.chat_id,
    tokenId: r.token_id,
    symbol: r.symbol,
    chain: r.chain,
    userId: r.user_id,
    userName: r.user_name,
    ...(r.user_handle === null ? {} : { userHandle: r.user_handle }),
    calledAt: r.called_at,
    price: r.price,
    ...(r.market_cap === null ? {} : { marketCap: r.market_cap }),
    high: r.high,
    ...(r.high_at === null ? {} : { highAt: r.high_at }),
    ...(r.last_price === null ? {} : { lastPrice: r.last_price }),
    ...(r.swept_to === null ? {} : { sweptTo: r.swept_to }),
  };
}

/** The statements' SQL with `?` placeholders; PostgreSQL numbers them. */
export const CALL_SQL = {
  current: "SELECT * FROM calls WHERE platform = ? AND chat_id = ? AND token_id = ? AND called_at >= ? ORDER BY called_at DESC, id DESC LIMIT 1",
  insert: `INSERT INTO calls (platform, chat_id, token_id, symbol, chain, user_id, user_name, user_handle, called_at, price, market_cap, high)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  remove: "DELETE FROM calls WHERE id = ?",
  board: "SELECT * FROM calls WHERE platform = ? AND chat_id = ? AND called_at >= ? ORDER BY called_at, id",
  member: "SELECT * FROM calls WHERE platform = ? AND chat_id = ? AND user_id = ? ORDER BY called_at DESC, id DESC LIMIT ?",
  caller: `SELECT user_id, user_name FROM calls WHERE platform = ? AND chat_id = ? AND (LOWER(user_handle) = LOWER(?) OR user_name = ?)
    ORDER BY called_at DESC, id DESC LIMIT 1`,
  token: "SELECT * FROM calls WHERE token_id = ? AND called_at >= ? ORDER BY called_at, id",
  due: `SELECT token_id, MIN(COALESCE(swept_to, called_at)) AS from_at FROM calls WHERE called_at >= ?
    GROUP BY token_id ORDER BY from_at, token_id`,
  read: "UPDATE calls SET high = ?, high_at = ?, last_price = ?, swept_to = ? WHERE id = ?",
  status: "SELECT ran_at, period_ms, tokens FROM call_sweep WHERE id = 1",
  setStatus: `INSERT INTO call_sweep (id, ran_at, period_ms, tokens) VALUES (1, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET ran_at = excluded.ran_at, period_ms = excluded.period_ms, tokens = excluded.tokens`,
} as const;

/** `@ana` and `ana` name the same handle. */
export function handleOf(text: string): string {
  return text.trim().replace(/^@/, "");
}

export function newCallValues(c: Parameters<CallStore["recordCall"]>[0]): (string | number | null)[] {
  return [c.platform, c.boardId, c.tokenId, c.symbol, c.chain, c.userId, c.userName, c.userHandle ?? null, c.calledAt, c.price, c.marketCap ?? null, c.price];
}

export function toStatus(r: { ran_at: number; period_ms: number; tokens: number } | undefined): SweepStatus | undefined {
  return r === undefined ? undefined : { ranAt: r.ran_at, periodMs: r.period_ms, tokens: r.tokens };
}
