import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import type { ChatKey } from "../../src/store/types.js";

const group: ChatKey = { platform: "telegram", chatId: "-4001" };

let dir: string;
let path: string;
const opened: SqliteStore[] = [];

async function open(): Promise<SqliteStore> {
  const store = await openSqliteStore({ path });
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chainpulse-store-"));
  path = join(dir, "nested", "folder", "chainpulse.db");
});

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("openSqliteStore", () => {
  it("creates the folder and the file, in WAL mode with a busy timeout", async () => {
    const store = await open();

    expect(existsSync(path)).toBe(true);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.db.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(store.isOpen()).toBe(true);
  });

  it("works in memory for tests", async () => {
    const store = await openSqliteStore({ path: ":memory:" });
    opened.push(store);
    await store.updateSettings(group, { autodetect: false });
    expect(await store.getSettings(group)).toEqual({ autodetect: false, timezone: "UTC" });
  });

  it("can be closed twice", async () => {
    const store = await open();
    await store.close();
    await store.close();
    expect(store.isOpen()).toBe(false);
  });
});
