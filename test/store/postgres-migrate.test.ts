import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrations as projectMigrations, type Migration } from "../../src/store/migrations.js";
import { postgresSchema } from "../../src/store/postgres/migrate.js";
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from "../../src/store/postgres/store.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";

const NEXT = Math.max(...projectMigrations.map((m) => m.version)) + 1;
const projectVersions = projectMigrations.map((m) => m.version);
const notesMigration: Migration = {
  version: NEXT,
  name: "notes",
  up: "CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, chat_id TEXT NOT NULL, at INTEGER NOT NULL)",
};
const withNotes = { migrations: [...projectMigrations, notesMigration], chatTables: ["chats", "subscriptions", "notes"] };

let engine: PostgresEngine;
let url: string;
const opened: PostgresStore[] = [];

beforeAll(async () => {
  engine = await startPostgres();
});
afterAll(async () => {
  await engine.destroy();
});
beforeEach(async () => {
  url = await engine.createDatabase();
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function open(options: Partial<PostgresStoreOptions> = {}): Promise<PostgresStore> {
  const store = await openPostgresStore({ url, ...options });
  opened.push(store);
  return store;
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const versions = async () => (await query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version")).map((r) => r.version);

describe("PostgreSQL migrations", () => {
  it("applies each migration once, also when several processes start at the same moment", async () => {
    const stores = await Promise.all([open(), open(), open(), open()]);
    expect(stores.flatMap((s) => s.applied).sort((a, b) => a - b)).toEqual(projectVersions);
    expect(await versions()).toEqual(projectVersions);
    expect((await open()).applied).toEqual([]);
  });

  it("applies a migration appended later on top of existing data, epoch milliseconds and identities included", async () => {
    const before = await open();
    await before.updateSettings({ platform: "telegram", chatId: "7" }, { defaultChain: "bsc" });
    const after = await open(withNotes);
    expect(after.applied).toEqual([NEXT]);
    await query("INSERT INTO notes (platform, chat_id, at) VALUES ('telegram', '7', $1)", [Date.UTC(2026, 10, 24)]);
    expect(await query("SELECT id, at FROM notes")).toEqual([{ id: "1", at: String(Date.UTC(2026, 10, 24)) }]);
    expect(await after.getSettings({ platform: "telegram", chatId: "7" })).toEqual({ defaultChain: "bsc", timezone: "UTC" });
  });

  it("rolls a failing migration back whole and records nothing of it", async () => {
    const broken: Migration = { version: NEXT, name: "broken", up: "CREATE TABLE half_done (x INTEGER); CREATE TABLE oops (" };
    await expect(open({ migrations: [...projectMigrations, broken] })).rejects.toThrow();
    await open();
    expect(await versions()).toEqual(projectVersions);
    expect(await query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
  });

  it("runs a migration's own PostgreSQL form, and refuses a function migration without one", async () => {
    const seeded: Migration = {
      version: NEXT,
      name: "seeded",
      up: (db) => db.exec("CREATE TABLE seeds (n INTEGER)"),
      postgres: "CREATE TABLE seeds (n BIGINT); INSERT INTO seeds VALUES (42);",
    };
    await open({ migrations: [...projectMigrations, seeded] });
    expect(await query("SELECT n FROM seeds")).toEqual([{ n: "42" }]);

    url = await engine.createDatabase();
    const bare: Migration = { version: NEXT, name: "bare", up: (db) => db.exec("SELECT 1") };
    await expect(open({ migrations: [...projectMigrations, bare] })).rejects.toThrow(/migration \d+ "bare" has no PostgreSQL form/);
  });

  it("refuses a database written by a newer build, naming the version", async () => {
    await open(withNotes);
    await expect(open()).rejects.toThrow(new RegExp(`schema version ${NEXT}.*newer chainpulse`));
  });

  it("forgets and moves a chat's rows in every chat table a migration added", async () => {
    const store = await open(withNotes);
    await query("INSERT INTO notes (platform, chat_id, at) VALUES ('telegram', '-1', 1), ('telegram', '-2', 2), ('telegram', '-3', 3)");
    await store.forgetChat({ platform: "telegram", chatId: "-1" });
    await store.moveChat({ platform: "telegram", chatId: "-2" }, "-200");
    expect(await query("SELECT chat_id FROM notes ORDER BY at")).toEqual([{ chat_id: "-200" }, { chat_id: "-3" }]);
  });
});

describe("postgresSchema", () => {
  it("turns SQLite's AUTOINCREMENT key into an identity and INTEGER into BIGINT, leaving the rest", () => {
    expect(postgresSchema("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, n integer NOT NULL, s TEXT, INTEGERS TEXT)")).toBe(
      "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL, s TEXT, INTEGERS TEXT)",
    );
  });
});
