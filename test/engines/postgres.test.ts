import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startPostgres, type PostgresEngine } from "./postgres.js";

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("the throw-away PostgreSQL engine", () => {
  let engine: PostgresEngine;
  beforeAll(async () => {
    engine = await startPostgres();
  });
  afterAll(async () => {
    await engine.destroy();
  });

  it("gives each caller a fresh database that keeps its rows across a crash and a restart", async () => {
    const first = await engine.createDatabase();
    const second = await engine.createDatabase();
    expect(first).not.toBe(second);
    await query(first, "CREATE TABLE t (v int); INSERT INTO t VALUES (7)");
    expect(await query(second, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'")).toEqual([{ n: 0 }]);

    await engine.stop();
    expect(engine.running).toBe(false);
    await expect(query(first, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);

    await engine.start();
    expect(await query(first, "SELECT v FROM t")).toEqual([{ v: 7 }]);
  });
});
