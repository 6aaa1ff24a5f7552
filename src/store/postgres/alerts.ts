/**
 * Price alerts, their firings, the tokens' last seen prices and the watchlists in PostgreSQL:
 * the statements of sqlite/alerts.ts with numbered parameters, and the same behaviour.
 */
import { FIRING_SEND_TABLE, toAlert, toFiring, type AlertRow, type FiringRow } from "../alert-rows.js";
import { postgresSendRows } from "../send-rows.js";
import type { Sql, SqlRunner, SqlValue } from "./sql.js";
import type { AlertChange, AlertStore, ChatKey, FiringState, TokenSighting, WatchlistStore } from "../types.js";

/** A change applies only to the alert as the check read it; a firing only while it is armed. */
async function applyChange(tx: SqlRunner, c: AlertChange, now: number): Promise<number> {
  const sets: string[] = [];
  const values: SqlValue[] = [];
  const put = (column: string, v: string | number | null | undefined) => {
    if (v === undefined) return;
    values.push(v);
    sets.push(`${column} = $${values.length}`);
  };
  put("armed", c.set.armed === undefined ? undefined : c.set.armed ? 1 : 0);
  put("anchor_price", c.set.anchorPrice);
  put("anchor_at", c.set.anchorAt);
  put("last_fired_at", c.set.lastFiredAt);
  put("paused_at", c.set.pausedAt);
  if (sets.length === 0) return 0;
  const armedOnly = c.notice?.kind === "fired" ? " AND armed = 1" : "";
  const changed = await tx.write(
    `UPDATE alerts SET ${sets.join(", ")} WHERE id = $${values.length + 1} AND anchor_at = $${values.length + 2}${armedOnly}`,
    [...values, c.alertId, c.anchorAt],
  );
  if (changed.count === 0 || c.notice === undefined) return 0;
  const inserted = await tx.write(
    `INSERT INTO alert_firings (alert_id, platform, chat_id, kind, payload, state, fired_at, updated_at)
     SELECT id, platform, chat_id, $1, $2, 'queued', $3::bigint, $3::bigint FROM alerts WHERE id = $4`,
    [c.notice.kind, c.notice.payload, now, c.alertId],
  );
  return inserted.count;
}

export function postgresAlerts(sql: Sql): AlertStore {
  const one = async (runner: SqlRunner, chat: ChatKey, number: number) =>
    (await runner.read<AlertRow>("SELECT * FROM alerts WHERE platform = $1 AND chat_id = $2 AND number = $3", [chat.platform, chat.chatId, number]))[0];
  const sends = postgresSendRows(sql, FIRING_SEND_TABLE);

  return {
    async addAlert(a, max, now) {
      return sql.transaction(async (tx) => {
        // The chat's counter row, locked first, serialises two adds in one chat across processes.
        const { rows } = await tx.write<{ last_number: number }>(
          `INSERT INTO alert_numbers (platform, chat_id, last_number) VALUES ($1, $2, 0)
           ON CONFLICT (platform, chat_id) DO UPDATE SET last_number = alert_numbers.last_number
           RETURNING last_number`,
          [a.platform, a.chatId],
        );
        const n = (await tx.read<{ n: number }>("SELECT COUNT(*) AS n FROM alerts WHERE platform = $1 AND chat_id = $2", [a.platform, a.chatId]))[0]?.n ?? 0;
        if (n >= max) return { full: n };
        const number = (rows[0]?.last_number ?? 0) + 1;
        await tx.write("UPDATE alert_numbers SET last_number = $3 WHERE platform = $1 AND chat_id = $2", [a.platform, a.chatId, number]);
        const inserted = await tx.write<AlertRow>(
          `INSERT INTO alerts (platform, chat_id, number, token_id, symbol, chain, rule, level, anchor_price, anchor_at, armed, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11) RETURNING *`,
          [a.platform, a.chatId, number, a.tokenId, a.symbol, a.chain, a.rule, a.level, a.anchorPrice, a.anchorAt, now],
        );
        return { alert: toAlert(inserted.rows[0] as AlertRow) };
      });
    },
    async listAlerts(chat) {
      const rows = await sql.read<AlertRow>("SELECT * FROM alerts WHERE platform = $1 AND chat_id = $2 ORDER BY number", [chat.platform, chat.chatId]);
      return rows.map(toAlert);
    },
    async removeAlerts(chat, number) {
      const r =
        number === "all"
          ? await sql.write("DELETE FROM alerts WHERE platform = $1 AND chat_id = $2", [chat.platform, chat.chatId])
          : await sql.write("DELETE FROM alerts WHERE platform = $1 AND chat_id = $2 AND number = $3", [chat.platform, chat.chatId, number]);
      return r.count;
    },
    async rearmAlert(chat, number, anchorPrice, now) {
      const r = await sql.write(
        "UPDATE alerts SET armed = 1, paused_at = NULL, anchor_price = $1, anchor_at = $2 WHERE platform = $3 AND chat_id = $4 AND number = $5",
        [anchorPrice, now, chat.platform, chat.chatId, number],
      );
      if (r.count === 0) return undefined;
      const row = await one(sql, chat, number);
      return row === undefined ? undefined : toAlert(row);
    },
    async armedAlerts() {
      return (await sql.read<AlertRow>("SELECT * FROM alerts WHERE armed = 1 ORDER BY id")).map(toAlert);
    },
    async sightings(tokenIds) {
      if (tokenIds.length === 0) return [];
      const rows = await sql.read<{ token_id: string; price: string | null; seen_at: number | null; missing_since: number | null }>(
        "SELECT * FROM alert_tokens WHERE token_id = ANY($1::text[])",
        [[...tokenIds]],
      );
      return rows.map(
        (r): TokenSighting => ({
          tokenId: r.token_id,
          ...(r.price === null ? {} : { price: r.price }),
          ...(r.seen_at === null ? {} : { seenAt: r.seen_at }),
          ...(r.missing_since === null ? {} : { missingSince: r.missing_since }),
        }),
      );
    },
    async commitCheck(sightings, changes, now) {
      return sql.transaction(async (tx) => {
        for (const s of sightings) {
          await tx.write(
            `INSERT INTO alert_tokens (token_id, price, seen_at, missing_since) VALUES ($1, $2, $3, $4)
             ON CONFLICT (token_id) DO UPDATE SET price = excluded.price, seen_at = excluded.seen_at, missing_since = excluded.missing_since`,
            [s.tokenId, s.price ?? null, s.seenAt ?? null, s.missingSince ?? null],
          );
        }
        let queued = 0;
        for (const c of changes) queued += await applyChange(tx, c, now);
        return queued;
      });
    },
    async queuedFirings() {
      return (await sql.read<FiringRow>("SELECT * FROM alert_firings WHERE state IN ('queued', 'interrupted') ORDER BY id")).map(toFiring);
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
      return (await sql.write("DELETE FROM alert_firings WHERE state NOT IN ('queued', 'sending') AND fired_at < $1", [before])).count;
    },
    async firingCounts() {
      const rows = await sql.read<{ state: FiringState; n: number }>("SELECT state, COUNT(*) AS n FROM alert_firings GROUP BY state");
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
  };
}

export function postgresWatchlists(sql: Sql): WatchlistStore {
  return {
    async addWatched(chat, tokens, max, now) {
      return sql.transaction(async (tx) => {
        // One add at a time per chat, across processes, so that `max` holds.
        await tx.write("SELECT pg_advisory_xact_lock(hashtext($1))", [`watchlist:${chat.platform}:${chat.chatId}`]);
        const watched = new Set(
          (await tx.read<{ token_id: string }>("SELECT token_id FROM watchlist WHERE platform = $1 AND chat_id = $2", [chat.platform, chat.chatId])).map(
            (r) => r.token_id,
          ),
        );
        let n = watched.size;
        const out = { added: [] as string[], already: [] as string[], refused: [] as string[] };
        for (const t of tokens) {
          if (watched.has(t.tokenId)) out.already.push(t.tokenId);
          else if (n >= max) out.refused.push(t.tokenId);
          else {
            await tx.write(
              `INSERT INTO watchlist (platform, chat_id, token_id, symbol, chain, added_at) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (platform, chat_id, token_id) DO NOTHING`,
              [chat.platform, chat.chatId, t.tokenId, t.symbol, t.chain, now],
            );
            watched.add(t.tokenId);
            out.added.push(t.tokenId);
            n++;
          }
        }
        return out;
      });
    },
    async removeWatched(chat, tokenId) {
      const r =
        tokenId === "all"
          ? await sql.write("DELETE FROM watchlist WHERE platform = $1 AND chat_id = $2", [chat.platform, chat.chatId])
          : await sql.write("DELETE FROM watchlist WHERE platform = $1 AND chat_id = $2 AND token_id = $3", [chat.platform, chat.chatId, tokenId]);
      return r.count;
    },
    async listWatched(chat) {
      const rows = await sql.read<{ token_id: string; symbol: string; chain: string; added_at: number }>(
        "SELECT * FROM watchlist WHERE platform = $1 AND chat_id = $2 ORDER BY added_at, token_id COLLATE \"C\"",
        [chat.platform, chat.chatId],
      );
      return rows.map((r) => ({ tokenId: r.token_id, symbol: r.symbol, chain: r.chain, addedAt: r.added_at }));
    },
    async watchedTokenIds(platforms) {
      if (platforms.length === 0) return [];
      const rows = await sql.read<{ token_id: string }>(
        "SELECT token_id FROM watchlist WHERE platform = ANY($1::text[]) GROUP BY token_id ORDER BY token_id COLLATE \"C\"",
        [[...platforms]],
      );
      return rows.map((r) => r.token_id);
    },
  };
}
