/**
 * The two engines every store behaviour test runs on. `storeEngines()` registers the hooks of
 * one test file: one throw-away PostgreSQL for the file, a fresh database (or SQLite file)
 * per `database()`, and every store opened closed after each test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach } from "vitest";
import { openPostgresStore, type PostgresStoreOptions } from "../../src/store/postgres/store.js";
import { openSqliteStore, type SqliteStoreOptions } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";

export type EngineName = "sqlite" | "postgres";
export const ENGINES: readonly EngineName[] = ["sqlite", "postgres"];

/** Options both engines take: a schema of one's own (extensions' tests). */
export type SchemaOptions = Pick<SqliteStoreOptions, "migrations" | "chatTables"> & Pick<PostgresStoreOptions, "migrations" | "chatTables">;

/** One empty database: each `open()` is a new connection to the same data. */
export interface TestDatabase {
  open(options?: SchemaOptions): Promise<Store>;
  /** Runs plain SQL on the database outside any store: rows as an older schema wrote them. */
  exec(sql: string): Promise<void>;
}

export interface StoreEngines {
  database(engine: EngineName): Promise<TestDatabase>;
  /** The PostgreSQL server of this file (started on first use). */
  postgres(): Promise<PostgresEngine>;
}

export function storeEngines(): StoreEngines {
  let server: Promise<PostgresEngine> | undefined;
  const opened: Store[] = [];
  const folders: string[] = [];

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  afterAll(async () => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
    if (server !== undefined) await (await server).destroy();
  });

  const postgres = (): Promise<PostgresEngine> => (server ??= startPostgres());
  const track = async (store: Promise<Store>): Promise<Store> => {
    const s = await store;
    opened.push(s);
    return s;
  };

  return {
    postgres,
    async database(engine) {
      if (engine === "sqlite") {
        const dir = mkdtempSync(join(tmpdir(), "chainpulse-store-"));
        folders.push(dir);
        const path = join(dir, "chainpulse.db");
        return {
          open: (options = {}) => track(openSqliteStore({ path, ...options })),
          exec: async (sql) => {
            const raw = new Database(path);
            try {
              raw.exec(sql);
            } finally {
              raw.close();
            }
          },
        };
      }
      const url = await (await postgres()).createDatabase();
      return {
        open: (options = {}) => track(openPostgresStore({ url, ...options })),
        exec: async (sql) => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(sql);
          } finally {
            await client.end();
          }
        },
      };
    },
  };
}
