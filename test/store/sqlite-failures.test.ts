import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { coreOverStore, type CoreOverStore } from "./core-over-store.js";

let dir: string;
let path: string;
let store: SqliteStore;
let bot: CoreOverStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "chainpulse-sqlite-failures-"));
  path = join(dir, "chainpulse.db");
  store = await openSqliteStore({ path });
  bot = await coreOverStore(store);
});

afterEach(async () => {
  await bot.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const bugLines = () => bot.logs.filter((l) => String(l["msg"]).includes("bug"));

describe("SQLite that cannot be written", () => {
  it("answers a change on a read-only database with a sentence for the operator, and readiness names DATABASE_PATH until a write works", async () => {
    // query_only refuses writes with SQLITE_READONLY, as a read-only file or mount does.
    store.db.pragma("query_only = ON");

    const reply = await bot.say("/settings chain bsc");
    expect(reply).toContain("That can't be saved right now: the bot's database is read-only. Tell the bot's operator.");
    expect(reply).not.toContain("went wrong");
    expect(bugLines()).toEqual([]);
    expect(bot.logs).toContainEqual(expect.objectContaining({ msg: "command failed: database read-only", kind: "read-only" }));
    expect(await store.health()).toEqual({ ok: false, detail: expect.stringContaining(`DATABASE_PATH (${path}) cannot be written`) });
    // Reads still work.
    expect(await bot.say("/settings")).toContain("UTC");

    store.db.pragma("query_only = OFF");
    expect(await bot.say("/settings chain bsc")).toContain("default chain bsc");
    expect(await store.health()).toEqual({ ok: true });
  });

  it("answers a change on a full disk with its own sentence and is not ready until space is back", async () => {
    // max_page_count caps the file where it is: the next page SQLite needs fails with SQLITE_FULL.
    store.db.pragma(`max_page_count = ${String(store.db.pragma("page_count", { simple: true }))}`);
    let chat = 0;
    let refused: string | undefined;
    while (refused === undefined && chat < 5_000) {
      chat += 1;
      const reply = JSON.stringify(
        await bot.core.handleText({ platform: "telegram", chatId: `-${chat}`, userId: "7", isPrivate: false, isAdmin: async () => true }, `/settings timezone Europe/Berlin`),
      );
      if (!reply.includes("Europe/Berlin")) refused = reply;
    }

    expect(refused).toContain("That can't be saved right now: the bot's disk is full. Tell the bot's operator.");
    expect(bugLines()).toEqual([]);
    expect(await store.health()).toEqual({ ok: false, detail: expect.stringContaining(`the disk under DATABASE_PATH (${path}) is full`) });

    store.db.pragma("max_page_count = 1073741823");
    await store.updateSettings({ platform: "telegram", chatId: "-1" }, { defaultChain: "eth" });
    expect(await store.health()).toEqual({ ok: true });
  });
});

describe("an existing SQLite file on a full disk", () => {
  // A real full disk: a 2 MiB tmpfs (the tests run as root, as the PostgreSQL engine's do).
  it("stops the start advising to free space, not to make the file writable", async () => {
    const mount = join(dir, "small-disk");
    mkdirSync(mount);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mount]);
    try {
      const file = join(mount, "chainpulse.db");
      await (await openSqliteStore({ path: file })).close();
      expect(() => writeFileSync(join(mount, "filler"), Buffer.alloc(4 * 1024 * 1024))).toThrow(/ENOSPC/);
      const failure = await openSqliteStore({ path: file }).then(() => undefined, (e: unknown) => e as Error);
      expect(failure?.message).toMatch(new RegExp(`^the database at DATABASE_PATH \\(${file.replaceAll("/", "\\/")}\\) cannot grow: the disk is full .*; free space, or set DATABASE_PATH to another disk$`));
      expect(failure?.message).not.toContain("writable");
    } finally {
      // Lazily: the refused open's file handle may still be closing when the test ends.
      execFileSync("umount", ["-l", mount]);
    }
  });
});
