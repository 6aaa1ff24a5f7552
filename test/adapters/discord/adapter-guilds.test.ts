import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../../src/i18n/index.js";
import { OptionType, Permission, type FakeDiscord, type Settled } from "../../fakes/discord-api.js";
import { messageJson } from "../../fakes/discord-payloads.js";
import { startHarness, type Harness } from "./harness.js";

const GUILD = "400000000000000077";
const CHANNEL = "500000000000000077";
const QUIET_CHANNEL = "500000000000000078";
const ADMIN = Permission.viewChannel | Permission.sendMessages | Permission.manageChannels;

function autodetect(fake: FakeDiscord, state: "on" | "off", permissions: bigint, channelId = CHANNEL) {
  return fake.chatInput({
    name: "autodetect",
    options: [{ name: "state", type: OptionType.string, value: state }],
    guildId: GUILD,
    channelId,
    permissions,
  });
}

/** What a person reads in an answer: content and embed titles and descriptions, markdown escapes undone. */
function shown(settled: Settled): string {
  if (settled.kind !== "message") return settled.kind;
  const embeds = (settled.message.embeds as { title?: string; description?: string }[]).flatMap((e) => [e.title ?? "", e.description ?? ""]);
  return [String(settled.message.content ?? ""), ...embeds].join("\n").replace(/\\(.)/g, "$1");
}

/** Waits until the adapter has posted `n` channel messages. */
function channelPosts(fake: FakeDiscord, n: number) {
  return fake.waitFor(() => fake.requests.filter((r) => r.method === "POST" && r.path.startsWith("/channels/")).length >= n);
}

describe("Discord servers: admins, auto-detect and removal", () => {
  let h: Harness;
  let address: string;
  let symbol: string;

  beforeAll(async () => {
    h = await startHarness({ adapter: { messageContent: true } });
    const token = h.real?.sandbox.market.tokens.find((t) => t.chain === "eth");
    if (token === undefined) throw new Error("the sandbox has no eth token");
    ({ address, symbol } = token);
    h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL, QUIET_CHANNEL] });
  });
  afterAll(() => h.close());
  afterEach(() => {
    expect(h.fake.violations).toEqual([]);
  });

  it("tells a member without Manage Server or Manage Channels that only admins may switch auto-detect", async () => {
    const answer = await autodetect(h.fake, "on", Permission.viewChannel | Permission.sendMessages).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(shown(answer)).toContain("Only this chat's admins can change its settings.");
    expect((await h.store.getSettings({ platform: "discord", chatId: CHANNEL })).autodetect).toBeUndefined();
  });

  it("lets a member with Manage Channels turn auto-detect on for the channel", async () => {
    const answer = await autodetect(h.fake, "on", ADMIN).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(shown(answer)).toContain("Auto-detect is now on in this chat");
    expect((await h.store.getSettings({ platform: "discord", chatId: CHANNEL })).autodetect).toBe(true);
  });

  it("promises no cards for pasted text in a DM, where the bot reads none, and says whose switch it is", async () => {
    const dm = { guildId: null, channelId: "500000000000000079" };
    const on = shown(await h.fake.chatInput({ name: "autodetect", options: [{ name: "state", type: OptionType.string, value: "on" }], ...dm }).settled());
    expect(on).toContain("I do not read pasted text in direct messages here");
    expect(on).not.toContain("I will answer with its token card");
    const asked = shown(await h.fake.chatInput({ name: "autodetect", options: [], ...dm }).settled());
    expect(asked).toContain("Turn it on or off with /autodetect on");
    expect(asked).not.toContain("An admin");
  });

  it("says a channel's language follows the server's", async () => {
    const answer = await h.fake.chatInput({ name: "settings", options: [], guildId: GUILD, channelId: QUIET_CHANNEL }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    const fields = (answer.message.embeds as { fields?: { value: string }[] }[]).flatMap((e) => e.fields ?? []).map((f) => f.value.replace(/\\(.)/g, "$1"));
    expect(fields).toContain("English (follows the server's language)");
  });

  it("lets a Manage Server member change the channel's settings and refuses a plain member", async () => {
    const settings = (permissions?: bigint) =>
      h.fake
        .chatInput({
          name: "settings",
          options: [
            { name: "setting", type: OptionType.string, value: "chain" },
            { name: "value", type: OptionType.string, value: "solana" },
          ],
          guildId: GUILD,
          channelId: QUIET_CHANNEL,
          ...(permissions === undefined ? {} : { permissions }),
        })
        .settled();
    expect(shown(await settings())).toContain("Only this chat's admins can change its settings.");
    expect((await h.store.getSettings({ platform: "discord", chatId: QUIET_CHANNEL })).defaultChain).toBeUndefined();
    await settings(Permission.viewChannel | Permission.sendMessages | Permission.manageGuild);
    expect((await h.store.getSettings({ platform: "discord", chatId: QUIET_CHANNEL })).defaultChain).toBe("solana");
    await h.store.updateSettings({ platform: "discord", chatId: QUIET_CHANNEL }, { defaultChain: undefined });
  });

  it("refuses a caller in their language where the bot speaks it, else the server's, the adapter's refusals as the core's", async () => {
    const card = messageJson({ channelId: QUIET_CHANNEL, guildId: GUILD, author: h.fake.botUser, content: "card" });
    for (const [locale, words] of [["fr", messages().translator("zh")], ["en-US", messages().translator("en")]] as const) {
      const place = { guildId: GUILD, channelId: QUIET_CHANNEL, locale, guildLocale: "zh-CN" };
      const options = [{ name: "setting", type: OptionType.string, value: "chain" }, { name: "value", type: OptionType.string, value: "solana" }];
      const byCore = await h.fake.chatInput({ name: "settings", options, ...place }).settled();
      const byAdapter = await h.fake.button({ customId: "cp:gone", message: card, ...place }).settled();
      expect([byCore.kind === "message" && byCore.ephemeral, byAdapter.kind === "message" && byAdapter.ephemeral]).toEqual([true, true]);
      expect([shown(byCore).trim(), shown(byAdapter).trim()]).toEqual([words.t("settings-not-admin"), words.t("adapter-button-expired")]);
    }
  });

  it("answers a pasted address where auto-detect is on, replying without pinging anyone", async () => {
    const before = h.fake.requests.length;
    h.fake.messageCreate({ channelId: CHANNEL, guildId: GUILD, content: `@everyone buy ${address} now` });
    const post = await h.fake.waitFor((r) => h.fake.requests.indexOf(r) >= before && r.path === `/channels/${CHANNEL}/messages`);
    const body = post.body as { allowed_mentions: unknown; message_reference?: unknown; embeds: { title: string }[] };
    expect(body.allowed_mentions).toEqual({ parse: [], replied_user: false });
    expect(body.embeds[0]?.title).toContain(symbol);
  });

  it("stays quiet about addresses in a channel where nobody turned auto-detect on", async () => {
    const posts = h.fake.requests.filter((r) => r.method === "POST" && r.path.startsWith("/channels/")).length;
    h.fake.messageCreate({ channelId: QUIET_CHANNEL, guildId: GUILD, content: address });
    h.fake.messageCreate({ channelId: CHANNEL, guildId: GUILD, content: `again ${address}` });
    await channelPosts(h.fake, posts + 1);
    const paths = h.fake.requests.filter((r) => r.method === "POST" && r.path.startsWith("/channels/")).slice(posts).map((r) => r.path);
    expect(paths).toEqual([`/channels/${CHANNEL}/messages`]);
  });

  it("keeps a server's settings through an outage and drops them when the bot is removed", async () => {
    const chat = { platform: "discord" as const, chatId: CHANNEL };
    h.fake.guildDelete(GUILD, { unavailable: true });
    h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL] });
    await h.fake.chatInput({ name: "trending", guildId: GUILD, channelId: CHANNEL }).settled();
    expect((await h.store.getSettings(chat)).autodetect).toBe(true);
    h.fake.guildDelete(GUILD);
    // The removal is handled before the next dispatch: the gateway delivers in order.
    await h.fake.chatInput({ name: "trending", guildId: "400000000000000099" }).settled();
    expect((await h.store.getSettings(chat)).autodetect).toBeUndefined();
  });

  it("drops a channel's settings when the channel is deleted, and keeps the server's other channels'", async () => {
    const [gone, kept] = [{ platform: "discord" as const, chatId: CHANNEL }, { platform: "discord" as const, chatId: QUIET_CHANNEL }];
    h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL, QUIET_CHANNEL] });
    await autodetect(h.fake, "on", ADMIN).settled();
    await h.store.updateSettings(kept, { defaultChain: "solana" });
    expect((await h.store.getSettings(gone)).autodetect).toBe(true);
    h.fake.dispatch("CHANNEL_DELETE", { id: CHANNEL, type: 0, guild_id: GUILD, name: "gone", position: 0, permission_overwrites: [] });
    // The removal is handled before the next dispatch: the gateway delivers in order.
    await h.fake.chatInput({ name: "trending", guildId: "400000000000000099" }).settled();
    expect((await h.store.getSettings(gone)).autodetect).toBeUndefined();
    expect((await h.store.getSettings(kept)).defaultChain).toBe("solana");
    await h.store.updateSettings(kept, { defaultChain: undefined });
  });

  it("drops a thread's settings when the thread is deleted", async () => {
    const thread = { platform: "discord" as const, chatId: "500000000000000777" };
    h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL] });
    const threadJson = {
      id: thread.chatId, type: 11, guild_id: GUILD, parent_id: CHANNEL, name: "launch chat", owner_id: "600000000000000002",
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date(0).toISOString(), locked: false },
    };
    h.fake.dispatch("THREAD_CREATE", threadJson);
    await h.store.updateSettings(thread, { defaultChain: "base" });
    h.fake.dispatch("THREAD_DELETE", { id: thread.chatId, type: 11, guild_id: GUILD, parent_id: CHANNEL });
    // The removal is handled before the next dispatch: the gateway delivers in order.
    await h.fake.chatInput({ name: "trending", guildId: "400000000000000099" }).settled();
    expect((await h.store.getSettings(thread)).defaultChain).toBeUndefined();
  });

  it("drops a server's settings again when the bot is removed a second time after a re-invite", async () => {
    const chat = { platform: "discord" as const, chatId: CHANNEL };
    h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL] });
    await autodetect(h.fake, "on", ADMIN).settled();
    h.fake.guildDelete(GUILD);
    h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL] });
    const again = await autodetect(h.fake, "on", ADMIN).settled();
    if (again.kind !== "message") throw new Error(again.kind);
    expect((await h.store.getSettings(chat)).autodetect).toBe(true);
    h.fake.guildDelete(GUILD);
    // The removal is handled before the next dispatch: the gateway delivers in order.
    await h.fake.chatInput({ name: "trending", guildId: "400000000000000099" }).settled();
    expect((await h.store.getSettings(chat)).autodetect).toBeUndefined();
  });
});

describe("Discord auto-detect without the message-content intent", () => {
  it("explains that channel auto-detect needs the intent and points to the Token card", async () => {
    const h: Harness = await startHarness({});
    try {
      const answer = await autodetect(h.fake, "on", ADMIN).settled();
      if (answer.kind !== "message") throw new Error(answer.kind);
      expect(shown(answer)).toContain(
        "Auto-detect in channels needs the message content intent, which this bot runs without; use Apps → Token card on a message instead.",
      );
    } finally {
      await h.close();
    }
  });
});

describe("Discord digest posts (send)", () => {
  let h: Harness;
  const reply = { title: "Trending on eth", tone: "info" as const, blocks: [{ kind: "text" as const, text: "@everyone PEPE" }], actions: [] };

  beforeAll(async () => {
    h = await startHarness({});
  });
  afterAll(() => h.close());

  it("delivers an embed to a channel with mentions off", async () => {
    expect(await h.adapter.send(CHANNEL, reply)).toEqual({ kind: "delivered" });
    const post = h.fake.requests.at(-1);
    expect(post?.authorized).toBe(true);
    expect((post?.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
    expect(h.fake.violations).toEqual([]);
  });

  it("reports a deleted channel and a lost server as gone", async () => {
    h.fake.failChannel("500000000000000201", "unknown-channel");
    h.fake.failChannel("500000000000000202", "missing-access");
    expect(await h.adapter.send("500000000000000201", reply)).toMatchObject({ kind: "gone" });
    expect(await h.adapter.send("500000000000000202", reply)).toMatchObject({ kind: "gone" });
  });

  it("reports a channel where the bot may not post as forbidden, to be paused", async () => {
    h.fake.failChannel("500000000000000203", "missing-permissions");
    expect(await h.adapter.send("500000000000000203", reply)).toMatchObject({ kind: "forbidden" });
  });

  it("hands a rate limit back to the poster as retry-after instead of waiting", async () => {
    h.fake.rateLimit({ method: "POST", pathPrefix: "/channels/500000000000000204/", retryAfterSeconds: 7 });
    const outcome = await h.adapter.send("500000000000000204", reply);
    if (outcome.kind !== "retry") throw new Error(outcome.kind);
    // discord.js adds its small safety offset to what Discord asked for.
    expect(outcome.afterMs).toBeGreaterThanOrEqual(7000);
    expect(outcome.afterMs).toBeLessThan(7500);
    expect(h.fake.requests.filter((r) => r.path.startsWith("/channels/500000000000000204/"))).toHaveLength(1);
  });

  it("treats a chat id that is not a Discord id as gone without calling Discord", async () => {
    const count = h.fake.requests.length;
    expect(await h.adapter.send("-100123", reply)).toMatchObject({ kind: "gone" });
    expect(h.fake.requests.length).toBe(count);
  });
});
