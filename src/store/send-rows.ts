/**
 * The store's half of the send protocol (src/delivery/protocol.ts), written once for every
 * kind of scheduled message: a kind's table carries the send columns (migrations.ts) next to
 * its own key and columns, and its store methods hand claims, outcomes and recovery to the
 * queries here, on SQLite or PostgreSQL. A row goes `queued` → `sending` (claimed by one sender, only
 * while that sender's lease holds) → an outcome; a row left `sending` by a sender that is gone
 * becomes `interrupted` and is claimed once more: a resend (its `attempts` then above 1, even
 * for a row that went `sending` without a claim counted, as before schema 8).
 */
import type Database from "better-sqlite3";
import type { SqlRunner, SqlValue } from "./postgres/sql.js";
import type { SendClaim, SendState } from "./types.js";

/** A kind's table and the columns that name one of its rows. */
export interface SendTable {
  table: string;
  key: readonly string[];
}

/** Rows of one kind, by key (the values of `SendTable.key`, in order). */
export interface SendRowQueries {
  /**
   * Claims a `queued` or `interrupted` row for `sender` while it holds the lease `lease`
   * unexpired at `now`: `claimed` (a first send), `resend` (an interrupted one), `taken`
   * (another got it, or it is no longer waiting), `unleased` (nothing changed).
   */
  claim(key: readonly SqlValue[], sender: string, lease: string, now: number): Promise<SendClaim>;
  /** Records the outcome of a row `sender` claimed, from `sending` or over `interrupted`. */
  settle(key: readonly SqlValue[], sender: string, to: SendState, now: number, detail?: string): Promise<boolean>;
  /** Moves a row from one of `from` to `to` (a deadline passed, a payload unreadable). */
  transition(key: readonly SqlValue[], from: readonly SendState[], to: SendState, now: number, detail?: string): Promise<boolean>;
  /** The senders of rows now `sending` ("" for rows claimed before senders were recorded). */
  sendersInFlight(): Promise<string[]>;
  /** Rows `sending` under one of `senders` (known to be gone) become `interrupted`; returns how many. */
  interrupt(now: number, senders: readonly string[]): Promise<number>;
  /** Rows `sending` under anyone but `holder` (the single sender of its kind) become `interrupted`. */
  interruptOthers(now: number, holder: string): Promise<number>;
}

/** States of a row whose request left, or may have: the platform counted it against its limits. */
const LEFT_STATES = ["sending", "interrupted", "delivered", "resent", "gone", "moved", "forbidden", "failed"].map((st) => `'${st}'`).join(", ");

/** Each kind's table as the sends' books read it: where its chat is named (a digest's, on its subscription). */
const SENT_FROM = [
  { from: "digest_deliveries r JOIN subscriptions c ON c.id = r.subscription_id", chat: "c" },
  { from: "alert_firings r", chat: "r" },
  { from: "buy_messages r", chat: "r" },
  { from: "launch_posts r", chat: "r" },
];

/**
 * The sends of every kind to the platform `platform` (a bound parameter) whose row changed
 * after `since`: its chat and when. A row's `updated_at` is its outcome's time (when the
 * platform answered), or its claim's (just before the request) while the send is on its way.
 */
export function recentSendsQuery(platform: string, since: string): string {
  return SENT_FROM.map(
    (t) => `SELECT ${t.chat}.chat_id AS chat_id, r.updated_at AS at FROM ${t.from}
      WHERE ${t.chat}.platform = ${platform} AND r.updated_at > ${since} AND r.state IN (${LEFT_STATES})`,
  ).join("\n      UNION ALL ");
}

/** SQLite binds at most 999 parameters in old builds: lists are sent in slices well under it. */
const IN_SLICE = 500;

const keyWhere = (t: SendTable, mark: (i: number) => string): string => t.key.map((c, i) => `${c} = ${mark(i)}`).join(" AND ");

export function sqliteSendRows(db: Database.Database, t: SendTable): SendRowQueries {
  const where = keyWhere(t, () => "?");
  const q = {
    claim: db.prepare(`
      UPDATE ${t.table} SET state = 'sending', sender = ?, updated_at = ?,
        attempts = CASE WHEN state = 'interrupted' THEN MAX(attempts, 1) + 1 ELSE attempts + 1 END
      WHERE ${where} AND state IN ('queued', 'interrupted')
        AND EXISTS (SELECT 1 FROM leases WHERE name = ? AND holder = ? AND expires_at > ?)
      RETURNING attempts`),
    leased: db.prepare(`SELECT 1 FROM leases WHERE name = ? AND holder = ? AND expires_at > ?`),
    settle: db.prepare(`
      UPDATE ${t.table} SET state = ?, updated_at = ?, detail = ?
      WHERE ${where} AND sender = ? AND state IN ('sending', 'interrupted')`),
    senders: db.prepare(`SELECT DISTINCT COALESCE(sender, '') AS sender FROM ${t.table} WHERE state = 'sending' ORDER BY sender`),
    others: db.prepare(`UPDATE ${t.table} SET state = 'interrupted', updated_at = ? WHERE state = 'sending' AND (sender IS NULL OR sender <> ?)`),
  };
  const claimOne = db.transaction((key: readonly SqlValue[], sender: string, lease: string, now: number): SendClaim => {
    const row = q.claim.get(sender, now, ...key, lease, sender, now) as { attempts: number } | undefined;
    if (row !== undefined) return row.attempts > 1 ? "resend" : "claimed";
    return q.leased.get(lease, sender, now) === undefined ? "unleased" : "taken";
  });
  return {
    async claim(key, sender, lease, now) {
      return claimOne(key, sender, lease, now);
    },
    async settle(key, sender, to, now, detail) {
      return q.settle.run(to, now, detail ?? null, ...key, sender).changes === 1;
    },
    async transition(key, from, to, now, detail) {
      const marks = from.map(() => "?").join(", ");
      const r = db
        .prepare(`UPDATE ${t.table} SET state = ?, updated_at = ?, detail = ? WHERE ${where} AND state IN (${marks})`)
        .run(to, now, detail ?? null, ...key, ...from);
      return r.changes === 1;
    },
    async sendersInFlight() {
      return (q.senders.all() as { sender: string }[]).map((r) => r.sender);
    },
    async interrupt(now, senders) {
      let n = 0;
      for (let i = 0; i < senders.length; i += IN_SLICE) {
        const slice = senders.slice(i, i + IN_SLICE);
        n += db
          .prepare(`UPDATE ${t.table} SET state = 'interrupted', updated_at = ? WHERE state = 'sending' AND COALESCE(sender, '') IN (${slice.map(() => "?").join(", ")})`)
          .run(now, ...slice).changes;
      }
      return n;
    },
    async interruptOthers(now, holder) {
      return q.others.run(now, holder).changes;
    },
  };
}

export function postgresSendRows(sql: SqlRunner, t: SendTable): SendRowQueries {
  return {
    async claim(key, sender, lease, now) {
      // One statement: the lease is read and the row claimed together, so a claim never lands
      // after this sender's lease has run out.
      const { rows } = await sql.write<{ attempts: number | null; leased: number }>(
        `WITH lease AS (SELECT 1 FROM leases WHERE name = $1 AND holder = $2 AND expires_at > $3),
         claimed AS (
           UPDATE ${t.table} SET state = 'sending', sender = $2, updated_at = $3,
             attempts = CASE WHEN state = 'interrupted' THEN GREATEST(attempts, 1) + 1 ELSE attempts + 1 END
           WHERE ${keyWhere(t, (i) => `$${i + 4}`)} AND state IN ('queued', 'interrupted') AND EXISTS (SELECT 1 FROM lease)
           RETURNING attempts)
         SELECT (SELECT attempts FROM claimed) AS attempts, (SELECT COUNT(*) FROM lease) AS leased`,
        [lease, sender, now, ...key],
      );
      const r = rows[0];
      if (r !== undefined && r.attempts !== null) return r.attempts > 1 ? "resend" : "claimed";
      return r !== undefined && r.leased > 0 ? "taken" : "unleased";
    },
    async settle(key, sender, to, now, detail) {
      const r = await sql.write(
        `UPDATE ${t.table} SET state = $1, updated_at = $2, detail = $3
         WHERE ${keyWhere(t, (i) => `$${i + 5}`)} AND sender = $4 AND state IN ('sending', 'interrupted')`,
        [to, now, detail ?? null, sender, ...key],
      );
      return r.count === 1;
    },
    async transition(key, from, to, now, detail) {
      const r = await sql.write(
        `UPDATE ${t.table} SET state = $1, updated_at = $2, detail = $3
         WHERE ${keyWhere(t, (i) => `$${i + 5}`)} AND state = ANY($4::text[])`,
        [to, now, detail ?? null, [...from], ...key],
      );
      return r.count === 1;
    },
    async sendersInFlight() {
      const rows = await sql.read<{ sender: string }>(
        `SELECT COALESCE(sender, '') AS sender FROM ${t.table} WHERE state = 'sending' GROUP BY COALESCE(sender, '') ORDER BY COALESCE(sender, '') COLLATE "C"`,
      );
      return rows.map((r) => r.sender);
    },
    async interrupt(now, senders) {
      if (senders.length === 0) return 0;
      const r = await sql.write(
        `UPDATE ${t.table} SET state = 'interrupted', updated_at = $1 WHERE state = 'sending' AND COALESCE(sender, '') = ANY($2::text[])`,
        [now, [...senders]],
      );
      return r.count;
    },
    async interruptOthers(now, holder) {
      const r = await sql.write(
        `UPDATE ${t.table} SET state = 'interrupted', updated_at = $1 WHERE state = 'sending' AND (sender IS NULL OR sender <> $2)`,
        [now, holder],
      );
      return r.count;
    },
  };
}
