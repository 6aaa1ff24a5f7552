import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite-store.js";
import type { ChatKey } from "../../src/store/types.js";

const group: ChatKey = { platform: "telegram", chatId: "-4001" };
const supergroup: ChatKey = { platform: "telegram", chatId: "-1004001" };
const channelA: ChatKey = { platform: "discord", chatId: "111111111111111111" };
const channelB: ChatKey = { platform: "discord", chatId: "222222222222222222" };
const otherGuildChannel: ChatKey = { platform: "discord", chatId: "333333333333333333" };

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

  it("keeps settings across a close and a reopen", async () => {
    const first = await open();
    await first.updateSettings(group, { defaultChain: "bsc", autodetect: true, timezone: "Europe/Berlin" });
    await first.close();
    expect(first.isOpen()).toBe(false);

    const second = await open();
    expect(await second.getSettings(group)).toEqual({ defaultChain: "bsc", autodetect: true, timezone: "Europe/Berlin" });
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

describe("chat settings", () => {
  it("answers defaults for a chat it has never seen", async () => {
    const store = await open();
    expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
  });

  it("merges a patch into what the chat already has and returns the result", async () => {
    const store = await open();
    await store.updateSettings(group, { defaultChain: "solana" });
    const after = await store.updateSettings(group, { autodetect: true });

    expect(after).toEqual({ defaultChain: "solana", autodetect: true, timezone: "UTC" });
    expect(await store.getSettings(group)).toEqual(after);
  });

  it("clears a setting given as undefined, the timezone back to UTC", async () => {
    const store = await open();
    await store.updateSettings(group, { defaultChain: "eth", autodetect: false, timezone: "Asia/Tokyo" });
    const after = await store.updateSettings(group, { defaultChain: undefined, autodetect: undefined, timezone: undefined });

    expect(after).toEqual({ timezone: "UTC" });
    expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
  });

  it("stores a time zone in its canonical spelling", async () => {
    const store = await open();
    expect((await store.updateSettings(group, { timezone: "america/new_york" })).timezone).toBe("America/New_York");
  });

  it("refuses an unknown time zone with a sentence naming it and keeps the old one", async () => {
    const store = await open();
    await store.updateSettings(group, { timezone: "Europe/Paris" });

    const refusal = store.updateSettings(group, { timezone: "Mars/Olympus_Mons" });
    await expect(refusal).rejects.toBeInstanceOf(UserError);
    await expect(refusal).rejects.toThrow(/"Mars\/Olympus_Mons" is not a time zone/);
    expect((await store.getSettings(group)).timezone).toBe("Europe/Paris");
  });

  it("refuses a default chain that is not one word", async () => {
    const store = await open();
    await expect(store.updateSettings(group, { defaultChain: "bsc eth" })).rejects.toBeInstanceOf(UserError);
    await expect(store.updateSettings(group, { defaultChain: "  " })).rejects.toBeInstanceOf(UserError);
    expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
  });

  it("keeps each platform's chats apart even when their ids match", async () => {
    const store = await open();
    await store.updateSettings({ platform: "telegram", chatId: "42" }, { defaultChain: "bsc" });
    expect(await store.getSettings({ platform: "discord", chatId: "42" })).toEqual({ timezone: "UTC" });
  });
});

describe("forgetting and moving chats", () => {
  it("forgets a removed chat and nothing else", async () => {
    const store = await open();
    await store.updateSettings(group, { defaultChain: "bsc" });
    await store.updateSettings(supergroup, { defaultChain: "eth" });

    await store.forgetChat(group);

    expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
    expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "eth", timezone: "UTC" });
  });

  it("forgets every channel of a server the bot left, and keeps other servers", async () => {
    const store = await open();
    await store.updateSettings(channelA, { defaultChain: "bsc" });
    await store.noteGuild(channelA, "900");
    await store.noteGuild(channelB, "900");
    await store.updateSettings(channelB, { autodetect: true });
    await store.updateSettings(otherGuildChannel, { defaultChain: "base" });
    await store.noteGuild(otherGuildChannel, "901");

    await store.forgetGuild("900");

    expect(await store.getSettings(channelA)).toEqual({ timezone: "UTC" });
    expect(await store.getSettings(channelB)).toEqual({ timezone: "UTC" });
    expect(await store.getSettings(otherGuildChannel)).toEqual({ defaultChain: "base", timezone: "UTC" });
  });

  it("keeps a channel's settings when its server is noted after they were set", async () => {
    const store = await open();
    await store.updateSettings(channelA, { defaultChain: "bsc" });
    await store.noteGuild(channelA, "900");
    expect(await store.getSettings(channelA)).toEqual({ defaultChain: "bsc", timezone: "UTC" });
  });

  it("moves a group that became a supergroup to its new id", async () => {
    const store = await open();
    await store.updateSettings(group, { defaultChain: "bsc", autodetect: true, timezone: "Asia/Singapore" });

    await store.moveChat(group, supergroup.chatId);

    expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "bsc", autodetect: true, timezone: "Asia/Singapore" });
    expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
  });

  it("lets the moved chat's settings win over what the new id already had", async () => {
    const store = await open();
    await store.updateSettings(group, { defaultChain: "bsc" });
    await store.updateSettings(supergroup, { autodetect: false, timezone: "Europe/Rome" });

    await store.moveChat(group, supergroup.chatId);

    expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "bsc", timezone: "UTC" });
  });

  it("leaves the new id alone when the old one has nothing to move", async () => {
    const store = await open();
    await store.updateSettings(supergroup, { defaultChain: "eth" });

    await store.moveChat(group, supergroup.chatId);

    expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "eth", timezone: "UTC" });
  });
});
