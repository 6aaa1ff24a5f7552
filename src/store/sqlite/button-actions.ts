/**
 * Button actions in SQLite: an action too long for its button's data, under the short key the
 * button carries, until it expires. Plain SQL, so PostgreSQL runs the same statements.
 */
import type Database from "better-sqlite3";
import type { ButtonActionStore } from "../types.js";

export function sqliteButtonActions(db: Database.Database): ButtonActionStore {
  const put = db.prepare(`
    INSERT INTO button_actions (key, action, expires_at) VALUES (?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET action = excluded.action, expires_at = MAX(button_actions.expires_at, excluded.expires_at)`);
  const get = db.prepare("SELECT action FROM button_actions WHERE key = ? AND expires_at > ?");
  const prune = db.prepare("DELETE FROM button_actions WHERE expires_at <= ?");
  return {
    async putAction(key, action, expiresAt) {
      put.run(key, action, expiresAt);
    },
    async getAction(key, now) {
      return (get.get(key, now) as { action: string } | undefined)?.action;
    },
    async pruneActions(now) {
      return prune.run(now).changes;
    },
  };
}
