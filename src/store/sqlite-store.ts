/**
 * The `Store` on one SQLite file through better-sqlite3. Queries are plain SQL with
 * `ON CONFLICT` upserts, which PostgreSQL runs as well; only the pragmas are SQLite's own.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { Logger } from "pino";
import { applySettingsPatch, DEFAULT_TIMEZONE } from "./chat-settings.js";
import { migrate } from "./migrate.js";
import { chatTables, migrations as projectMigrations, type Migration } from "./migrations.js";
import { sqliteSubscriptions } from "./subscriptions-sqlite.js";
import type { ChatKey, ChatSettings, Store, SubscriptionStore } from "./types.js";

export interface SqliteStoreOptions {
  /** Database file; its folder is created. `:memory:` keeps everything in memory (tests). */
  path: string;
  logger?: Logger;
  /** How long a write waits for another process's lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /** Schema to bring the file to. Default: the project's migrations. */
  migrations?: readonly Migration[];
  /** Tables keyed by `(platform, chat_id)` that forget and move act on. Default: the project's. */
  chatTables?: readonly string[];
}

interface SettingsRow {
  default_chain: string | null;
  autodetect: number | null;
  timezone: string;
}

function toSettings(row: SettingsRow | undefined): ChatSettings {
  if (row === undefined) return { timezone: DEFAULT_TIMEZONE };
  return {
    ...(row.default_chain === null ? {} : { defaultChain: row.default_chain }),
    ...(row.autodetect === null ? {} : { autodetect: row.autodetect === 1 }),
    timezone: row.timezone,
  };
}

function statements(db: Database.Database) {
  return {
    settings: db.prepare("SELECT default_chain, autodetect, timezone FROM chats WHERE platform = ? AND chat_id = ?"),
    upsertSettings: db.prepare(`
      INSERT INTO chats (platform, chat_id, default_chain, autodetect, timezone)
      VALUES (@platform, @chatId, @defaultChain, @autodetect, @timezone)
      ON CONFLICT (platform, chat_id) DO UPDATE SET
        default_chain = excluded.default_chain, autodetect = excluded.autodetect, timezone = excluded.timezone`),
    noteGuild: db.prepare(`
      INSERT INTO chats (platform, chat_id, guild_id) VALUES (?, ?, ?)
      ON CONFLICT (platform, chat_id) DO UPDATE SET guild_id = excluded.guild_id`),
    guildChats: db.prepare("SELECT platform, chat_id FROM chats WHERE guild_id = ?"),
  };
}

function isMemory(path: string): boolean {
  return path === ":memory:" || path === "";
}

export class SqliteStore implements Store {
  /** The open connection, for extensions such as the digest's subscription queries. */
  readonly db: Database.Database;
  private subs: SubscriptionStore | undefined;
  private readonly tables: readonly string[];
  private readonly q: ReturnType<typeof statements>;

  constructor(db: Database.Database, tables: readonly string[]) {
    this.db = db;
    this.tables = tables;
    this.q = statements(db);
  }

  /** Prepared on first use: a store opened with a custom schema (tests) may not have the tables. */
  get subscriptions(): SubscriptionStore {
    this.subs ??= sqliteSubscriptions(this.db);
    return this.subs;
  }

  async getSettings(chat: ChatKey): Promise<ChatSettings> {
    return toSettings(this.q.settings.get(chat.platform, chat.chatId) as SettingsRow | undefined);
  }

  async updateSettings(chat: ChatKey, patch: Partial<ChatSettings>): Promise<ChatSettings> {
    return this.db.transaction(() => {
      const next = applySettingsPatch(toSettings(this.q.settings.get(chat.platform, chat.chatId) as SettingsRow | undefined), patch);
      this.q.upsertSettings.run({
        platform: chat.platform,
        chatId: chat.chatId,
        defaultChain: next.defaultChain ?? null,
        autodetect: next.autodetect === undefined ? null : next.autodetect ? 1 : 0,
        timezone: next.timezone,
      });
      return next;
    })();
  }

  async forgetChat(chat: ChatKey): Promise<void> {
    this.db.transaction(() => this.deleteChat(chat.platform, chat.chatId))();
  }

  async forgetGuild(guildId: string): Promise<void> {
    this.db.transaction(() => {
      const chats = this.q.guildChats.all(guildId) as { platform: string; chat_id: string }[];
      for (const c of chats) this.deleteChat(c.platform, c.chat_id);
    })();
  }

  async noteGuild(chat: ChatKey, guildId: string): Promise<void> {
    this.q.noteGuild.run(chat.platform, chat.chatId, guildId);
  }

  /**
   * Moves everything of `from` to `toChatId` on the same platform. When the new id already
   * has state of its own, the moved chat's wins: it is what the admins built up over time,
   * while the new id can only have existed for the moments since the migration.
   */
  async moveChat(from: ChatKey, toChatId: string): Promise<void> {
    if (from.chatId === toChatId) return;
    this.db.transaction(() => {
      // Nothing to carry over: leave whatever the new id has alone.
      if (!this.hasRows(from.platform, from.chatId)) return;
      this.deleteChat(from.platform, toChatId);
      for (const table of this.tables) {
        this.db.prepare(`UPDATE ${table} SET chat_id = ? WHERE platform = ? AND chat_id = ?`).run(toChatId, from.platform, from.chatId);
      }
    })();
  }

  isOpen(): boolean {
    return this.db.open;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private deleteChat(platform: string, chatId: string): void {
    for (const table of this.tables) {
      this.db.prepare(`DELETE FROM ${table} WHERE platform = ? AND chat_id = ?`).run(platform, chatId);
    }
  }

  private hasRows(platform: string, chatId: string): boolean {
    return this.tables.some(
      (table) => this.db.prepare(`SELECT 1 FROM ${table} WHERE platform = ? AND chat_id = ?`).get(platform, chatId) !== undefined,
    );
  }
}

/**
 * Opens (creating if needed) the database at `options.path`, in WAL mode with a busy
 * timeout and foreign keys on, and brings it to the newest schema.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const { path, logger } = options;
  if (!isMemory(path)) mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (e) {
    throw new Error(`cannot open the database at ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    // WAL lets readers run while the poster writes; NORMAL sync is durable enough under WAL.
    if (!isMemory(path)) db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    migrate(db, { migrations: options.migrations ?? projectMigrations, logger });
  } catch (e) {
    db.close();
    throw e;
  }
  logger?.debug({ path }, "database open");
  return new SqliteStore(db, options.chatTables ?? chatTables);
}
