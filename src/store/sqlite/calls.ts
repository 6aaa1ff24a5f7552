/**
 * Members' calls of tokens in SQLite: one row per call, with what the sweep has read since.
 * Plain SQL, so PostgreSQL runs the same statements (postgres/calls.ts).
 */
import type Database from "better-sqlite3";
import { CALL_SQL, handleOf, newCallValues, toCall, toStatus, type CallRow } from "../call-rows.js";
import type { CallRead, CallStore, ChatKey, TokenToSweep } from "../types.js";

export function sqliteCalls(db: Database.Database): CallStore {
  const q = Object.fromEntries(Object.entries(CALL_SQL).map(([k, sql]) => [k, db.prepare(sql)])) as Record<keyof typeof CALL_SQL, Database.Statement>;
  const current = (board: ChatKey, tokenId: string, since: number) =>
    q.current.get(board.platform, board.chatId, tokenId, since) as CallRow | undefined;
  // IMMEDIATE: the write lock is taken before the look, so two processes never both find no call.
  const record = db.transaction((call: Parameters<CallStore["recordCall"]>[0], since: number) => {
    const found = current({ platform: call.platform, chatId: call.boardId }, call.tokenId, since);
    if (found !== undefined) return { call: toCall(found), made: false };
    return { call: toCall(q.insert.get(...newCallValues(call)) as CallRow), made: true };
  });
  const saveAll = db.transaction((reads: readonly CallRead[]) => {
    for (const r of reads) q.read.run(r.high, r.highAt ?? null, r.lastPrice, r.sweptTo, r.callId);
  });
  return {
    async recordCall(call, since) {
      return record.immediate(call, since);
    },
    async currentCall(board, tokenId, since) {
      const row = current(board, tokenId, since);
      return row === undefined ? undefined : toCall(row);
    },
    async removeCall(id) {
      return q.remove.run(id).changes > 0;
    },
    async boardCalls(board, since) {
      return (q.board.all(board.platform, board.chatId, since) as CallRow[]).map(toCall);
    },
    async memberCalls(board, userId, limit) {
      return (q.member.all(board.platform, board.chatId, userId, limit) as CallRow[]).map(toCall);
    },
    async findCaller(board, who) {
      const row = q.caller.get(board.platform, board.chatId, handleOf(who.handle), who.name) as { user_id: string; user_name: string } | undefined;
      return row === undefined ? undefined : { userId: row.user_id, userName: row.user_name };
    },
    async tokenCalls(tokenId, since) {
      return (q.token.all(tokenId, since) as CallRow[]).map(toCall);
    },
    async tokensToSweep(since) {
      return (q.due.all(since) as { token_id: string; from_at: number }[]).map((r): TokenToSweep => ({ tokenId: r.token_id, from: r.from_at }));
    },
    async saveReads(reads) {
      saveAll(reads);
    },
    async sweepStatus() {
      return toStatus(q.status.get() as { ran_at: number; period_ms: number; tokens: number } | undefined);
    },
    async setSweepStatus(s) {
      q.setStatus.run(s.ranAt, s.periodMs, s.tokens);
    },
  };
}
