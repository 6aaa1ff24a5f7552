/** Button actions in PostgreSQL: the statements of sqlite/button-actions.ts, GREATEST for SQLite's two-argument MAX. */
import type { SqlRunner } from "./sql.js";
import type { ButtonActionStore } from "../types.js";

export function postgresButtonActions(sql: SqlRunner): ButtonActionStore {
  return {
    async putAction(key, action, expiresAt) {
      await sql.write(
        `INSERT INTO button_actions (key, action, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET action = excluded.action, expires_at = GREATEST(button_actions.expires_at, excluded.expires_at)`,
        [key, action, expiresAt],
      );
    },
    async getAction(key, now) {
      return (await sql.read<{ action: string }>("SELECT action FROM button_actions WHERE key = $1 AND expires_at > $2", [key, now]))[0]?.action;
    },
    async pruneActions(now) {
      return (await sql.write("DELETE FROM button_actions WHERE expires_at <= $1", [now])).count;
    },
  };
}
