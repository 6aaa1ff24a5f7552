import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { openStore } from "../../src/store/open-store.js";
import { PostgresStore } from "../../src/store/postgres/store.js";
import { SqliteStore } from "../../src/store/sqlite/store.js";
import { startPostgres } from "../engines/postgres.js";

describe("DATABASE_URL", () => {
  it("is read as the PostgreSQL URL, its password (as written and decoded) kept from the logs", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://bot:p%40ss@db.example:5432/chainpulse" });
    expect(config.databaseUrl).toBe("postgres://bot:p%40ss@db.example:5432/chainpulse");
    expect(config.secrets).toEqual(expect.arrayContaining(["p%40ss", "p@ss"]));
  });

  it("chooses PostgreSQL when set and SQLite at DATABASE_PATH when not", async () => {
    const engine = await startPostgres();
    try {
      const pg = await openStore({ databasePath: ":memory:", databaseUrl: await engine.createDatabase() });
      expect(pg).toBeInstanceOf(PostgresStore);
      await pg.close();
      const sqlite = await openStore({ databasePath: ":memory:", databaseUrl: undefined });
      expect(sqlite).toBeInstanceOf(SqliteStore);
      await sqlite.close();
    } finally {
      await engine.destroy();
    }
  });
});
