/**
 * The database schema as an ordered list of migrations, and the one place it is written: the
 * stores' query files hold queries only. Append new ones at the end with the next version;
 * never edit or reorder one that has shipped (test/store/migrations.test.ts pins their text).
 * The SQL stays plain (no rowid, no SQLite-only types) so that a PostgreSQL store can run the
 * same statements.
 */
import type Database from "better-sqlite3";

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

/**
 * The columns of the send protocol (send-rows.ts), in each kind's table. Migrations 9 and 11
 * run this text, so it never changes: a new send column is a migration altering every table
 * that has them. `sender` is who claimed the row (`host:pid:…`); `attempts` counts claims, so a
 * delivered row claimed twice is recorded `resent`.
 */
const SEND_COLUMNS = `state TEXT NOT NULL,
  sender TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  detail TEXT`;

/** A database whose schema is newer than this build's migrations: written by a newer chainpulse. */
export class NewerSchemaError extends Error {
  constructor(version: number) {
    super(`the database has schema version ${version}, which this build does not know: it was written by a newer chainpulse`);
    this.name = "NewerSchemaError";
  }
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
  // The digest: subscriptions, one row per (subscription, slot), named leases. Delivery rows
  // outlive their subscription (no cascade) as the record of what was posted, and ids are never
  // reused (AUTOINCREMENT) so an old row can never stand for a new subscription.
  {
    version: 2,
    name: "digest subscriptions, deliveries and leases",
    up: `
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  label TEXT NOT NULL,
  interval_minutes INTEGER NOT NULL,
  top_n INTEGER NOT NULL,
  paused_reason TEXT,
  last_ranking TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  UNIQUE (platform, chat_id, chain)
);
CREATE INDEX subscriptions_schedule ON subscriptions (cron, timezone);
CREATE TABLE digest_deliveries (
  subscription_id INTEGER NOT NULL,
  slot INTEGER NOT NULL,
  state TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  detail TEXT,
  PRIMARY KEY (subscription_id, slot)
);
CREATE INDEX digest_deliveries_state ON digest_deliveries (state, slot);
CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
`,
  },
  // Alerts and watchlists. `alert_numbers` keeps each chat's last alert number so that a number
  // is never reused in a chat: a Delete button on an old message can never hit a newer alert.
  // Firings outlive their alert (no cascade) as the record of what was sent.
  {
    version: 3,
    name: "price alerts, their firings and watchlists",
    up: `
CREATE TABLE alerts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  token_id TEXT NOT NULL,
  symbol TEXT NOT NULL,
  chain TEXT NOT NULL,
  rule TEXT NOT NULL,
  level TEXT NOT NULL,
  anchor_price TEXT NOT NULL,
  anchor_at BIGINT NOT NULL,
  armed INTEGER NOT NULL,
  paused_at BIGINT,
  last_fired_at BIGINT,
  created_at BIGINT NOT NULL,
  UNIQUE (platform, chat_id, number)
);
CREATE INDEX alerts_armed ON alerts (armed, token_id);
CREATE TABLE alert_numbers (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  last_number INTEGER NOT NULL,
  PRIMARY KEY (platform, chat_id)
);
CREATE TABLE alert_firings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  alert_id INTEGER NOT NULL,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  fired_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  detail TEXT
);
CREATE INDEX alert_firings_state ON alert_firings (state, id);
CREATE TABLE alert_tokens (
  token_id TEXT PRIMARY KEY,
  price TEXT,
  seen_at BIGINT,
  missing_since BIGINT
);
CREATE TABLE watchlist (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  symbol TEXT NOT NULL,
  chain TEXT NOT NULL,
  added_at BIGINT NOT NULL,
  PRIMARY KEY (platform, chat_id, token_id)
);
`,
  },
  // language: NULL = chosen per platform from the user's or server's locale.
  { version: 4, name: "chat language", up: "ALTER TABLE chats ADD COLUMN language TEXT;" },
  // An action too long for its button's data, under the short key the button carries;
  // `expires_at` is indexed for the prune.
  {
    version: 5,
    name: "button actions",
    up: `
CREATE TABLE button_actions (
  key TEXT PRIMARY KEY,
  action TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX button_actions_expiry ON button_actions (expires_at);
`,
  },
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
  // The buy feed. `buy_posts` keys a chat's buys by swap identity, so a swap seen by two polls,
  // two workers or a restarted one is owed once; `buy_messages` are the posts the send protocol
  // sends (a single buy or a summary); `buy_pairs` holds one row per pair watched for the whole
  // bot (its cursor).
  {
    version: 9,
    name: "buy feeds, pair cursors and owed buys",
    up: `
CREATE TABLE buy_feeds (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  symbol TEXT NOT NULL,
  chain TEXT NOT NULL,
  options TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (platform, chat_id, token_id)
);
CREATE INDEX buy_feeds_token ON buy_feeds (token_id);
CREATE TABLE buy_pairs (
  pair_id TEXT PRIMARY KEY,
  token_id TEXT NOT NULL,
  cursor BIGINT NOT NULL,
  last_trade_at BIGINT,
  next_poll_at BIGINT NOT NULL
);
CREATE INDEX buy_pairs_token ON buy_pairs (token_id);
CREATE TABLE buy_posts (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  swap_key TEXT NOT NULL,
  token_id TEXT NOT NULL,
  tx_time BIGINT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  queued_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  summary_id TEXT,
  PRIMARY KEY (platform, chat_id, swap_key)
);
CREATE INDEX buy_posts_state ON buy_posts (state, queued_at);
CREATE TABLE buy_messages (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  post_key TEXT NOT NULL,
  token_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  tx_time BIGINT NOT NULL,
  payload TEXT NOT NULL,
  queued_at BIGINT NOT NULL,
  ${SEND_COLUMNS},
  PRIMARY KEY (platform, chat_id, post_key)
);
CREATE INDEX buy_messages_state ON buy_messages (state, queued_at);
`,
  },
  // calls: NULL = on. The calls table's `chat_id` is the board: a Telegram chat, or a Discord
  // server whose channels share it (a server id never equals a channel id). `call_sweep` holds
  // one row, the last sweep.
  {
    version: 10,
    name: "calls",
    up: `ALTER TABLE chats ADD COLUMN calls INTEGER;
CREATE TABLE calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  symbol TEXT NOT NULL,
  chain TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  user_handle TEXT,
  called_at BIGINT NOT NULL,
  price TEXT NOT NULL,
  market_cap TEXT,
  high TEXT NOT NULL,
  high_at BIGINT,
  last_price TEXT,
  swept_to BIGINT
);
CREATE INDEX calls_board ON calls (platform, chat_id, called_at);
CREATE INDEX calls_token ON calls (token_id, called_at);
CREATE TABLE call_sweep (
  id INTEGER PRIMARY KEY,
  ran_at BIGINT NOT NULL,
  period_ms BIGINT NOT NULL,
  tokens INTEGER NOT NULL
);
`,
  },
  // card_chart: NULL = on (the default), else 0/1. A launch post is one row per (chat, token), so
  // a token reaches a chat once however often the watcher sees it.
  {
    version: 11,
    name: "chat card chart, new launches",
    up: `ALTER TABLE chats ADD COLUMN card_chart INTEGER;

CREATE TABLE launch_subscriptions (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  min_liquidity INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (platform, chat_id, chain)
);
CREATE INDEX launch_subscriptions_chain ON launch_subscriptions (chain);
CREATE TABLE launch_posts (
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  chain TEXT NOT NULL,
  payload TEXT NOT NULL,
  queued_at INTEGER NOT NULL,
  ${SEND_COLUMNS},
  PRIMARY KEY (platform, chat_id, token_id)
);
CREATE INDEX launch_posts_state ON launch_posts (state, queued_at);
`,
  },
  // Each wallet's first buy the buy feed saw of a token (its swap key), kept while some chat
  // follows the token and forgotten with its last feed; bounded per token by the watcher.
  {
    version: 12,
    name: "buy feed wallets",
    up: `
CREATE TABLE buy_wallets (
  token_id TEXT NOT NULL,
  wallet TEXT NOT NULL,
  swap_key TEXT NOT NULL,
  PRIMARY KEY (token_id, wallet)
);
`,
  },
  // The operator's page: each worker's minutes (its counters' rises and its gauges, as JSON),
  // so that any worker's page charts the whole bot. Kept a day, by `at`.
  {
    version: 13,
    name: "operator's page samples",
    up: `
CREATE TABLE ops_samples (
  worker TEXT NOT NULL,
  at BIGINT NOT NULL,
  since BIGINT NOT NULL,
  counters TEXT NOT NULL,
  gauges TEXT NOT NULL,
  PRIMARY KEY (worker, at)
);
CREATE INDEX ops_samples_at ON ops_samples (at);
`,
  },
  // The picture, GIF or video a buy feed's whale posts show: Telegram's file id, or (Discord,
  // whose links to a member's upload expire) the bot's own copy of the file, its name and type.
  // All NULL: no media.
  {
    version: 14,
    name: "buy feed media",
    up: `
ALTER TABLE buy_feeds ADD COLUMN media_kind TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_file_id TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_name TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_type TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_data BLOB;
`,
    postgres: `
ALTER TABLE buy_feeds ADD COLUMN media_kind TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_file_id TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_name TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_type TEXT;
ALTER TABLE buy_feeds ADD COLUMN media_data BYTEA;
`,
  },
  // What polls of a pair cut by their page limit left unread, as JSON ([{"after", "to"}], newest
  // first): the next polls read it after the new swaps. NULL: nothing.
  {
    version: 15,
    name: "buy feed pair gaps",
    up: "ALTER TABLE buy_pairs ADD COLUMN gaps TEXT;",
  },
  // The day's compute units per API key (named by a hash of it), so that a restart or a second
  // worker without Redis paces the day from what was spent, not from zero.
  {
    version: 16,
    name: "compute units spent per day",
    up: `
CREATE TABLE unit_spend (
  key_name TEXT NOT NULL,
  day BIGINT NOT NULL,
  units DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (key_name, day)
);
`,
  },
  // The topic of a Telegram forum the bot's own posts go to (ChatSettings.postTopic); NULL: General.
  {
    version: 17,
    name: "chat post topic",
    up: "ALTER TABLE chats ADD COLUMN post_topic TEXT;",
  },
  // A chat's buys still to be turned into posts, read for every chat owed at each turn of the
  // feed: by the primary key that read went through every buy the chat was sent in the week its
  // records are kept, thousands for a busy token's group at every second.
  {
    version: 18,
    name: "a chat's queued buys",
    up: "CREATE INDEX buy_posts_queued ON buy_posts (platform, chat_id, tx_time, swap_key) WHERE state = 'queued';",
  },
];

/**
 * Tables whose rows belong to one chat, keyed by `(platform, chat_id)`. `forgetChat`,
 * `forgetGuild` and `moveChat` act on every table listed here: a migration that adds such a
 * table appends its name.
 */
export const chatTables: string[] = [
  "chats",
  "subscriptions",
  "alerts",
  "alert_numbers",
  "alert_firings",
  "watchlist",
  "calls",
  "buy_feeds",
  "buy_posts",
  "buy_messages",
  "launch_subscriptions",
  "launch_posts",
];
