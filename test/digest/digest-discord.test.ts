/**
 * The digest end to end on Discord: the real core and discord.js adapter on the fake Discord,
 * the sandbox market, a SQLite file, and the poster with a paced Discord queue, all on one
 * hand-moved clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../src/adapters/types.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createPoster, type Poster } from "../../src/digest/poster.js";
import { startDigestWorld, type DigestWorld } from "./digest-world.js";
import { OptionType, Permission, startFakeDiscord, type FakeDiscord, type RecordedRequest, type Settled } from "../fakes/discord-api.js";

/** 2026-11-22 10:05 UTC. */
const T0 = Date.UTC(2026, 10, 22, 10, 5);
/** The first hourly slot after T0, a few seconds in. */
const SLOT = Date.UTC(2026, 10, 22, 11, 0, 10);
const GUILD = "400000000000000301";
const MEMBER = Permission.viewChannel | Permission.sendMessages;
const MANAGER = MEMBER | Permission.manageChannels;

interface World extends DigestWorld {
  fake: FakeDiscord;
  adapter: PlatformAdapter;
  poster: Poster;
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  const w = world;
  world = undefined;
  await w.poster.stop();
  await w.adapter.stop();
  await w.fake.close();
  await w.close();
  expect(w.fake.violations).toEqual([]);
});

async function start(): Promise<World> {
  const base = await startDigestWorld(T0);
  const { clock, store, core, log } = base;
  const fake = await startFakeDiscord();
  const adapter = createDiscordAdapter({
    token: fake.token,
    applicationId: fake.applicationId,
    apiRoot: fake.apiRoot,
    core,
    logger: log,
    now: clock.now,
  });
  await adapter.start();
  const poster = createPoster({
    subscriptions: store.subscriptions,
    chats: store,
    core: base.core,
    adapters: { discord: adapter },
    queues: {
      discord: createPacedQueue({
        maxInFlight: 5,
        now: clock.now,
        // discord.js keeps its rate-limit buckets on the wall clock: see the clock's sleep.
        sleep: clock.sleep,
      }),
    },
    logger: log,
    now: clock.now,
  });
  world = { ...base, fake, adapter, poster };
  return world;
}

/** Runs `/name` with string options in a channel of GUILD. */
function slash(w: World, name: string, channelId: string, permissions: bigint, options: Record<string, string> = {}): Promise<Settled> {
  const opts = Object.entries(options).map(([n, value]) => ({ name: n, type: OptionType.string, value }));
  return w.fake.chatInput({ name, options: opts, guildId: GUILD, channelId, permissions }).settled();
}

/** Text as Discord shows it: Markdown escapes undone. */
function unescape(markdown: string): string {
  return markdown.replace(/\\(.)/g, "$1");
}

/** Every string the user reads in an answer (content, embed titles, descriptions, fields), as shown. */
function texts(answer: Settled): string[] {
  if (answer.kind !== "message") throw new Error(`no message: ${answer.kind} (${answer.request.status})`);
  const embeds = answer.message.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[] }[];
  const all = [answer.message.content, ...embeds.flatMap((e) => [e.title ?? "", e.description ?? "", ...(e.fields ?? []).flatMap((f) => [f.name, f.value])])];
  return all.filter((s) => s !== "").map(unescape);
}

async function subscribe(w: World, channelId: string, schedule = "every 1h top 3"): Promise<void> {
  const answer = await slash(w, "subscribe", channelId, MANAGER, { chain: "solana", schedule });
  expect(texts(answer).join("\n")).toMatch(/^Subscribed: the solana trending digest/);
}

async function slot(w: World, at: number): Promise<void> {
  w.clock.set(at);
  await (await w.poster.tick()).done;
}

function channelPosts(w: World, channelId: string): RecordedRequest[] {
  return w.fake.requests.filter((r) => r.method === "POST" && r.path === `/channels/${channelId}/messages`);
}

function embedTitle(r: RecordedRequest): string | undefined {
  return (r.body as { embeds?: { title?: string }[] } | undefined)?.embeds?.[0]?.title;
}

describe("the trending digest through Discord", () => {
  it("lets a member with Manage Channels subscribe and refuses a plain member in one ephemeral sentence", async () => {
    const w = await start();
    const channel = "500000000000000301";
    const refused = await slash(w, "subscribe", channel, MEMBER, { chain: "solana", schedule: "every 1h top 3" });
    if (refused.kind !== "message") throw new Error(refused.kind);
    expect(refused.ephemeral).toBe(true);
    expect(texts(refused)).toEqual(["Only this chat's admins can manage digests."]);
    expect(await w.store.subscriptions.listSubscriptions({ platform: "discord", chatId: channel })).toEqual([]);

    const ok = await slash(w, "subscribe", channel, MANAGER, { chain: "solana", schedule: "every 1h top 3" });
    if (ok.kind !== "message") throw new Error(ok.kind);
    expect(ok.ephemeral).toBe(false);
    expect(texts(ok)[0]).toBe("Subscribed: the solana trending digest, every 1h, top 3.");
    const subs = await w.store.subscriptions.listSubscriptions({ platform: "discord", chatId: channel });
    expect(subs.map((s) => [s.chain, s.label, s.topN])).toEqual([["solana", "every 1h", 3]]);
  });

  it("posts a due digest to the channel as an embed with buttons and mentions off", async () => {
    const w = await start();
    const channel = "500000000000000302";
    await subscribe(w, channel);
    w.clock.set(SLOT);
    const symbols = (await w.client.trending({ chain: "solana", pageSize: 3 })).tokens.slice(0, 3).map((x) => x.symbol);
    await slot(w, SLOT);
    const posts = channelPosts(w, channel);
    expect(posts.map((p) => p.status)).toEqual([200]);
    const body = posts[0]!.body as {
      embeds: { title: string; description?: string }[];
      components: { components: { custom_id?: string; label: string }[] }[];
      allowed_mentions: unknown;
    };
    expect(posts[0]!.authorized).toBe(true);
    // The digest is /trending's reply: its title, its table of the top 3, its buttons.
    expect(body.embeds[0]!.title).toMatch(/^Trending on solana · page 1 of \d+$/);
    const table = unescape(body.embeds[0]!.description ?? "");
    for (const sym of symbols) expect(table).toContain(sym);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const buttons = body.components.flatMap((row) => row.components);
    expect(buttons.map((b) => b.label.replace(/ .*/, "")).slice(0, 3)).toEqual(["1.", "2.", "3."]);
    for (const b of buttons) expect(b.custom_id?.length ?? 0).toBeLessThanOrEqual(100);
    expect(await w.store.subscriptions.deliveryCounts()).toEqual({ delivered: 1 });
  });

  it("marks each row of the next digest in the channel with its movement since the previous one", async () => {
    const w = await start();
    const channel = "500000000000000303";
    await subscribe(w, channel, "every 1h top 5");
    const idsAt = async (t: number) => {
      w.clock.set(t);
      return (await w.client.trending({ chain: "solana", pageSize: 5 })).tokens.slice(0, 5).map((x) => `${x.token}-${x.chain}`);
    };
    const later = SLOT + 6 * 3_600_000;
    const first = await idsAt(SLOT);
    const second = await idsAt(later);
    await slot(w, SLOT);
    await slot(w, later);
    const tables = channelPosts(w, channel).map((p) => unescape((p.body as { embeds: { description?: string }[] }).embeds[0]!.description ?? ""));
    expect(tables).toHaveLength(2);
    expect(tables[0]).not.toMatch(/\bmove\b|▲|▼/);
    const lines = tables[1]!.split("\n");
    expect(lines.find((l) => /^\s*#\s/.test(l))?.trim().split(/\s+/)).toEqual(["#", "token", "move", "chain", "price", "24h", "liquidity"]);
    const marks = lines.filter((l) => /^\s*\d+\s/.test(l)).map((l) => l.trim().split(/\s+/)[2]);
    const expected = second.map((id, i) => {
      const before = first.indexOf(id);
      if (before === -1) return "new";
      return before > i ? `▲${before - i}` : before < i ? `▼${i - before}` : "=";
    });
    expect(marks).toEqual(expected);
    expect(expected.some((m) => m !== "=")).toBe(true);
  });

  it("drops a channel that is unknown or out of reach, and pauses one where it may not post", async () => {
    const w = await start();
    const [unknown, noAccess, noPermission, fine] = ["500000000000000311", "500000000000000312", "500000000000000313", "500000000000000314"];
    for (const c of [unknown!, noAccess!, noPermission!, fine!]) await subscribe(w, c);
    w.fake.failChannel(unknown!, "unknown-channel");
    w.fake.failChannel(noAccess!, "missing-access");
    w.fake.failChannel(noPermission!, "missing-permissions");
    await slot(w, SLOT);

    const left = (chatId: string) => w.store.subscriptions.listSubscriptions({ platform: "discord", chatId });
    expect(await left(unknown!)).toEqual([]);
    expect(await left(noAccess!)).toEqual([]);
    const paused = await left(noPermission!);
    expect(paused).toHaveLength(1);
    expect(paused[0]!.pausedReason).toMatch(/50013/);
    expect(channelPosts(w, fine!).map((p) => [p.status, embedTitle(p)])).toEqual([[200, expect.stringMatching(/^Trending on solana · page 1/)]]);
    // A dropped channel is asked once, never again: Discord bans clients that keep hitting them.
    expect(channelPosts(w, unknown!)).toHaveLength(1);
    expect(channelPosts(w, noAccess!)).toHaveLength(1);

    w.fake.failChannel(noPermission!, undefined);
    expect(texts(await slash(w, "subscriptions", noPermission!, MEMBER))).toEqual(["Only this chat's admins can manage digests."]);
    const list = await slash(w, "subscriptions", noPermission!, MANAGER);
    expect(texts(list).join("\n")).toMatch(/solana\s+every 1h\s+3\s+paused/);

    await slot(w, SLOT + 3_600_000);
    expect(channelPosts(w, unknown!)).toHaveLength(1);
    expect(channelPosts(w, noAccess!)).toHaveLength(1);
    expect(channelPosts(w, noPermission!).filter((p) => p.status === 200 && embedTitle(p)?.startsWith("Trending"))).toEqual([]);
    expect(channelPosts(w, fine!).filter((p) => p.status === 200)).toHaveLength(2);
  });

  it("pauses a channel hidden from the bot in a server it is still in, keeping its settings", async () => {
    const w = await start();
    const [hidden, elsewhere] = ["500000000000000315", "500000000000000316"];
    w.fake.guildCreate({ id: GUILD, channelIds: [hidden!] });
    await subscribe(w, hidden!);
    await slash(w, "settings", hidden!, MANAGER, { setting: "language", value: "zh" });
    // The gateway delivers in order: once a later interaction is answered, the server is known.
    await slash(w, "subscriptions", elsewhere!, MANAGER);
    w.fake.failChannel(hidden!, "missing-access");
    await slot(w, SLOT);
    const chat = { platform: "discord" as const, chatId: hidden! };
    const paused = await w.store.subscriptions.listSubscriptions(chat);
    expect(paused).toHaveLength(1);
    expect(paused[0]!.pausedReason).toMatch(/50001/);
    expect((await w.store.getSettings(chat)).language).toBe("zh");
  });

  it("asks Discord whether a hidden channel's server still has the bot when no gateway here told of it", async () => {
    const w = await start();
    const [hidden, left] = ["500000000000000317", "500000000000000318"];
    const OTHER_GUILD = "400000000000000302";
    // The bot is in GUILD as Discord knows it, but no gateway of this worker has told of it: a
    // shard another worker holds, or a start whose GUILD_CREATE is still to come.
    w.fake.joinGuildUntold(GUILD);
    await subscribe(w, hidden!);
    await w.fake.chatInput({ name: "subscribe", options: [{ name: "chain", type: OptionType.string, value: "solana" }], guildId: OTHER_GUILD, channelId: left!, permissions: MANAGER }).settled();
    w.fake.failChannel(hidden!, "missing-access");
    w.fake.failChannel(left!, "missing-access");
    await slot(w, SLOT);
    const hiddenSubs = await w.store.subscriptions.listSubscriptions({ platform: "discord", chatId: hidden! });
    expect(hiddenSubs).toHaveLength(1);
    expect(hiddenSubs[0]!.pausedReason).toMatch(/50001/);
    expect(await w.store.subscriptions.listSubscriptions({ platform: "discord", chatId: left! })).toEqual([]);
    const asked = w.fake.requests.filter((r) => r.path === "/users/@me/guilds").map((r) => r.query.after);
    // Asked once a server: the notice of the pause, refused as the digest was, takes the answer kept.
    expect(asked.sort()).toEqual(["400000000000000300", "400000000000000301"]);
  });

  it("drops nothing when Discord cannot say whether a hidden channel's server still has the bot", async () => {
    const w = await start();
    const hidden = "500000000000000319";
    w.fake.joinGuildUntold(GUILD);
    await subscribe(w, hidden);
    await slash(w, "settings", hidden, MANAGER, { setting: "language", value: "zh" });
    w.fake.failChannel(hidden, "missing-access");
    w.fake.refuse({ method: "GET", pathPrefix: "/users/@me/guilds", status: 500, code: 0, message: "Internal Server Error", times: 1_000 });
    await slot(w, SLOT);
    const chat = { platform: "discord" as const, chatId: hidden };
    expect(await w.store.subscriptions.listSubscriptions(chat)).toHaveLength(1);
    expect((await w.store.getSettings(chat)).language).toBe("zh");
  });

  it("waits out a 429 on a channel post and delivers that digest exactly once", async () => {
    const w = await start();
    const [limited, other] = ["500000000000000321", "500000000000000322"];
    await subscribe(w, limited!);
    await subscribe(w, other!);
    w.fake.rateLimit({ method: "POST", pathPrefix: `/channels/${limited}/messages`, retryAfterSeconds: 0.3 });
    await slot(w, SLOT);
    expect(channelPosts(w, limited!).map((p) => p.status)).toEqual([429, 200]);
    expect(channelPosts(w, other!).map((p) => p.status)).toEqual([200]);
    expect(embedTitle(channelPosts(w, limited!)[1]!)).toMatch(/^Trending on solana · page 1/);
    expect(await w.store.subscriptions.deliveryCounts()).toEqual({ delivered: 2 });
  });

  it("drops a server's subscriptions when the bot is removed from it, not when it is only unavailable", async () => {
    const w = await start();
    const [channel, elsewhere] = ["500000000000000331", "500000000000000332"];
    w.fake.guildCreate({ id: GUILD, channelIds: [channel!] });
    await subscribe(w, channel!);
    const chat = { platform: "discord" as const, chatId: channel! };

    w.fake.guildDelete(GUILD, { unavailable: true });
    w.fake.guildCreate({ id: GUILD, channelIds: [channel!] });
    // The gateway delivers in order: once a later interaction is answered, the event before it was handled.
    await slash(w, "subscriptions", elsewhere!, MANAGER);
    expect(await w.store.subscriptions.listSubscriptions(chat)).toHaveLength(1);

    w.fake.guildDelete(GUILD);
    await slash(w, "subscriptions", elsewhere!, MANAGER);
    expect(await w.store.subscriptions.listSubscriptions(chat)).toEqual([]);
    await slot(w, SLOT);
    expect(channelPosts(w, channel!)).toEqual([]);
  });
});
