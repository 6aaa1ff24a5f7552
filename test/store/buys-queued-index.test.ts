/** The read of a chat's queued buys goes by an index of the queued rows, not through the chat's week of sent ones. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { QUEUED_BUYS_SQL } from "../../src/store/sqlite/buys.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("a chat's queued buys", () => {
  it("are read by the partial index of queued rows once the schema is migrated", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainpulse-queued-"));
    folders.push(dir);
    const path = join(dir, "chainpulse.db");
    await (await openSqliteStore({ path })).close();
    const db = new Database(path, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${QUEUED_BUYS_SQL}`).all("telegram", "-100") as { detail: string }[]).map((r) => r.detail);
      expect(plan).toEqual(["SEARCH buy_posts USING INDEX buy_posts_queued (platform=? AND chat_id=?)"]);
    } finally {
      db.close();
    }
  });
});
