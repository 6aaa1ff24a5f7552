/**
 * The `Store` on one SQLite file through better-sqlite3. Queries are plain SQL with
 * `ON CONFLICT` upserts, which PostgreSQL runs as well; only the pragmas are SQLite's own.
 */
import Database from "better-sqlite3";
import type { Logger } from "pino";
import { applySettingsPatch, flagColumn, toSettings, type SettingsRow } from "../chat-settings.js";
import { migrate } from "./migrate.js";
import { chatTables, migrations as projectMigrations, NewerSchemaError, type Migration } from "../migrations.js";
import { sqliteAlerts, sqliteWatchlists } from "./alerts.js";
import { ensureDatabaseFolder } from "./database-folder.js";
import { sqliteStoreError, StoreError } from "../errors.js";
import { SqliteGuard } from "./guard.js";
import { sqliteButtonActions } from "./button-actions.js";
import { sqliteBuys } from "./buys.js";
import { sqliteCalls } from "./calls.js";
import { sqliteSubscriptions } from "./subscriptions.js";
import type {
  AlertStore, BuyFeedStore, ButtonActionStore, CallStore, ChatKey, ChatSettings, LaunchStore, OpsSampleStore, Platform, RecentSend, Store, StoreHealth, UnitSpendStore,
  SubscriptionStore, WatchlistStore,
} from "../types.js";
import { recentSendsQuery } from "../send-rows.js";
import { sqliteLaunches } from "./launches.js";
import { sqliteOpsSamples } from "./ops-samples.js";
import { sqliteUnitSpend } from "./unit-spend.js";

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

function statements(db: Database.Database) {
  return {
    settings: db.prepare("SELECT default_chain, autodetect, timezone, language, card_chart, calls, post_topic FROM chats WHERE platform = ? AND chat_id = ?"),
    upsertSettings: db.prepare(`
      INSERT INTO chats (platform, chat_id, default_chain, autodetect, timezone, language, card_chart, calls, post_topic)
      VALUES (@platform, @chatId, @defaultChain, @autodetect, @timezone, @language, @cardChart, @calls, @postTopic)
      ON CONFLICT (platform, chat_id) DO UPDATE SET
        default_chain = excluded.default_chain, autodetect = excluded.autodetect, timezone = excluded.timezone,
        language = excluded.language, card_chart = excluded.card_chart, calls = excluded.calls, post_topic = excluded.post_topic`),
    forgetBoard: db.prepare("DELETE FROM calls WHERE platform = 'discord' AND chat_id = ?"),
    noteGuild: db.prepare(`
      INSERT INTO chats (platform, chat_id, guild_id) VALUES (?, ?, ?)
      ON CONFLICT (platform, chat_id) DO UPDATE SET guild_id = excluded.guild_id`),
    guildChats: db.prepare("SELECT platform, chat_id FROM chats WHERE guild_id = ?"),
    guildOf: db.prepare("SELECT guild_id FROM chats WHERE platform = ? AND chat_id = ?"),
  };
}

function isMemory(path: string): boolean {
  return path === ":memory:" || path === "";
}

export class SqliteStore implements Store {
  /** The open connection, for extensions such as the digest's subscription queries. */
  readonly db: Database.Database;
  private subs: SubscriptionStore | undefined;
  private alertStore: AlertStore | undefined;
  private watchlistStore: WatchlistStore | undefined;
  private launchStore: LaunchStore | undefined;
  private readonly tables: readonly string[];
  private statements: ReturnType<typeof statements> | undefined;
  private readonly guard: SqliteGuard;
  private buttonActionStore: ButtonActionStore | undefined;
  private callStore: CallStore | undefined;
  private buyStore: BuyFeedStore | undefined;
  private opsSampleStore: OpsSampleStore | undefined;
  private unitSpendStore: UnitSpendStore | undefined;
  /** Versions of the migrations this open applied (empty when the schema was current). */
  applied: readonly number[] = [];

  constructor(db: Database.Database, tables: readonly string[], path = db.name) {
    this.db = db;
    this.tables = tables;
    this.guard = new SqliteGuard(path);
  }

  /** Prepared on first use: a store opened with an older schema (tests) may lack a column they name. */
  private get q(): ReturnType<typeof statements> {
    this.statements ??= statements(this.db);
    return this.statements;
  }

  /** Prepared on first use: a store opened with a custom schema (tests) may not have the tables. */
  get subscriptions(): SubscriptionStore {
    this.subs ??= this.guard.wrap(sqliteSubscriptions(this.db));
    return this.subs;
  }

  get alerts(): AlertStore {
    this.alertStore ??= this.guard.wrap(sqliteAlerts(this.db));
    return this.alertStore;
  }

  get buttonActions(): ButtonActionStore {
    this.buttonActionStore ??= this.guard.wrap(sqliteButtonActions(this.db));
    return this.buttonActionStore;
  }

  get calls(): CallStore {
    this.callStore ??= this.guard.wrap(sqliteCalls(this.db));
    return this.callStore;
  }

  get buys(): BuyFeedStore {
    this.buyStore ??= this.guard.wrap(sqliteBuys(this.db));
    return this.buyStore;
  }

  get launches(): LaunchStore {
    this.launchStore ??= this.guard.wrap(sqliteLaunches(this.db));
    return this.launchStore;
  }

  get opsSamples(): OpsSampleStore {
    this.opsSampleStore ??= this.guard.wrap(sqliteOpsSamples(this.db));
    return this.opsSampleStore;
  }

  get unitSpend(): UnitSpendStore {
    this.unitSpendStore ??= this.guard.wrap(sqliteUnitSpend(this.db));
    return this.unitSpendStore;
  }

  get watchlists(): WatchlistStore {
    this.watchlistStore ??= this.guard.wrap(sqliteWatchlists(this.db));
    return this.watchlistStore;
  }

  async getSettings(chat: ChatKey): Promise<ChatSettings> {
    return this.guard.run("getSettings", () => toSettings(this.q.settings.get(chat.platform, chat.chatId) as SettingsRow | undefined));
  }

  async updateSettings(chat: ChatKey, patch: Partial<ChatSettings>): Promise<ChatSettings> {
    return this.guard.run("updateSettings", () => this.db.transaction(() => {
      const next = applySettingsPatch(toSettings(this.q.settings.get(chat.platform, chat.chatId) as SettingsRow | undefined), patch);
      this.q.upsertSettings.run({
        platform: chat.platform,
        chatId: chat.chatId,
        defaultChain: next.defaultChain ?? null,
        autodetect: flagColumn(next.autodetect),
        timezone: next.timezone,
        language: next.language ?? null,
        cardChart: flagColumn(next.cardChart),
        calls: flagColumn(next.calls),
        postTopic: next.postTopic ?? null,
      });
      return next;
    })());
  }

  async forgetChat(chat: ChatKey): Promise<void> {
    this.guard.run("forgetChat", () => this.db.transaction(() => this.deleteChat(chat.platform, chat.chatId))());
  }

  async forgetGuild(guildId: string): Promise<void> {
    this.guard.run("forgetGuild", () => this.db.transaction(() => {
      const chats = this.q.guildChats.all(guildId) as { platform: string; chat_id: string }[];
      for (const c of chats) this.deleteChat(c.platform, c.chat_id);
      // The server's board of calls is keyed by the server, not by any of its channels.
      if (this.tables.includes("calls")) this.q.forgetBoard.run(guildId);
    })());
  }

  async noteGuild(chat: ChatKey, guildId: string): Promise<void> {
    this.guard.run("noteGuild", () => this.q.noteGuild.run(chat.platform, chat.chatId, guildId));
  }

  async guildOf(chat: ChatKey): Promise<string | undefined> {
    return this.guard.run("guildOf", () => (this.q.guildOf.get(chat.platform, chat.chatId) as { guild_id: string | null } | undefined)?.guild_id ?? undefined);
  }

  /**
   * Moves everything of `from` to `toChatId` on the same platform. When the new id already
   * has state of its own, the moved chat's wins: it is what the admins built up over time,
   * while the new id can only have existed for the moments since the migration.
   */
  async moveChat(from: ChatKey, toChatId: string): Promise<void> {
    if (from.chatId === toChatId) return;
    this.guard.run("moveChat", () => this.db.transaction(() => {
      // Nothing to carry over: leave whatever the new id has alone.
      if (!this.hasRows(from.platform, from.chatId)) return;
      this.deleteChat(from.platform, toChatId);
      for (const table of this.tables) {
        this.db.prepare(`UPDATE ${table} SET chat_id = ? WHERE platform = ? AND chat_id = ?`).run(toChatId, from.platform, from.chatId);
      }
    })());
  }

  async recentSends(platform: Platform, since: number): Promise<RecentSend[]> {
    return this.guard.run("recentSends", () =>
      (this.db.prepare(recentSendsQuery("@platform", "@since")).all({ platform, since }) as { chat_id: string; at: number }[]).map((r) => ({ chatId: r.chat_id, at: r.at })));
  }

  isOpen(): boolean {
    return this.db.open;
  }

  async health(): Promise<StoreHealth> {
    if (!this.db.open) return { ok: false, detail: "database closed" };
    return this.guard.health();
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
  if (!isMemory(path)) ensureDatabaseFolder(path);
  let db: Database.Database;
  let applied: number[];
  try {
    db = new Database(path);
  } catch (e) {
    throw openFailure(e, path);
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    // WAL lets readers run while the poster writes; NORMAL sync is durable enough under WAL.
    if (!isMemory(path)) db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    applied = migrate(db, { migrations: options.migrations ?? projectMigrations, logger });
  } catch (e) {
    db.close();
    throw openFailure(e, path);
  }
  logger?.debug({ path }, "database open");
  const store = new SqliteStore(db, options.chatTables ?? chatTables, path);
  store.applied = applied;
  return store;
}

/** Why the file could not be opened, as one line that names DATABASE_PATH and the way out. */
function openFailure(e: unknown, path: string): unknown {
  if (e instanceof NewerSchemaError) return new StoreError("unusable", `the database at DATABASE_PATH (${path}) cannot be used: ${e.message}`, { write: true, cause: e });
  const translated = sqliteStoreError(e, path, true);
  const detail = e instanceof Error ? e.message : String(e);
  if (translated === undefined) {
    if ((e as { code?: unknown }).code === undefined) return e;
    return new StoreError("unusable", `cannot open the database at DATABASE_PATH (${path}): ${detail}`, { cause: e });
  }
  const what = `the database at DATABASE_PATH (${path})`;
  const line: Record<typeof translated.kind, string> = {
    unusable: `${what} is not a SQLite database or is damaged (${detail}): restore it from a backup, or move it away to start afresh`,
    "read-only": `${what} cannot be written (${detail}): make the file and its folder writable by the user the bot runs as`,
    full: `${what} cannot grow: the disk is full (${detail}); free space, or set DATABASE_PATH to another disk`,
    unavailable: `${what} cannot be opened (${detail})`,
    timeout: `${what} cannot be opened (${detail})`,
    invalid: `${what} cannot be opened (${detail})`,
  };
  return new StoreError(translated.kind, line[translated.kind], { write: true, cause: e });
}
