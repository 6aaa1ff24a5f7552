/**
 * Price alerts, their firings, the tokens' last seen prices and the watchlists in SQLite. The
 * SQL is plain (ON CONFLICT upserts, no rowid tricks) so that PostgreSQL runs the same statements.
 */
import type Database from "better-sqlite3";
import { FIRING_SEND_TABLE, toAlert, toFiring, type AlertRow, type FiringRow } from "../alert-rows.js";
import { sqliteSendRows } from "../send-rows.js";
import type {
  Alert, AlertChange, AlertStore, ChatKey, FiringState, NewAlert, TokenSighting,
  WatchedToken, WatchlistStore,
} from "../types.js";

/** SQLite binds at most 999 parameters in old builds: lists are sent in slices well under it. */
const IN_SLICE = 500;

/** Alert queries on an open better-sqlite3 database that has the alert tables (migration 3). */
export function sqliteAlerts(db: Database.Database): AlertStore {
  const q = {
    count: db.prepare(`SELECT COUNT(*) AS n FROM alerts WHERE platform = ? AND chat_id = ?`),
    nextNumber: db.prepare(`
      INSERT INTO alert_numbers (platform, chat_id, last_number) VALUES (?, ?, 1)
      ON CONFLICT (platform, chat_id) DO UPDATE SET last_number = alert_numbers.last_number + 1`),
    lastNumber: db.prepare(`SELECT last_number FROM alert_numbers WHERE platform = ? AND chat_id = ?`),
    insert: db.prepare(`
      INSERT INTO alerts (platform, chat_id, number, token_id, symbol, chain, rule, level, anchor_price, anchor_at, armed, created_at)
      VALUES (@platform, @chatId, @number, @tokenId, @symbol, @chain, @rule, @level, @anchorPrice, @anchorAt, 1, @now)`),
    one: db.prepare(`SELECT * FROM alerts WHERE platform = ? AND chat_id = ? AND number = ?`),
    list: db.prepare(`SELECT * FROM alerts WHERE platform = ? AND chat_id = ? ORDER BY number`),
    removeOne: db.prepare(`DELETE FROM alerts WHERE platform = ? AND chat_id = ? AND number = ?`),
    removeAll: db.prepare(`DELETE FROM alerts WHERE platform = ? AND chat_id = ?`),
    rearm: db.prepare(`
      UPDATE alerts SET armed = 1, paused_at = NULL, anchor_price = ?, anchor_at = ?
      WHERE platform = ? AND chat_id = ? AND number = ?`),
    armed: db.prepare(`SELECT * FROM alerts WHERE armed = 1 ORDER BY id`),
    sight: db.prepare(`
      INSERT INTO alert_tokens (token_id, price, seen_at, missing_since) VALUES (@tokenId, @price, @seenAt, @missingSince)
      ON CONFLICT (token_id) DO UPDATE SET
        price = excluded.price, seen_at = excluded.seen_at, missing_since = excluded.missing_since`),
    insertFiring: db.prepare(`
      INSERT INTO alert_firings (alert_id, platform, chat_id, kind, payload, state, fired_at, updated_at)
      SELECT id, platform, chat_id, ?, ?, 'queued', ?, ? FROM alerts WHERE id = ?`),
    queued: db.prepare(`SELECT * FROM alert_firings WHERE state IN ('queued', 'interrupted') ORDER BY id`),
    prune: db.prepare(`DELETE FROM alert_firings WHERE state NOT IN ('queued', 'sending') AND fired_at < ?`),
    counts: db.prepare(`SELECT state, COUNT(*) AS n FROM alert_firings GROUP BY state`),
  };

  const add = db.transaction((a: NewAlert, max: number, now: number): { alert: Alert } | { full: number } => {
    const n = (q.count.get(a.platform, a.chatId) as { n: number }).n;
    if (n >= max) return { full: n };
    q.nextNumber.run(a.platform, a.chatId);
    const number = (q.lastNumber.get(a.platform, a.chatId) as { last_number: number }).last_number;
    q.insert.run({ ...a, number, now });
    return { alert: toAlert(q.one.get(a.platform, a.chatId, number) as AlertRow) };
  });

  /** A change applies only to the alert as the check read it; a firing only while it is armed. */
  const applyChange = (c: AlertChange, now: number): number => {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    const put = (column: string, v: string | number | null | undefined) => {
      if (v === undefined) return;
      sets.push(`${column} = ?`);
      values.push(v);
    };
    put("armed", c.set.armed === undefined ? undefined : c.set.armed ? 1 : 0);
    put("anchor_price", c.set.anchorPrice);
    put("anchor_at", c.set.anchorAt);
    put("last_fired_at", c.set.lastFiredAt);
    put("paused_at", c.set.pausedAt);
    if (sets.length === 0) return 0;
    const armedOnly = c.notice?.kind === "fired" ? " AND armed = 1" : "";
    const changed = db
      .prepare(`UPDATE alerts SET ${sets.join(", ")} WHERE id = ? AND anchor_at = ?${armedOnly}`)
      .run(...values, c.alertId, c.anchorAt).changes;
    if (changed === 0 || c.notice === undefined) return 0;
    return q.insertFiring.run(c.notice.kind, c.notice.payload, now, now, c.alertId).changes;
  };

  const sends = sqliteSendRows(db, FIRING_SEND_TABLE);

  const commit = db.transaction((sightings: readonly TokenSighting[], changes: readonly AlertChange[], now: number): number => {
    for (const s of sightings) {
      q.sight.run({ tokenId: s.tokenId, price: s.price ?? null, seenAt: s.seenAt ?? null, missingSince: s.missingSince ?? null });
    }
    let queued = 0;
    for (const c of changes) queued += applyChange(c, now);
    return queued;
  });

  return {
    async addAlert(a, max, now) {
      return add(a, max, now);
    },
    async listAlerts(chat: ChatKey) {
      return (q.list.all(chat.platform, chat.chatId) as AlertRow[]).map(toAlert);
    },
    async removeAlerts(chat, number) {
      const r = number === "all" ? q.removeAll.run(chat.platform, chat.chatId) : q.removeOne.run(chat.platform, chat.chatId, number);
      return r.changes;
    },
    async rearmAlert(chat, number, anchorPrice, now) {
      if (q.rearm.run(anchorPrice, now, chat.platform, chat.chatId, number).changes === 0) return undefined;
      return toAlert(q.one.get(chat.platform, chat.chatId, number) as AlertRow);
    },
    async armedAlerts() {
      return (q.armed.all() as AlertRow[]).map(toAlert);
    },
    async sightings(tokenIds) {
      const out: TokenSighting[] = [];
      for (let i = 0; i < tokenIds.length; i += IN_SLICE) {
        const slice = tokenIds.slice(i, i + IN_SLICE);
        const rows = db
          .prepare(`SELECT * FROM alert_tokens WHERE token_id IN (${slice.map(() => "?").join(", ")})`)
          .all(...slice) as { token_id: string; price: string | null; seen_at: number | null; missing_since: number | null }[];
        for (const r of rows) {
          out.push({
            tokenId: r.token_id,
            ...(r.price === null ? {} : { price: r.price }),
            ...(r.seen_at === null ? {} : { seenAt: r.seen_at }),
            ...(r.missing_since === null ? {} : { missingSince: r.missing_since }),
          });
        }
      }
      return out;
    },
    async commitCheck(sightings, changes, now) {
      return commit(sightings, changes, now);
    },
    async queuedFirings() {
      return (q.queued.all() as FiringRow[]).map(toFiring);
    },
    async transitionFiring(id, from, to, now, detail) {
      return sends.transition([id], from, to, now, detail);
    },
    async claimFiring(id, sender, lease, now) {
      return sends.claim([id], sender, lease, now);
    },
    async settleFiring(id, sender, to, now, detail) {
      return sends.settle([id], sender, to, now, detail);
    },
    async sendersInFlight() {
      return sends.sendersInFlight();
    },
    async interruptFirings(now, senders) {
      return sends.interrupt(now, senders);
    },
    async pruneFirings(before) {
      return q.prune.run(before).changes;
    },
    async firingCounts() {
      const rows = q.counts.all() as { state: FiringState; n: number }[];
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
  };
}

/** Watchlist queries on an open better-sqlite3 database that has the watchlist table (migration 3). */
export function sqliteWatchlists(db: Database.Database): WatchlistStore {
  const q = {
    count: db.prepare(`SELECT COUNT(*) AS n FROM watchlist WHERE platform = ? AND chat_id = ?`),
    has: db.prepare(`SELECT 1 FROM watchlist WHERE platform = ? AND chat_id = ? AND token_id = ?`),
    insert: db.prepare(`
      INSERT INTO watchlist (platform, chat_id, token_id, symbol, chain, added_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (platform, chat_id, token_id) DO NOTHING`),
    removeOne: db.prepare(`DELETE FROM watchlist WHERE platform = ? AND chat_id = ? AND token_id = ?`),
    removeAll: db.prepare(`DELETE FROM watchlist WHERE platform = ? AND chat_id = ?`),
    list: db.prepare(`SELECT * FROM watchlist WHERE platform = ? AND chat_id = ? ORDER BY added_at, token_id`),
  };

  const add = db.transaction((chat: ChatKey, tokens: readonly Omit<WatchedToken, "addedAt">[], max: number, now: number) => {
    let n = (q.count.get(chat.platform, chat.chatId) as { n: number }).n;
    const out = { added: [] as string[], already: [] as string[], refused: [] as string[] };
    for (const t of tokens) {
      if (q.has.get(chat.platform, chat.chatId, t.tokenId) !== undefined) out.already.push(t.tokenId);
      else if (n >= max) out.refused.push(t.tokenId);
      else {
        q.insert.run(chat.platform, chat.chatId, t.tokenId, t.symbol, t.chain, now);
        out.added.push(t.tokenId);
        n++;
      }
    }
    return out;
  });

  return {
    async addWatched(chat, tokens, max, now) {
      return add(chat, tokens, max, now);
    },
    async removeWatched(chat, tokenId) {
      const r = tokenId === "all" ? q.removeAll.run(chat.platform, chat.chatId) : q.removeOne.run(chat.platform, chat.chatId, tokenId);
      return r.changes;
    },
    async listWatched(chat) {
      const rows = q.list.all(chat.platform, chat.chatId) as { token_id: string; symbol: string; chain: string; added_at: number }[];
      return rows.map((r) => ({ tokenId: r.token_id, symbol: r.symbol, chain: r.chain, addedAt: r.added_at }));
    },
    async watchedTokenIds(platforms) {
      if (platforms.length === 0) return [];
      const rows = db
        .prepare(`SELECT DISTINCT token_id FROM watchlist WHERE platform IN (${platforms.map(() => "?").join(", ")}) ORDER BY token_id`)
        .all(...platforms) as { token_id: string }[];
      return rows.map((r) => r.token_id);
    },
  };
}
