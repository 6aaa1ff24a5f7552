import { beforeEach, describe, expect, it } from "vitest";
import { StoreError } from "../../src/store/errors.js";
import type { ChatKey } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const group: ChatKey = { platform: "telegram", chatId: "-4001" };
const supergroup: ChatKey = { platform: "telegram", chatId: "-1004001" };
const channelA: ChatKey = { platform: "discord", chatId: "111111111111111111" };
const channelB: ChatKey = { platform: "discord", chatId: "222222222222222222" };
const otherGuildChannel: ChatKey = { platform: "discord", chatId: "333333333333333333" };

const engines = storeEngines();

describe.each(ENGINES)("the store on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });

  describe("opening", () => {
    it("keeps settings across a close and a reopen", async () => {
      const first = await db.open();
      await first.updateSettings(group, { defaultChain: "bsc", autodetect: true, timezone: "Europe/Berlin" });
      await first.close();
      expect(first.isOpen()).toBe(false);

      const second = await db.open();
      expect(await second.getSettings(group)).toEqual({ defaultChain: "bsc", autodetect: true, timezone: "Europe/Berlin" });
    });
  });

  describe("chat settings", () => {
    it("answers defaults for a chat it has never seen", async () => {
      const store = await db.open();
      expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
    });

    it("merges a patch into what the chat already has and returns the result", async () => {
      const store = await db.open();
      await store.updateSettings(group, { defaultChain: "solana" });
      const after = await store.updateSettings(group, { autodetect: true });

      expect(after).toEqual({ defaultChain: "solana", autodetect: true, timezone: "UTC" });
      expect(await store.getSettings(group)).toEqual(after);
    });

    it("clears a setting given as undefined, the timezone back to UTC", async () => {
      const store = await db.open();
      await store.updateSettings(group, { defaultChain: "eth", autodetect: false, timezone: "Asia/Tokyo" });
      const after = await store.updateSettings(group, { defaultChain: undefined, autodetect: undefined, timezone: undefined });

      expect(after).toEqual({ timezone: "UTC" });
      expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
    });

    it("keeps the card chart switched off or on, and clears it back to the default when given as undefined", async () => {
      const store = await db.open();
      await store.updateSettings(group, { cardChart: false, defaultChain: "bsc" });
      expect(await store.getSettings(group)).toEqual({ cardChart: false, defaultChain: "bsc", timezone: "UTC" });
      expect(await store.updateSettings(group, { cardChart: true })).toEqual({ cardChart: true, defaultChain: "bsc", timezone: "UTC" });
      expect(await (await db.open()).getSettings(group)).toEqual({ cardChart: true, defaultChain: "bsc", timezone: "UTC" });
      expect(await store.updateSettings(group, { cardChart: undefined })).toEqual({ defaultChain: "bsc", timezone: "UTC" });
    });

    it("keeps the chat's language and clears it when given as undefined", async () => {
      const store = await db.open();
      await store.updateSettings(group, { language: "zh", defaultChain: "bsc" });
      expect(await store.getSettings(group)).toEqual({ language: "zh", defaultChain: "bsc", timezone: "UTC" });
      expect(await store.updateSettings(group, { language: undefined })).toEqual({ defaultChain: "bsc", timezone: "UTC" });
      expect(await store.getSettings(group)).toEqual({ defaultChain: "bsc", timezone: "UTC" });
    });

    it("stores a time zone in its canonical spelling", async () => {
      const store = await db.open();
      expect((await store.updateSettings(group, { timezone: "america/new_york" })).timezone).toBe("America/New_York");
    });

    it("refuses an unknown time zone with a message naming it and keeps the old one", async () => {
      const store = await db.open();
      await store.updateSettings(group, { timezone: "Europe/Paris" });

      const refusal = store.updateSettings(group, { timezone: "Mars/Olympus_Mons" });
      await expect(refusal).rejects.toBeInstanceOf(StoreError);
      await expect(refusal).rejects.toMatchObject({ kind: "invalid", userMessage: { key: "settings-bad-timezone", args: { zone: "Mars/Olympus_Mons" } } });
      expect((await store.getSettings(group)).timezone).toBe("Europe/Paris");
    });

    it("refuses a default chain that is not one word", async () => {
      const store = await db.open();
      await expect(store.updateSettings(group, { defaultChain: "bsc eth" })).rejects.toBeInstanceOf(StoreError);
      await expect(store.updateSettings(group, { defaultChain: "  " })).rejects.toBeInstanceOf(StoreError);
      expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
    });

    it("keeps each platform's chats apart even when their ids match", async () => {
      const store = await db.open();
      await store.updateSettings({ platform: "telegram", chatId: "42" }, { defaultChain: "bsc" });
      expect(await store.getSettings({ platform: "discord", chatId: "42" })).toEqual({ timezone: "UTC" });
    });
  });

  describe("forgetting and moving chats", () => {
    it("forgets a removed chat and nothing else", async () => {
      const store = await db.open();
      await store.updateSettings(group, { defaultChain: "bsc" });
      await store.updateSettings(supergroup, { defaultChain: "eth" });

      await store.forgetChat(group);

      expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
      expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "eth", timezone: "UTC" });
    });

    it("forgets every channel of a server the bot left, and keeps other servers", async () => {
      const store = await db.open();
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

    it("tells the server a channel was noted in, and none for a channel never noted or forgotten", async () => {
      const store = await db.open();
      await store.noteGuild(channelA, "900");
      expect(await store.guildOf(channelA)).toBe("900");
      expect(await store.guildOf(channelB)).toBeUndefined();
      await store.forgetGuild("900");
      expect(await store.guildOf(channelA)).toBeUndefined();
    });

    it("keeps a channel's settings when its server is noted after they were set", async () => {
      const store = await db.open();
      await store.updateSettings(channelA, { defaultChain: "bsc" });
      await store.noteGuild(channelA, "900");
      expect(await store.getSettings(channelA)).toEqual({ defaultChain: "bsc", timezone: "UTC" });
    });

    it("moves a group that became a supergroup to its new id", async () => {
      const store = await db.open();
      await store.updateSettings(group, { defaultChain: "bsc", autodetect: true, timezone: "Asia/Singapore" });

      await store.moveChat(group, supergroup.chatId);

      expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "bsc", autodetect: true, timezone: "Asia/Singapore" });
      expect(await store.getSettings(group)).toEqual({ timezone: "UTC" });
    });

    it("lets the moved chat's settings win over what the new id already had", async () => {
      const store = await db.open();
      await store.updateSettings(group, { defaultChain: "bsc" });
      await store.updateSettings(supergroup, { autodetect: false, timezone: "Europe/Rome" });

      await store.moveChat(group, supergroup.chatId);

      expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "bsc", timezone: "UTC" });
    });

    it("leaves the new id alone when the old one has nothing to move", async () => {
      const store = await db.open();
      await store.updateSettings(supergroup, { defaultChain: "eth" });

      await store.moveChat(group, supergroup.chatId);

      expect(await store.getSettings(supergroup)).toEqual({ defaultChain: "eth", timezone: "UTC" });
    });
  });
});
