/**
 * The buy feed end to end on Discord: the real core and discord.js adapter on the fake Discord,
 * the sandbox market with swaps placed on quiet pairs, and the feed service, all on one
 * hand-moved clock.
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../src/adapters/types.js";
import type { BuyFeedService } from "../../src/buys/service.js";
import { createDiscordDigestQueue } from "../../src/digest/platform-queues.js";
import { HOSTILE_TOKENS } from "../../src/sandbox/index.js";
import { CDN_LINK_MS, OptionType, Permission, startFakeDiscord, type FakeDiscord, type FakeUpload, type RecordedRequest, type Settled } from "../fakes/discord-api.js";
import { S0, startBuyWorld, T0, type BuyWorld } from "./buy-world.js";

const GUILD = "400000000000000401";
const MEMBER = Permission.viewChannel | Permission.sendMessages;
const MANAGER = MEMBER | Permission.manageChannels;

interface World extends BuyWorld {
  fake: FakeDiscord;
  adapter: PlatformAdapter;
  feed: BuyFeedService;
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  const w = world;
  world = undefined;
  await w.feed.stop();
  await w.adapter.stop();
  await w.fake.close();
  await w.close();
  expect(w.fake.violations).toEqual([]);
});

/**
 * `channelLimit`: the fake takes that many posts a channel per window of real time and answers
 * 429 past them, as Discord does; discord.js learns the window from its answers and waits it out
 * in real time, so the fake runs on the real clock then.
 */
async function start(opts: { channelLimit?: { limit: number; windowMs: number } } = {}): Promise<World> {
  const base = await startBuyWorld();
  const limited = opts.channelLimit !== undefined;
  const fake = await startFakeDiscord(limited ? { channelLimit: opts.channelLimit } : { now: base.clock.now });
  const adapter = createDiscordAdapter({ token: fake.token, applicationId: fake.applicationId, apiRoot: fake.apiRoot, core: base.core, logger: base.log, now: base.clock.now });
  await adapter.start();
  // The bot's own Discord queue; while discord.js keeps real time, its waits take real time too
  // and move the hand clock by as much (never back: concurrent waits do not add up).
  const clock = base.clock;
  const realSleep = async (ms: number): Promise<void> => {
    const until = clock.now() + ms;
    await delay(ms);
    clock.set(Math.max(clock.now(), until));
  };
  // A channel's posts spaced as the fake's window allows (Discord's 5 in 5 s is a second apart).
  const channelSpacingMs = limited ? opts.channelLimit!.windowMs / opts.channelLimit!.limit : undefined;
  const queue = limited ? createDiscordDigestQueue({ now: clock.now, sleep: realSleep, channelSpacingMs }) : undefined;
  world = { ...base, fake, adapter, feed: base.service("discord", adapter, { queue }) };
  return world;
}

function slash(w: World, name: string, channelId: string, permissions: bigint, options: Record<string, string> = {}, files?: Record<string, FakeUpload>): Promise<Settled> {
  const opts = Object.entries(options).map(([n, value]) => ({ name: n, type: OptionType.string, value }));
  return w.fake.chatInput({ name, options: opts, guildId: GUILD, channelId, permissions, ...(files === undefined ? {} : { files }) }).settled();
}

/** Text as Discord shows it: Markdown escapes undone. */
const unescape = (markdown: string): string => markdown.replace(/\\(.)/g, "$1");

function answerText(answer: Settled): string {
  if (answer.kind !== "message") throw new Error(`no message: ${answer.kind}`);
  const embeds = answer.message.embeds as { title?: string; description?: string }[];
  return unescape([answer.message.content, ...embeds.flatMap((e) => [e.title ?? "", e.description ?? ""])].filter((s) => s !== "").join("\n"));
}

interface Embed {
  title?: string;
  image?: { url: string };
  fields?: { name: string; value: string }[];
}

function posts(w: World, channelId: string): RecordedRequest[] {
  return w.fake.requests.filter((r) => r.method === "POST" && r.path === `/channels/${channelId}/messages` && r.status === 200);
}

function embedOf(r: RecordedRequest): Embed {
  return (r.body as { embeds: Embed[] }).embeds[0] ?? {};
}

/** A post's embed fields by name, as Discord shows them. */
function fieldsOf(r: RecordedRequest): Map<string, string> {
  return new Map((embedOf(r).fields ?? []).map((f) => [f.name, unescape(f.value)]));
}

async function turnAt(w: World, at: number): Promise<void> {
  w.clock.set(Math.max(at, w.clock.now()));
  await w.feed.turn();
}

describe("the buy feed through Discord", () => {
  it("posts buys at or over the minimum, sells when on, a whale marked, as embeds with link buttons and no pings", async () => {
    const w = await start();
    const channel = "500000000000000401";
    const started = await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "min 100 sells on whale 5k" });
    expect(answerText(started)).toMatch(/^Posting the buys of PEPE \(eth\) here from now on\./);
    await w.place(w.idOf("PEPE"), [
      { time: S0 + 5, side: "buy", amountUsd: 60 },
      { time: S0 + 6, side: "buy", amountUsd: 250, wallet: "0x1111111111111111111111111111111111111111" },
      { time: S0 + 7, side: "sell", amountUsd: 400 },
      { time: S0 + 8, side: "buy", amountUsd: 6_000 },
    ]);
    await turnAt(w, T0 + 30_000);
    const out = posts(w, channel);
    expect(out.map((p) => unescape(embedOf(p).title ?? ""))).toEqual([
      `${"🟢".repeat(5)} PEPE buy`,
      `${"🔴".repeat(8)} PEPE sell`,
      `🐳 ${"🟢".repeat(40)} PEPE buy`,
    ]);
    const fields = fieldsOf(out[0]!);
    expect(fields.get("Spent")).toMatch(/^\$250 \([\d.,]+ USDC\)$/);
    expect(fields.get("Buyer")).toBe("0x1111…1111 · first buy seen since the feed started");
    expect(fields.get("Time")).toBe("12:30:06 UTC · 24 s ago");
    const body = out[0]!.body as { allowed_mentions: unknown; components: { components: { label: string; url?: string }[] }[] };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.components.flatMap((r) => r.components).map((b) => [b.label, b.url?.replace(/\/(address|tx)\/.*/, "/$1/…")])).toEqual([
      ["Buyer", "https://etherscan.io/address/…"],
      ["Transaction", "https://etherscan.io/tx/…"],
    ]);
    await turnAt(w, T0 + 60_000);
    expect(posts(w, channel)).toHaveLength(3);
  });

  it("folds a burst the channel's pace cannot take into one summary, every buy in exactly one post or summary, without a 429", async () => {
    // Discord takes 5 posts in 5 s a channel, 120 in the two minutes a folded buy may wait. The
    // fake's window is 5 in 100 ms of real time, so the suite does not wait two real minutes
    // while discord.js keeps to it: how many posts a burst becomes does not depend on the window.
    const w = await start({ channelLimit: { limit: 5, windowMs: 100 } });
    const channel = "500000000000000431";
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe" }))).toMatch(/^Posting the buys of PEPE/);
    const burst = Array.from({ length: 139 }, (_, i) => ({ time: S0 + 2 + Math.floor(i / 5), side: "buy" as const, amountUsd: 100 + i }));
    await w.place(w.idOf("PEPE"), burst);
    await turnAt(w, T0 + 40_000);
    const out = posts(w, channel);
    expect(out).toHaveLength(120);
    expect(w.fake.requests.filter((r) => r.status === 429)).toEqual([]);
    const titles = out.map((p) => unescape(embedOf(p).title ?? ""));
    const summaries = titles.filter((t) => t.includes("more PEPE buys"));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatch(/^🟢 20 more PEPE buys · \$2,19\d in 3 s · largest \$119 by 0x[0-9a-f]{4}…[0-9a-f]{4}$/u);
    const own = out.filter((_, i) => !titles[i]!.includes("more PEPE buys")).map((p) => Number(/^\$([\d.]+)/.exec(fieldsOf(p).get("Spent") ?? "")?.[1]));
    expect(own.sort((a, b) => a - b)).toEqual(burst.slice(20).map((b) => b.amountUsd));
    expect(await w.store.buys.buyCounts()).toEqual({ folded: 20, posted: 119 });
  });

  it("keeps a hostile symbol from pinging, and refuses a member and a bad amount in one ephemeral sentence", async () => {
    const w = await start();
    const channel = "500000000000000402";
    const refused = await slash(w, "buys", channel, MEMBER, { token: "pepe" });
    expect(refused.kind === "message" && refused.ephemeral).toBe(true);
    expect(answerText(refused)).toBe("Only this chat's admins can manage its buy feeds.");
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "whale lots" }))).toBe('"lots" does not work as whale: type an amount from $0.01 to $1T, like 250, $1.5k or 2k.');
    const everyone = HOSTILE_TOKENS.find((t) => t.symbol === "@everyone")!;
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: everyone.id }))).toMatch(/^Posting the buys of /);
    await w.place(everyone.id, [{ time: S0 + 5, side: "buy", amountUsd: 300, wallet: "<@123456789012345678>" }]);
    await turnAt(w, T0 + 30_000);
    const [post, ...more] = posts(w, channel);
    expect(more).toEqual([]);
    expect(unescape(embedOf(post!).title ?? "")).toMatch(/＠everyone buy$/);
    expect((post!.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
  });

  it("shows the GIF of the media option on whale buys, from the bot's copy long after Discord's link expired", async () => {
    const w = await start();
    const channel = "500000000000000421";
    const gif: FakeUpload = { name: "Moon Whale!.gif", contentType: "image/gif", data: Buffer.from(`GIF89a${"w".repeat(5_000)}`) };
    const set = await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "whale 1k media" }, { media: gif });
    expect(answerText(set)).toMatch(/· whale media: GIF · checked about every 15 s\n\nWhale posts show this GIF\./);
    // Days later the member's upload is gone from Discord's CDN: the post carries the bot's copy.
    const later = T0 + 2 * CDN_LINK_MS;
    w.clock.set(later);
    const s = later / 1000;
    await w.place(w.idOf("PEPE"), [{ time: s + 5, side: "buy", amountUsd: 200 }, { time: s + 6, side: "buy", amountUsd: 1_500 }]);
    await turnAt(w, later + 30_000);
    const out = posts(w, channel);
    expect(out.map((p) => p.files.map((f) => [f.name, f.type, f.size]))).toEqual([[], [["whale.gif", "image/gif", gif.data.length]]]);
    expect(unescape(embedOf(out[1]!).title ?? "")).toBe(`🐳 ${"🟢".repeat(30)} PEPE buy`);
    expect(embedOf(out[1]!).image).toEqual({ url: "attachment://whale.gif" });
    expect(embedOf(out[0]!).image).toBeUndefined();
    // Read from Discord once, when the command came; never again.
    expect(w.fake.cdnReads.map((r) => r.served)).toEqual([true]);

    const huge: FakeUpload = { name: "whale.mp4", contentType: "video/mp4", data: Buffer.alloc(12 * 1024 * 1024 - 5) };
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media" }, { media: huge }))).toBe("That file is 12 MB; whale posts carry at most 8 MB.");
    const nine: FakeUpload = { name: "whale.gif", contentType: "image/gif", data: Buffer.alloc(9 * 1024 * 1024 + 6) };
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media" }, { media: nine }))).toBe("That file is 9 MB; whale posts carry at most 8 MB.");
    expect(w.fake.cdnReads).toHaveLength(1);
    const pdf: FakeUpload = { name: "notes.pdf", contentType: "application/pdf", data: Buffer.from("%PDF-1.4") };
    const refused = await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media" }, { media: pdf });
    expect(refused.kind === "message" && refused.ephemeral).toBe(true);
    expect(answerText(refused)).toBe("That file is not a photo, GIF or video, so whale posts cannot show it.");
    // Named and declared a GIF, but not one: the bytes decide.
    const posing: FakeUpload = { name: "whale.gif", contentType: "image/gif", data: Buffer.from("%PDF-1.4 not a gif at all") };
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media" }, { media: posing }))).toBe("That file is not a photo, GIF or video, so whale posts cannot show it.");
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media" }))).toBe(
      "Reply to a photo, GIF or video with /buys PEPE media to show it on whale posts (on Discord, attach it in the media option).",
    );
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "min 100" }, { media: gif }))).toMatch(
      /\n\nThe file that came with the command is not used: \/buys PEPE media shows it on whale posts\.\n/,
    );
    // A video: an embed cannot show one, so it goes as the post's attachment, the embed without a picture.
    const video: FakeUpload = { name: "whale.mp4", contentType: "video/mp4", data: Buffer.from(`\0\0\0\x18ftypmp42${"v".repeat(3_000)}`) };
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media" }, { media: video }))).toMatch(/Whale posts show this video\./);
    await w.place(w.idOf("PEPE"), [{ time: s + 40, side: "buy", amountUsd: 2_000 }]);
    // Quiet for two days before the last poll, the pair is polled at the longest interval (300 s) now.
    await turnAt(w, later + 340_000);
    const videoPost = posts(w, channel)[2]!;
    expect(videoPost.files.map((f) => [f.name, f.type, f.size])).toEqual([["whale.mp4", "video/mp4", video.data.length]]);
    expect(unescape(embedOf(videoPost).title ?? "")).toMatch(/^🐳 .* PEPE buy$/);
    expect(embedOf(videoPost).image).toBeUndefined();
    expect(answerText(await slash(w, "buys", channel, MANAGER, { token: "pepe", options: "media off" }))).toMatch(/· no media · [^\n]*\n\nWhale posts show no media now\./);
    expect(await w.store.buys.feedMedia({ platform: "discord", chatId: channel }, w.idOf("PEPE"))).toBeUndefined();
  });

  it("removes the feeds of a channel that is gone", async () => {
    const w = await start();
    const [gone, fine] = ["500000000000000411", "500000000000000412"];
    for (const c of [gone, fine]) expect(answerText(await slash(w, "buys", c, MANAGER, { token: "pepe" }))).toMatch(/^Posting the buys of PEPE/);
    w.fake.failChannel(gone, "unknown-channel");
    await w.place(w.idOf("PEPE"), [{ time: S0 + 5, side: "buy", amountUsd: 500 }]);
    await turnAt(w, T0 + 30_000);
    expect(await w.store.buys.listFeeds({ platform: "discord", chatId: gone })).toEqual([]);
    expect(await w.store.buys.listFeeds({ platform: "discord", chatId: fine })).toHaveLength(1);
    expect(posts(w, fine)).toHaveLength(1);
    await w.place(w.idOf("PEPE"), [{ time: S0 + 40, side: "buy", amountUsd: 600 }]);
    await turnAt(w, T0 + 60_000);
    expect(posts(w, fine)).toHaveLength(2);
    // A channel that is gone is asked once, never again.
    expect(w.fake.requests.filter((r) => r.path === `/channels/${gone}/messages`)).toHaveLength(1);
  });
});
