/**
 * The `Store` on PostgreSQL through `pg`, chosen by DATABASE_URL: the same tables, migrations
 * and behaviour as the SQLite store, shared by every process that points at the database.
 * While the server is lost, a chat's settings are answered from what this process last read
 * or wrote, and changes fail with a StoreError the core turns into one sentence.
 */
import type { Logger } from "pino";
import { currentAsk, timeLeft } from "../../market/ask.js";
import { applySettingsPatch, flagColumn, toSettings, type SettingsRow } from "../chat-settings.js";
import { isStoreError, StoreError } from "../errors.js";
import { OutageCache } from "./outage-cache.js";
import { chatTables, migrations as projectMigrations, type Migration } from "../migrations.js";
import { postgresAlerts, postgresWatchlists } from "./alerts.js";
import { postgresButtonActions } from "./button-actions.js";
import { postgresBuys } from "./buys.js";
import { postgresCalls } from "./calls.js";
import { migratePostgres } from "./migrate.js";
import { createSql, type Sql, type SqlRunner } from "./sql.js";
import { postgresSubscriptions } from "./subscriptions.js";
import { postgresLaunches } from "./launches.js";
import { postgresOpsSamples } from "./ops-samples.js";
import { postgresUnitSpend } from "./unit-spend.js";
import type {
  AlertStore, BuyFeedStore, ButtonActionStore, CallStore, ChatKey, ChatSettings, LaunchStore, OpsSampleStore, Platform, RecentSend, Store, StoreHealth, UnitSpendStore,
  SubscriptionStore, WatchlistStore,
} from "../types.js";
import { recentSendsQuery } from "../send-rows.js";

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  logger?: Logger;
  /** Schema to bring the database to. Default: the project's migrations. */
  migrations?: readonly Migration[];
  /** Tables keyed by `(platform, chat_id)` that forget and move act on. Default: the project's. */
  chatTables?: readonly string[];
  /** How long a query waits for a connection before the server counts as lost, ms. Default 5000. */
  connectTimeoutMs?: number;
  /** How long one query may wait for its answer before the server counts as lost, ms. Default 15000. */
  queryTimeoutMs?: number;
}

/** How long `health` waits for the server: inside readiness' 2 s for a check. */
const HEALTH_WAIT_MS = 1_500;

export class PostgresStore implements Store {
  readonly subscriptions: SubscriptionStore;
  readonly alerts: AlertStore;
  readonly watchlists: WatchlistStore;
  readonly buttonActions: ButtonActionStore;
  readonly calls: CallStore;
  readonly buys: BuyFeedStore;
  readonly launches: LaunchStore;
  readonly opsSamples: OpsSampleStore;
  readonly unitSpend: UnitSpendStore;
  private readonly cache: OutageCache;
  /** Versions of the migrations this open applied (empty when the schema was current). */
  applied: readonly number[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly tables: readonly string[],
  ) {
    this.cache = new OutageCache({ server: `PostgreSQL at DATABASE_URL (${sql.where})`, timeLeft: () => timeLeft(currentAsk()) });
    this.subscriptions = withCachedSubscriptions(postgresSubscriptions(sql), this.cache);
    this.alerts = withCachedAlerts(postgresAlerts(sql), this.cache);
    this.watchlists = withCachedWatchlist(postgresWatchlists(sql), this.cache);
    this.buttonActions = postgresButtonActions(sql);
    this.calls = postgresCalls(sql);
    this.buys = postgresBuys(sql);
    this.launches = postgresLaunches(sql);
    this.opsSamples = postgresOpsSamples(sql);
    this.unitSpend = postgresUnitSpend(sql);
  }

  /** Where the database is (host, port, name), for messages. */
  get where(): string {
    return this.sql.where;
  }

  async getSettings(chat: ChatKey): Promise<ChatSettings> {
    return this.cache.read(chat, "settings", async () => toSettings(await this.settingsRow(this.sql, chat)));
  }

  async updateSettings(chat: ChatKey, patch: Partial<ChatSettings>): Promise<ChatSettings> {
    const next = await this.sql.transaction(async (tx) => {
      const current = await this.settingsRow(tx, chat, true);
      const settings = applySettingsPatch(toSettings(current), patch);
      await tx.write(
        `INSERT INTO chats (platform, chat_id, default_chain, autodetect, timezone, language, card_chart, calls, post_topic) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (platform, chat_id) DO UPDATE SET
           default_chain = excluded.default_chain, autodetect = excluded.autodetect, timezone = excluded.timezone,
           language = excluded.language, card_chart = excluded.card_chart, calls = excluded.calls, post_topic = excluded.post_topic`,
        [
          chat.platform, chat.chatId, settings.defaultChain ?? null,
          flagColumn(settings.autodetect), settings.timezone, settings.language ?? null, flagColumn(settings.cardChart),
          flagColumn(settings.calls), settings.postTopic ?? null,
        ],
      );
      return settings;
    });
    this.cache.set(chat, "settings", next);
    return next;
  }

  async recentSends(platform: Platform, since: number): Promise<RecentSend[]> {
    const rows = await this.sql.read<{ chat_id: string; at: number }>(recentSendsQuery("$1", "$2"), [platform, since]);
    return rows.map((r) => ({ chatId: r.chat_id, at: r.at }));
  }

  async forgetChat(chat: ChatKey): Promise<void> {
    await this.sql.transaction((tx) => this.deleteChat(tx, chat.platform, chat.chatId));
    this.cache.forget(chat);
  }

  async forgetGuild(guildId: string): Promise<void> {
    const chats = await this.sql.transaction(async (tx) => {
      const rows = await tx.read<{ platform: string; chat_id: string }>("SELECT platform, chat_id FROM chats WHERE guild_id = $1 FOR UPDATE", [guildId]);
      for (const c of rows) await this.deleteChat(tx, c.platform, c.chat_id);
      // The server's board of calls is keyed by the server, not by any of its channels.
      if (this.tables.includes("calls")) await tx.write("DELETE FROM calls WHERE platform = 'discord' AND chat_id = $1", [guildId]);
      return rows;
    });
    for (const c of chats) this.cache.forget({ platform: c.platform as ChatKey["platform"], chatId: c.chat_id });
  }

  async noteGuild(chat: ChatKey, guildId: string): Promise<void> {
    await this.sql.write(
      `INSERT INTO chats (platform, chat_id, guild_id) VALUES ($1, $2, $3)
       ON CONFLICT (platform, chat_id) DO UPDATE SET guild_id = excluded.guild_id`,
      [chat.platform, chat.chatId, guildId],
    );
  }

  async guildOf(chat: ChatKey): Promise<string | undefined> {
    const rows = await this.sql.read<{ guild_id: string | null }>("SELECT guild_id FROM chats WHERE platform = $1 AND chat_id = $2", [chat.platform, chat.chatId]);
    return rows[0]?.guild_id ?? undefined;
  }

  /** As SqliteStore.moveChat: the moved chat's state wins over what the new id had. */
  async moveChat(from: ChatKey, toChatId: string): Promise<void> {
    if (from.chatId === toChatId) return;
    await this.sql.transaction(async (tx) => {
      let any = false;
      for (const table of this.tables) {
        const rows = await tx.read(`SELECT 1 FROM ${table} WHERE platform = $1 AND chat_id = $2 LIMIT 1`, [from.platform, from.chatId]);
        if (rows.length > 0) any = true;
      }
      if (!any) return;
      await this.deleteChat(tx, from.platform, toChatId);
      for (const table of this.tables) {
        await tx.write(`UPDATE ${table} SET chat_id = $1 WHERE platform = $2 AND chat_id = $3`, [toChatId, from.platform, from.chatId]);
      }
    });
    this.cache.forget(from);
    this.cache.forget({ platform: from.platform, chatId: toChatId });
  }

  isOpen(): boolean {
    return !this.sql.ended;
  }

  async health(): Promise<StoreHealth> {
    if (this.sql.ended) return { ok: false, detail: "database closed" };
    // A hung server holds a ping until the driver's query timeout: it is said, naming the
    // database, before readiness gives up on the check (2 s) and could only say it was slow.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<StoreHealth>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, detail: `PostgreSQL at DATABASE_URL (${this.sql.where}) did not answer within ${HEALTH_WAIT_MS} ms` }), HEALTH_WAIT_MS);
    });
    const pinged = this.sql.ping().then(
      (): StoreHealth => ({ ok: true }),
      (e: unknown): StoreHealth => ({ ok: false, detail: isStoreError(e) ? e.message : `PostgreSQL at DATABASE_URL (${this.sql.where}) failed: ${String(e)}` }),
    );
    try {
      return await Promise.race([pinged, hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.sql.end();
  }

  private async settingsRow(runner: SqlRunner, chat: ChatKey, forUpdate = false): Promise<SettingsRow | undefined> {
    const rows = await runner.read<SettingsRow>(
      `SELECT default_chain, autodetect, timezone, language, card_chart, calls, post_topic FROM chats WHERE platform = $1 AND chat_id = $2${forUpdate ? " FOR UPDATE" : ""}`,
      [chat.platform, chat.chatId],
    );
    return rows[0];
  }

  private async deleteChat(tx: SqlRunner, platform: string, chatId: string): Promise<void> {
    for (const table of this.tables) {
      await tx.write(`DELETE FROM ${table} WHERE platform = $1 AND chat_id = $2`, [platform, chatId]);
    }
  }
}

/** Connects to DATABASE_URL and brings the database to the newest schema. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const sql = createSql({
    url: options.url, logger: options.logger, connectTimeoutMs: options.connectTimeoutMs, queryTimeoutMs: options.queryTimeoutMs,
  });
  let applied: number[];
  try {
    applied = await migratePostgres(sql, { migrations: options.migrations ?? projectMigrations, logger: options.logger });
  } catch (e) {
    await sql.end();
    // A schema this build cannot bring the database to (one written by a newer chainpulse)
    // is a database it cannot use: one line naming DATABASE_URL, like a refused login.
    throw isStoreError(e) ? e : new StoreError("unusable", `the PostgreSQL database at DATABASE_URL (${sql.where}) cannot be used: ${e instanceof Error ? e.message : String(e)}`, { write: true, cause: e });
  }
  options.logger?.debug({ database: sql.where }, "database open");
  const store = new PostgresStore(sql, options.chatTables ?? chatTables);
  store.applied = applied;
  return store;
}

/** A chat's list is answered from the outage cache; a change to the chat makes it read afresh. */
function withCachedSubscriptions(store: SubscriptionStore, cache: OutageCache): SubscriptionStore {
  return {
    ...store,
    listSubscriptions: (chat) => cache.read(chat, "subscriptions", () => store.listSubscriptions(chat)),
    upsertSubscription: (s, now) => cache.change(s, "subscriptions", () => store.upsertSubscription(s, now)),
    removeSubscriptions: (chat, chain) => cache.change(chat, "subscriptions", () => store.removeSubscriptions(chat, chain)),
  };
}

function withCachedAlerts(store: AlertStore, cache: OutageCache): AlertStore {
  return {
    ...store,
    listAlerts: (chat) => cache.read(chat, "alerts", () => store.listAlerts(chat)),
    addAlert: (a, max, now) => cache.change(a, "alerts", () => store.addAlert(a, max, now)),
    removeAlerts: (chat, number) => cache.change(chat, "alerts", () => store.removeAlerts(chat, number)),
    rearmAlert: (chat, number, price, now) => cache.change(chat, "alerts", () => store.rearmAlert(chat, number, price, now)),
  };
}

function withCachedWatchlist(store: WatchlistStore, cache: OutageCache): WatchlistStore {
  return {
    ...store,
    listWatched: (chat) => cache.read(chat, "watchlist", () => store.listWatched(chat)),
    addWatched: (chat, tokens, max, now) => cache.change(chat, "watchlist", () => store.addWatched(chat, tokens, max, now)),
    removeWatched: (chat, tokenId) => cache.change(chat, "watchlist", () => store.removeWatched(chat, tokenId)),
  };
}
