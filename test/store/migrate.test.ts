import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { migrations as projectMigrations, type Migration } from "../../src/store/migrations.js";
import { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from "../../src/store/sqlite/store.js";

/** The version a migration appended after the project's own gets. */
const NEXT = Math.max(...projectMigrations.map((m) => m.version)) + 1;
const projectVersions = projectMigrations.map((m) => m.version);
const projectRecords = projectMigrations.map((m) => ({ version: m.version, name: m.name }));

/** A chat-keyed table as an extension would add it. */
const notesMigration: Migration = {
  version: NEXT,
  name: "notes",
  up: "CREATE TABLE notes (platform TEXT NOT NULL, chat_id TEXT NOT NULL, body TEXT NOT NULL)",
};
const withNotes = { migrations: [...projectMigrations, notesMigration], chatTables: ["chats", "subscriptions", "notes"] };

let dir: string;
let path: string;
const opened: SqliteStore[] = [];

async function open(options: Partial<SqliteStoreOptions> = {}): Promise<SqliteStore> {
  const store = await openSqliteStore({ path, ...options });
  opened.push(store);
  return store;
}

function recorded(store: SqliteStore): { version: number; name: string }[] {
  return store.db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all() as { version: number; name: string }[];
}

function tables(store: SqliteStore): string[] {
  return (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chainpulse-migrate-"));
  path = join(dir, "chainpulse.db");
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("migrations", () => {
  it("applies each migration once and records it, also over several opens", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: "info", pretty: false, destination, secrets: [] });

    const first = await open({ logger });
    expect(recorded(first)).toEqual(projectRecords);
    await first.close();
    const second = await open({ logger });
    await second.close();
    const third = await open({ logger });

    expect(recorded(third)).toEqual(projectRecords);
    expect(lines.filter((l) => l.includes("database migration applied"))).toHaveLength(projectMigrations.length);
  });

  it("applies a migration appended later on top of existing data", async () => {
    const before = await open();
    await before.updateSettings({ platform: "telegram", chatId: "7" }, { defaultChain: "bsc" });
    await before.close();

    const after = await open(withNotes);

    expect(recorded(after).map((r) => r.version)).toEqual([...projectVersions, NEXT]);
    expect(tables(after)).toContain("notes");
    expect(await after.getSettings({ platform: "telegram", chatId: "7" })).toEqual({ defaultChain: "bsc", timezone: "UTC" });
  });

  it("rolls a failing migration back whole and records nothing of it", async () => {
    const broken: Migration = {
      version: NEXT,
      name: "broken",
      up: "CREATE TABLE half_done (x INTEGER); CREATE TABLE oops (",
    };

    await expect(open({ migrations: [...projectMigrations, broken] })).rejects.toThrow();

    const store = await open();
    expect(recorded(store).map((r) => r.version)).toEqual(projectVersions);
    expect(tables(store)).not.toContain("half_done");
  });

  it("runs a migration given as a function", async () => {
    const seeded: Migration = {
      version: NEXT,
      name: "seeded",
      up: (db) => {
        db.exec("CREATE TABLE seeds (n INTEGER)");
        db.prepare("INSERT INTO seeds (n) VALUES (?)").run(42);
      },
    };
    const store = await open({ migrations: [...projectMigrations, seeded] });
    expect(store.db.prepare("SELECT n FROM seeds").pluck().get()).toBe(42);
  });

  it("refuses a database written by a newer build, naming the version", async () => {
    await (await open(withNotes)).close();

    await expect(open()).rejects.toThrow(new RegExp(`schema version ${NEXT}.*newer chainpulse`));
  });

  it("refuses a migration list whose versions do not increase", async () => {
    const clash: Migration = { version: 1, name: "clash", up: "SELECT 1" };
    await expect(open({ migrations: [...projectMigrations, clash] })).rejects.toThrow(/"clash" has version 1/);
  });
});

describe("chat tables added by migrations", () => {
  function notes(store: SqliteStore, chatId: string): string[] {
    return store.db.prepare("SELECT body FROM notes WHERE platform = 'telegram' AND chat_id = ? ORDER BY body").pluck().all(chatId) as string[];
  }

  it("forgets a chat's rows in every chat table", async () => {
    const store = await open(withNotes);
    store.db.prepare("INSERT INTO notes VALUES ('telegram', '-1', 'a'), ('telegram', '-2', 'b')").run();

    await store.forgetChat({ platform: "telegram", chatId: "-1" });

    expect(notes(store, "-1")).toEqual([]);
    expect(notes(store, "-2")).toEqual(["b"]);
  });

  it("moves a chat's rows in every chat table, even with no settings of its own", async () => {
    const store = await open(withNotes);
    store.db.prepare("INSERT INTO notes VALUES ('telegram', '-1', 'moved'), ('telegram', '-100', 'stale')").run();

    await store.moveChat({ platform: "telegram", chatId: "-1" }, "-100");

    expect(notes(store, "-100")).toEqual(["moved"]);
    expect(notes(store, "-1")).toEqual([]);
  });
});
