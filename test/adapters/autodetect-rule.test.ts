/**
 * Auto-detect is one core setting with one rule on both platforms: the same command, the same
 * sentences, the same default, and the core (not the adapter) decides whether a paste is answered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OptionType, Permission, type Settled } from "../fakes/discord-api.js";
import { fakeUser, groupChat, privateChat } from "../fakes/telegram-api.js";
import { type Harness as DiscordHarness, startHarness as startDiscord } from "./discord/harness.js";
import { type Harness as TelegramHarness, startHarness as startTelegram } from "./telegram/harness.js";

const NOT_ADMIN = "Only this chat's admins can change its settings.";
const NOW_ON = "Auto-detect is now on in this chat";
const GUILD = "400000000000000088";
const CHANNEL = "500000000000000088";
const MANAGE_CHANNELS = Permission.viewChannel | Permission.sendMessages | Permission.manageChannels;

/** What a person reads in a Discord answer: content, embed titles and descriptions, markdown escapes undone. */
function discordText(settled: Settled): string {
  if (settled.kind !== "message") return settled.kind;
  const embeds = (settled.message.embeds as { title?: string; description?: string }[]).flatMap((e) => [e.title ?? "", e.description ?? ""]);
  return [String(settled.message.content ?? ""), ...embeds].join("\n").replace(/\\(.)/g, "$1");
}

describe("one auto-detect rule on Telegram and Discord", () => {
  let tg: TelegramHarness;
  let dc: DiscordHarness;
  let address: string;
  let symbol: string;

  beforeAll(async () => {
    tg = await startTelegram({ fake: { readsAllGroupMessages: true } });
    dc = await startDiscord({ adapter: { messageContent: true } });
    dc.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL] });
    const token = tg.real?.sandbox.market.tokens.find((t) => t.chain === "eth");
    if (token === undefined) throw new Error("the sandbox has no eth token");
    address = token.address;
    symbol = token.symbol;
  });
  afterAll(async () => {
    await tg.close();
    await dc.close();
  });

  const discordAutodetect = (state: string | undefined, place: { permissions?: bigint; guildId?: string | null; channelId?: string }) =>
    dc.fake
      .chatInput({ name: "autodetect", options: state === undefined ? [] : [{ name: "state", type: OptionType.string, value: state }], ...place })
      .settled();

  it("refuses a member who is not an admin with the same sentence, and changes nothing", async () => {
    const group = groupChat();
    const ask = tg.fake.sendText(group, "/autodetect on");
    expect((await tg.fake.waitForSent((s) => s.replyTo === ask.message_id)).text).toContain(NOT_ADMIN);
    const answer = await discordAutodetect("on", { guildId: GUILD, channelId: CHANNEL });
    expect(discordText(answer)).toContain(NOT_ADMIN);
    expect(answer.kind === "message" && answer.ephemeral).toBe(true);
    expect((await tg.store.getSettings({ platform: "telegram", chatId: String(group.id) })).autodetect).toBeUndefined();
    expect((await dc.store.getSettings({ platform: "discord", chatId: CHANNEL })).autodetect).toBeUndefined();
  });

  it("stays silent on a paste in a group until an admin turns it on, then answers with the token card", async () => {
    const group = groupChat();
    const admin = fakeUser();
    tg.fake.setMember(group.id, admin.id, "administrator");
    const before = tg.fake.sendText(group, `look ${address}`);
    const on = tg.fake.sendText(group, "/autodetect on", { from: admin });
    expect((await tg.fake.waitForSent((s) => s.replyTo === on.message_id)).text).toContain(NOW_ON);
    const after = tg.fake.sendText(group, `look ${address}`);
    expect((await tg.fake.waitForSent((s) => s.replyTo === after.message_id)).text).toContain(symbol);
    expect(tg.fake.repliesTo(before)).toEqual([]);

    const posts = () => dc.fake.requests.filter((r) => r.method === "POST" && r.path === `/channels/${CHANNEL}/messages`).length;
    const quiet = posts();
    dc.fake.messageCreate({ channelId: CHANNEL, guildId: GUILD, content: `look ${address}` });
    expect(discordText(await discordAutodetect("on", { guildId: GUILD, channelId: CHANNEL, permissions: MANAGE_CHANNELS }))).toContain(NOW_ON);
    expect(posts()).toBe(quiet);
    dc.fake.messageCreate({ channelId: CHANNEL, guildId: GUILD, content: `look ${address}` });
    const card = await dc.fake.waitFor((r) => r.method === "POST" && r.path === `/channels/${CHANNEL}/messages`);
    expect(JSON.stringify(card.body)).toContain(symbol);
    expect((await tg.store.getSettings({ platform: "telegram", chatId: String(group.id) })).autodetect).toBe(true);
    expect((await dc.store.getSettings({ platform: "discord", chatId: CHANNEL })).autodetect).toBe(true);
  });

  it("is on by default in a private chat on both, and says why Discord still cannot see a paste there", async () => {
    const chat = privateChat(fakeUser());
    const ask = tg.fake.sendText(chat, "/autodetect");
    const tgAnswer = (await tg.fake.waitForSent((s) => s.replyTo === ask.message_id)).text;
    expect(tgAnswer).toContain("Auto-detect is on in this chat");
    const dcAnswer = discordText(await discordAutodetect(undefined, { guildId: null, channelId: "500000000000000099" }));
    expect(dcAnswer).toContain("Auto-detect is on in this chat");
    expect(dcAnswer).toContain("I do not read pasted text in direct messages here");
    expect(tgAnswer).not.toContain("direct messages");
  });

  it("shows in /settings that auto-detect is on in a private chat, and on Discord that it cannot read a DM's pastes", async () => {
    const chat = privateChat(fakeUser());
    const ask = tg.fake.sendText(chat, "/settings");
    const tgAnswer = (await tg.fake.waitForSent((s) => s.replyTo === ask.message_id)).text;
    expect(tgAnswer).toContain("Auto-detect pasted addresses: on (the default in private chats)");
    const settled = await dc.fake.chatInput({ name: "settings", options: [], guildId: null, channelId: "500000000000000098" }).settled();
    const fields = settled.kind === "message" ? (settled.message.embeds as { fields?: { name: string; value: string }[] }[]).flatMap((e) => e.fields ?? []) : [];
    const unescaped = (t: string) => t.replace(/\\(.)/g, "$1");
    expect(unescaped(fields.find((f) => unescaped(f.name) === "Auto-detect pasted addresses")?.value ?? "")).toBe("on, but I cannot read pasted text here (see /autodetect)");
  });

  it("gives /settings autodetect the same answer as /autodetect", async () => {
    const chat = privateChat(fakeUser());
    const a = tg.fake.sendText(chat, "/autodetect off");
    const b = tg.fake.sendText(chat, "/settings autodetect off");
    const first = (await tg.fake.waitForSent((s) => s.replyTo === a.message_id)).text;
    const second = (await tg.fake.waitForSent((s) => s.replyTo === b.message_id)).text;
    expect(first).toContain("Auto-detect is now off in this chat");
    expect(second).toBe(first);
  });
});
