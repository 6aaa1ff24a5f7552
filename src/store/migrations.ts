/**
 * The database schema as an ordered list of migrations. Append new ones at the end with the
 * next version; never edit or reorder one that has shipped. The SQL stays plain (no rowid,
 * no SQLite-only types) so that a PostgreSQL store can run the same statements.
 */
import type Database from "better-sqlite3";
import { ALERT_CHAT_TABLES, ALERTS_SCHEMA } from "./sqlite/alerts.js";
import { BUTTON_ACTIONS_SCHEMA } from "./sqlite/button-actions.js";
import { CALLS_SCHEMA } from "./sqlite/calls.js";
import { BUY_CHAT_TABLES, BUYS_SCHEMA, BUY_WALLETS_SCHEMA } from "./buys-rows.js";
import { LAUNCH_CHAT_TABLES, LAUNCHES_SCHEMA } from "./sqlite/launches.js";
import { SUBSCRIPTIONS_SCHEMA } from "./sqlite/subscriptions.js";

export interface Migration {
  /** Positive integer, strictly increasing down the list. */
  version: number;
  /** Short name for the `schema_migrations` record and the log. */
  name: string;
  /** SQL to run, or a function for changes SQL alone cannot express. Runs in a transaction. */
  up: string | ((db: Database.Database) => void);
  /**
   * The PostgreSQL form, when `up` is a function or needs more than `postgresSchema` does to it
   * (AUTOINCREMENT keys become identities, INTEGER becomes BIGINT). Runs in a transaction.
   */
  postgres?: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: "chats",
    // autodetect: NULL = the platform's default, else 0/1 (BOOLEAN in PostgreSQL).
    // guild_id: the Discord server of a channel, so that leaving the server forgets it.
    up: `
      CREATE TABLE chats (
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        guild_id TEXT,
        default_chain TEXT,
        autodetect INTEGER,
        timezone TEXT NOT NULL DEFAULT 'UTC',
        PRIMARY KEY (platform, chat_id)
      );
      CREATE INDEX chats_guild ON chats (guild_id);
    `,
  },
  { version: 2, name: "digest subscriptions, deliveries and leases", up: SUBSCRIPTIONS_SCHEMA },
  { version: 3, name: "price alerts, their firings and watchlists", up: ALERTS_SCHEMA },
  // language: NULL = chosen per platform from the user's or server's locale.
  { version: 4, name: "chat language", up: "ALTER TABLE chats ADD COLUMN language TEXT;" },
  { version: 5, name: "button actions", up: BUTTON_ACTIONS_SCHEMA },
  // sender: the alert worker that claimed a firing, so that a worker starting beside it leaves its sends alone.
  { version: 6, name: "alert firing sender", up: "ALTER TABLE alert_firings ADD COLUMN sender TEXT;" },
  // sender: the poster that claimed a digest delivery, so that a new lease holder interrupts the
  // rows of the one before it and leaves its own alone; NULL for rows claimed before.
  { version: 7, name: "digest delivery sender", up: "ALTER TABLE digest_deliveries ADD COLUMN sender TEXT;" },
  // attempts: how many times a row was claimed (send-rows.ts), so that a row left `sending` by a
  // sender that is gone is sent once more and recorded `resent`. A row claimed before counts one.
  {
    version: 8,
    name: "send attempts",
    up: `
      ALTER TABLE digest_deliveries ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE alert_firings ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      UPDATE digest_deliveries SET attempts = 1 WHERE state <> 'queued';
      UPDATE alert_firings SET attempts = 1 WHERE state <> 'queued';
    `,
  },
  { version: 9, name: "buy feeds, pair cursors and owed buys", up: BUYS_SCHEMA },
  // calls: NULL = on. The calls table's chat_id is the board (a Discord server's id for its channels).
  { version: 10, name: "calls", up: `ALTER TABLE chats ADD COLUMN calls INTEGER;${CALLS_SCHEMA}` },
  // card_chart: NULL = on (the default), else 0/1. launch tables: sqlite/launches.ts.
  { version: 11, name: "chat card chart, new launches", up: `ALTER TABLE chats ADD COLUMN card_chart INTEGER;\n${LAUNCHES_SCHEMA}` },
  // Each wallet's first buy the buy feed saw of a token, while some chat follows it: buys-rows.ts.
  { version: 12, name: "buy feed wallets", up: BUY_WALLETS_SCHEMA },
];

/**
 * Tables whose rows belong to one chat, keyed by `(platform, chat_id)`. `forgetChat`,
 * `forgetGuild` and `moveChat` act on every table listed here: a migration that adds such a
 * table appends its name.
 */
export const chatTables: string[] = ["chats", "subscriptions", ...ALERT_CHAT_TABLES, "calls", ...BUY_CHAT_TABLES, ...LAUNCH_CHAT_TABLES];
