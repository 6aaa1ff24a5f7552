/**
 * Members' calls in PostgreSQL: the statements of sqlite/calls.ts with numbered parameters. A
 * new call takes a transaction-scoped advisory lock on its board and token first, so two
 * workers answering two pastes of one token at once record one call, the first.
 */
import { CALL_SQL, handleOf, newCallValues, toCall, toStatus, type CallRow } from "../call-rows.js";
import type { Sql } from "./sql.js";
import type { CallStore, TokenToSweep } from "../types.js";

/** `?` placeholders numbered `$1`, `$2`, … */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const SQL = Object.fromEntries(Object.entries(CALL_SQL).map(([k, s]) => [k, numbered(s)])) as Record<keyof typeof CALL_SQL, string>;

export function postgresCalls(sql: Sql): CallStore {
  return {
    async recordCall(call, since) {
      return sql.transaction(async (tx) => {
        await tx.write("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`${call.platform}:${call.boardId}:${call.tokenId}`]);
        const found = (await tx.read<CallRow>(SQL.current, [call.platform, call.boardId, call.tokenId, since]))[0];
        if (found !== undefined) return { call: toCall(found), made: false };
        const { rows } = await tx.write<CallRow>(SQL.insert, newCallValues(call));
        return { call: toCall(rows[0] as CallRow), made: true };
      });
    },
    async currentCall(board, tokenId, since) {
      const row = (await sql.read<CallRow>(SQL.current, [board.platform, board.chatId, tokenId, since]))[0];
      return row === undefined ? undefined : toCall(row);
    },
    async removeCall(id) {
      return (await sql.write(SQL.remove, [id])).count > 0;
    },
    async boardCalls(board, since) {
      return (await sql.read<CallRow>(SQL.board, [board.platform, board.chatId, since])).map(toCall);
    },
    async memberCalls(board, userId, limit) {
      return (await sql.read<CallRow>(SQL.member, [board.platform, board.chatId, userId, limit])).map(toCall);
    },
    async findCaller(board, who) {
      const row = (await sql.read<{ user_id: string; user_name: string }>(SQL.caller, [board.platform, board.chatId, handleOf(who.handle), who.name]))[0];
      return row === undefined ? undefined : { userId: row.user_id, userName: row.user_name };
    },
    async tokenCalls(tokenId, since) {
      return (await sql.read<CallRow>(SQL.token, [tokenId, since])).map(toCall);
    },
    async tokensToSweep(since) {
      return (await sql.read<{ token_id: string; from_at: number }>(SQL.due, [since])).map((r): TokenToSweep => ({ tokenId: r.token_id, from: Number(r.from_at) }));
    },
    async saveReads(reads) {
      if (reads.length === 0) return;
      await sql.transaction(async (tx) => {
        for (const r of reads) await tx.write(SQL.read, [r.high, r.highAt ?? null, r.lastPrice, r.sweptTo, r.callId]);
      });
    },
    async sweepStatus() {
      return toStatus((await sql.read<{ ran_at: number; period_ms: number; tokens: number }>(SQL.status))[0]);
    },
    async setSweepStatus(s) {
      await sql.write(SQL.setStatus, [s.ranAt, s.periodMs, s.tokens]);
    },
  };
}
