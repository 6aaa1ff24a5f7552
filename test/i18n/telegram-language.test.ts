/**
 * Telegram in Chinese, end to end on the fake Bot API: a private chat follows the user's app
 * language, a group follows /settings language (its digests too), and the command menu is set
 * once for the default and once for `language_code` zh.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createPoster, type Poster } from "../../src/digest/poster.js";
import { describeCommand, messages } from "../../src/i18n/index.js";
import { startHarness, type Harness } from "../adapters/telegram/harness.js";
import { startDigestWorld, type DigestWorld } from "../digest/digest-world.js";
import { fakeUser, groupChat, privateChat } from "../fakes/telegram-api.js";

/** 2026-11-22 10:05 UTC. */
const T0 = Date.UTC(2026, 10, 22, 10, 5);
const HOUR = 3_600_000;
const HAN = /\p{Script=Han}/u;

interface World extends DigestWorld {
  h: Harness;
  poster: Poster;
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  await world.poster.stop();
  await world.h.close();
  await world.close();
  world = undefined;
});

async function start(): Promise<World> {
  const base = await startDigestWorld(T0);
  const h = await startHarness({ core: base.core, store: base.store, adapter: { now: base.clock.now } });
  const poster = createPoster({
    subscriptions: base.store.subscriptions,
    chats: base.store,
    core: base.core,
    adapters: { telegram: h.adapter },
    queues: { telegram: createPacedQueue({ ratePerSecond: 400, perChatPerMinute: 20, maxInFlight: 4, now: base.clock.now, sleep: base.clock.sleep }) },
    logger: base.log,
    now: base.clock.now,
  });
  world = { ...base, h, poster };
  return world;
}

describe("Telegram in the chat's language", () => {
  it("answers a private chat in Chinese when the user's app language is zh-hans", async () => {
    const w = await start();
    const user = { ...fakeUser({ id: 7 }), language_code: "zh-hans" };
    const asked = w.h.fake.sendText(privateChat(user), "/help", { from: user });
    const reply = await w.h.fake.waitForSent((s) => s.replyTo === asked.message_id);
    expect(reply.text).toContain("我能做什么");
    expect(reply.text).not.toContain("What I can do");
    // A card's labels end with the full-width colon in Chinese.
    const card = w.h.fake.sendText(privateChat(user), "/token pepe", { from: user });
    const text = (await w.h.fake.waitForSent((s) => s.replyTo === card.message_id)).text;
    expect(text).toMatch(/价格：\$/u);
    expect(text).not.toMatch(/价格: /u);
  });

  it("keeps a group in English whatever its members' app language, until an admin switches it", async () => {
    const w = await start();
    const chat = groupChat({ id: -300 });
    const admin = { ...fakeUser({ id: 1 }), language_code: "zh" };
    w.h.fake.setMember(chat.id, admin.id, "administrator");
    const before = w.h.fake.sendText(chat, "/help", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === before.message_id)).text).toContain("What I can do");
    const set = w.h.fake.sendText(chat, "/settings language zh", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === set.message_id)).text).toContain("已保存：语言 简体中文");
    const after = w.h.fake.sendText(chat, "/help", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === after.message_id)).text).toContain("我能做什么");
  });

  it("refuses /settings language from a group member who is not an admin, in the group's language", async () => {
    const w = await start();
    const chat = groupChat({ id: -301 });
    const member = { ...fakeUser({ id: 2 }), language_code: "zh" };
    w.h.fake.setMember(chat.id, member.id, "member");
    const asked = w.h.fake.sendText(chat, "/settings language zh", { from: member });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === asked.message_id)).text).toContain("Only this chat's admins can change its settings.");
    expect((await w.store.getSettings({ platform: "telegram", chatId: String(chat.id) })).language).toBeUndefined();
  });

  it("posts the digest of a group switched to zh in Chinese, and an English group's in English", async () => {
    const w = await start();
    const zh = groupChat({ id: -310 });
    const en = groupChat({ id: -311 });
    const admin = fakeUser({ id: 1 });
    for (const chat of [zh, en]) w.h.fake.setMember(chat.id, admin.id, "administrator");
    const set = w.h.fake.sendText(zh, "/settings language zh", { from: admin });
    await w.h.fake.waitForSent((s) => s.replyTo === set.message_id);
    for (const chat of [zh, en]) {
      const sub = w.h.fake.sendText(chat, "/subscribe solana every 1h top 3", { from: admin });
      await w.h.fake.waitForSent((s) => s.replyTo === sub.message_id);
    }
    w.clock.set(Math.ceil(T0 / HOUR) * HOUR);
    await (await w.poster.tick()).done;
    const posted = (chat: { id: number }) => w.h.fake.sent.filter((s) => s.chatId === String(chat.id) && s.replyTo === undefined);
    const zhDigest = posted(zh).at(-1)?.text ?? "";
    expect(zhDigest).toContain("solana 热门");
    expect(zhDigest).not.toMatch(/Trending|Refresh|Next/);
    expect(posted(en).at(-1)?.text).toContain("Trending on solana");
  });

  it("keeps Chinese answers within Telegram's 4,096 characters a message, long ones split", async () => {
    const w = await start();
    const user = { ...fakeUser({ id: 8 }), language_code: "zh" };
    const asks = ["/help", "/holders pepe 25", "/token pepe", "/topics", "/chains", "/trending solana 1 20"].map((text) =>
      w.h.fake.sendText(privateChat(user), text, { from: user }),
    );
    for (const ask of asks) await w.h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    const sent = w.h.fake.sent.filter((s) => s.chatId === String(user.id));
    expect(sent.length).toBeGreaterThanOrEqual(asks.length);
    for (const s of sent) expect(s.text.length).toBeLessThanOrEqual(4096);
    expect(sent.some((s) => HAN.test(s.text))).toBe(true);
  });

  it("sets the command menu for the default language and for language_code zh, in Chinese there", async () => {
    const w = await start();
    const menus = w.h.fake.commandsByLanguage;
    expect([...menus.keys()].sort()).toEqual(["", "zh"]);
    const zh = messages().translator("zh");
    const zhMenu = menus.get("zh") ?? [];
    expect(zhMenu.map((c) => c.command)).toEqual(w.core.commands.map((c) => c.name));
    expect(zhMenu.map((c) => c.description)).toEqual(w.core.commands.map((c) => describeCommand(c, zh)));
    for (const c of zhMenu) expect(c.description).toMatch(HAN);
    expect(menus.get("")?.map((c) => c.description)).toEqual(w.core.commands.map((c) => c.description));
  });
});
