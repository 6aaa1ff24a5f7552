/**
 * The buy feed end to end on Telegram: the real core and adapter on the fake Bot API, the
 * sandbox market with swaps placed on quiet pairs, and the feed service, all on one hand-moved
 * clock. Each turn of the feed is one `turn()`.
 */
import type { Chat, Message, User } from "grammy/types";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createBuyMetrics } from "../../src/buys/metrics.js";
import type { BuyFeedService } from "../../src/buys/service.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { TELEGRAM_REPLY_RESERVE } from "../../src/digest/platform-queues.js";
import { createMarketMetrics } from "../../src/market/scheduler-metrics.js";
import { HOSTILE_TOKENS } from "../../src/sandbox/index.js";
import { startHarness, type Harness } from "../adapters/telegram/harness.js";
import { fakeUser, groupChat, type SentMessage } from "../fakes/telegram-api.js";
import { deferred } from "../deferred.js";
import { metric } from "../metrics-text.js";
import { S0, startBuyWorld, T0, type BuyWorld } from "./buy-world.js";

interface World extends BuyWorld {
  h: Harness;
  feed: BuyFeedService;
  chat: Chat;
  admin: User;
  member: User;
  /** The bot's answer to `text` from `from` (default the admin) in `chat` (default the test's group), replying to `replyTo`. */
  ask(text: string, from?: User, chat?: Chat, replyTo?: Message): Promise<string>;
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  const w = world;
  world = undefined;
  await w.feed.stop();
  await w.h.close();
  await w.close();
});

/**
 * The world; with `registry`, the market calls and the feed counted there as the bot's /metrics
 * counts them; with `paceHeld`, the group's pace waits of a second or more (its minute full)
 * last until that promise settles.
 */
async function start(opts: { registry?: Registry; paceHeld?: Promise<void> } = {}): Promise<World> {
  const marketMetrics = opts.registry === undefined ? undefined : createMarketMetrics(opts.registry);
  const base = await startBuyWorld(marketMetrics === undefined ? {} : { onDispatch: (e) => marketMetrics.dispatched(e) });
  const h = await startHarness({ core: base.core, store: base.store, adapter: { now: base.clock.now }, fake: { now: base.clock.now } });
  const held = opts.paceHeld;
  const queue = held === undefined ? undefined : createPacedQueue({
    ratePerSecond: 30, maxInFlight: 4, perChatPerMinute: 20, reservePerChat: TELEGRAM_REPLY_RESERVE, now: base.clock.now,
    sleep: async (ms) => {
      if (ms >= 1000) await held;
      await base.clock.sleep(ms);
    },
  });
  const feed = base.service("telegram", h.adapter, {
    ...(opts.registry === undefined ? {} : { metrics: createBuyMetrics(opts.registry, base.store.buys) }),
    ...(queue === undefined ? {} : { queue }),
  });
  const chat = groupChat({ id: -100, supergroup: true });
  const admin = fakeUser({ id: 1 });
  const member = fakeUser({ id: 2 });
  h.fake.setMember(chat.id, admin.id, "administrator");
  h.fake.setMember(chat.id, member.id, "member");
  const ask = async (text: string, from: User = admin, where: Chat = chat, replyTo?: Message) => {
    const m = h.fake.sendText(where, text, { from, ...(replyTo === undefined ? {} : { replyTo }) });
    return withoutTone((await h.fake.waitForSent((s) => s.chatId === String(where.id) && s.replyTo === m.message_id)).text);
  };
  world = { ...base, h, feed, chat, admin, member, ask };
  return world;
}

/** Telegram replies open with the tone's emoji (🟢, ⚠️, …). */
function withoutTone(text: string): string {
  return text.replace(/^\p{Extended_Pictographic}\uFE0F? /u, "");
}

/** Posts of the feed in a chat: messages that answer no command. */
function posts(w: World, chatId = String(w.chat.id)): SentMessage[] {
  return w.h.fake.sent.filter((s) => s.chatId === chatId && s.replyTo === undefined);
}

/** One turn of the feed at `at`, and every send it started. */
async function turnAt(w: World, at: number): Promise<void> {
  w.clock.set(Math.max(at, w.clock.now()));
  await w.feed.turn();
}

describe("the buy feed through Telegram", () => {
  it("posts buys at or over the minimum, sells when on, and marks a whale, each with its explorer links", async () => {
    const w = await start();
    expect(await w.ask("/buys pepe min 100 sells on whale 5k")).toMatch(/^Posting the buys of PEPE \(eth\) here from now on\.\n\nmin \$100 · sells on · whale \$5K · 🟢 per \$50 · no media · checked about every 15 s\n\nStop with \/stopbuys PEPE\.\n\ndemo data \(sandbox\) · as of 12:30 UTC$/);
    const pepe = w.idOf("PEPE");
    await w.place(pepe, [
      { time: S0 + 5, side: "buy", amountUsd: 60 },
      { time: S0 + 6, side: "buy", amountUsd: 250, wallet: "0x1111111111111111111111111111111111111111" },
      { time: S0 + 7, side: "sell", amountUsd: 400 },
      { time: S0 + 8, side: "buy", amountUsd: 6_000 },
    ]);
    await turnAt(w, T0 + 30_000);
    const out = posts(w);
    expect(out.map((p) => p.text.split("\n")[0])).toEqual([
      `🟢 ${"🟢".repeat(5)} PEPE buy`,
      `⛔ ${"🔴".repeat(8)} PEPE sell`,
      `🟢 🐳 ${"🟢".repeat(40)} PEPE buy`,
    ]);
    const [buy] = out;
    expect(buy!.text).toMatch(/^Spent: \$250 \([\d.,]+ USDC\)$/m);
    expect(buy!.text).toMatch(/^Received: [\d.,]+[KMB]? PEPE$/m);
    expect(buy!.text).toMatch(/^Price: \$0\.0₄\d+$/m);
    expect(buy!.text).toMatch(/^Market cap: \$[\d.]+B$/m);
    expect(buy!.text).toMatch(/^DEX: uniswapv3$/m);
    expect(buy!.text).toMatch(/^Buyer: 0x1111…1111 · first buy seen since the feed started$/m);
    expect(buy!.text).toContain("12:30:06 UTC · 24 s ago");
    // Demo mode says so on every post, as of the trade.
    expect(buy!.text).toMatch(/\n\ndemo data \(sandbox\) · as of 12:30 UTC$/);
    expect(buy!.text).not.toMatch(/new holder/i);
    const links = buy!.keyboard?.flat() ?? [];
    expect(links.map((b) => b.text)).toEqual(["Buyer", "Transaction"]);
    expect(links[0]?.url).toBe("https://etherscan.io/address/0x1111111111111111111111111111111111111111");
    expect(links[1]?.url).toMatch(/^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/);
    // Polled again: nothing new, nothing twice.
    await turnAt(w, T0 + 60_000);
    expect(posts(w)).toHaveLength(3);
    expect(await w.store.buys.buyPostCounts()).toEqual({ delivered: 3 });
  });

  it("says a buy is the wallet's first seen since the feed started only when it is, in English and Chinese", async () => {
    const w = await start();
    await w.ask("/buys pepe min 100");
    const [a, b] = ["0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"];
    await w.place(w.idOf("PEPE"), [
      { time: S0 + 3, side: "buy", amountUsd: 20, wallet: b },
      { time: S0 + 4, side: "buy", amountUsd: 200, wallet: a },
      { time: S0 + 5, side: "buy", amountUsd: 300, wallet: a },
      { time: S0 + 6, side: "buy", amountUsd: 400, wallet: b },
    ]);
    await turnAt(w, T0 + 30_000);
    await w.store.updateSettings({ platform: "telegram", chatId: String(w.chat.id) }, { language: "zh" });
    await w.place(w.idOf("PEPE"), [{ time: S0 + 40, side: "buy", amountUsd: 500 }]);
    await turnAt(w, T0 + 60_000);
    const buyers = posts(w).map((p) => /^(Buyer|买家)[:：] ?(.*)$/m.exec(p.text)?.[2]);
    // b's first buy was under the minimum: seen, not posted, so its next is not its first.
    expect(buyers).toEqual([
      "0xaaaa…aaaa · first buy seen since the feed started",
      "0xaaaa…aaaa",
      "0xbbbb…bbbb",
      expect.stringMatching(/^0x[0-9a-f]{4}…[0-9a-f]{4} · 自本推送开始以来首次见到其买入$/),
    ]);
    expect(posts(w).map((p) => p.text).join("\n")).not.toMatch(/new holder|新持有/i);
  });

  it("folds a burst the group's pace cannot take into one summary, every buy in exactly one post or summary", async () => {
    const w = await start();
    await w.ask("/buys pepe");
    const pepe = w.idOf("PEPE");
    const burst = Array.from({ length: 55 }, (_, i) => ({ time: S0 + 2 + Math.floor(i / 2), side: "buy" as const, amountUsd: 100 + i }));
    await w.place(pepe, burst);
    await turnAt(w, T0 + 40_000);
    const out = posts(w);
    expect(out).toHaveLength(32);
    // Within the two minutes a folded buy may wait, at 16 posts in any minute (4 of the group's 20 are the replies').
    const times = out.map((p) => p.at);
    expect(Math.max(...times) - (T0 + 40_000)).toBeLessThanOrEqual(120_000);
    for (const t of times) expect(times.filter((x) => x >= t && x < t + 60_000).length).toBeLessThanOrEqual(16);
    const summaries = out.filter((p) => p.text.includes("more PEPE buys"));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.text).toMatch(/^🟢 24 more PEPE buys · \$2,676 in 11 s · largest \$123 by 0x[0-9a-f]{4}…[0-9a-f]{4}\n\ndemo data \(sandbox\) · as of 12:30 UTC$/u);
    const own = out.filter((p) => !p.text.includes("more PEPE buys")).map((p) => Number(/Spent: \$([\d.]+)/.exec(p.text)?.[1]));
    expect(own.sort((a, b) => a - b)).toEqual(burst.slice(24).map((b) => b.amountUsd));
    expect(await w.store.buys.buyCounts()).toEqual({ folded: 24, posted: 31 });
  });

  it("posts nothing more of a token once /stopbuys has answered, though its burst still waited for the group's pace", async () => {
    const paceHeld = deferred();
    const w = await start({ paceHeld: paceHeld.promise });
    await w.ask("/buys pepe");
    const burst = Array.from({ length: 55 }, (_, i) => ({ time: S0 + 2 + Math.floor(i / 2), side: "buy" as const, amountUsd: 100 + i }));
    await w.place(w.idOf("PEPE"), burst);
    const turning = turnAt(w, T0 + 40_000);
    // The posts' share of the group's first minute is full; the rest of the burst waits for the next.
    await w.h.fake.waitForSent(() => posts(w).length === 16);
    expect(await w.ask("/stopbuys pepe")).toBe("No more buys of PEPE here.");
    const stoppedAt = w.h.fake.sent.length;
    paceHeld.resolve();
    await turning;
    expect(w.h.fake.sent.slice(stoppedAt)).toEqual([]);
    expect(await w.store.buys.waitingBuyPosts()).toEqual([]);
  });

  it("counts on /metrics the pairs watched, polls and their interval, swaps seen and skipped, buys owed, posted and folded, the feed lane's units and the delay", async () => {
    const registry = new Registry();
    const w = await start({ registry });
    await w.ask("/buys pepe");
    const pepe = w.idOf("PEPE");
    const watched = await w.quietPairs(pepe);
    // The burst of the folding test, and one swap without an amount.
    const burst = Array.from({ length: 55 }, (_, i) => ({ time: S0 + 2 + Math.floor(i / 2), side: "buy" as const, amountUsd: 100 + i }));
    await w.place(pepe, [...burst, { time: S0 + 30, side: "buy", amountUsd: null }]);
    w.sandbox.resetStats();
    await turnAt(w, T0 + 40_000);
    expect(posts(w)).toHaveLength(32);
    const text = await registry.metrics();
    const swapCalls = w.sandbox.stats().byEndpoint.swaps ?? 0;
    expect(swapCalls).toBeGreaterThanOrEqual(watched.length);
    expect(metric(text, "chainpulse_buys_pairs_watched")).toBe(watched.length);
    expect(metric(text, "chainpulse_buys_polls_total")).toBe(swapCalls);
    // The pair of the burst traded 10 s before its poll: its next is 15 s away. The others, quiet
    // for the 40 s since the feed started, 20 s away (half their quiet time, at least 15 s).
    expect(metric(text, "chainpulse_buys_poll_interval_seconds_count")).toBe(watched.length);
    expect(metric(text, "chainpulse_buys_poll_interval_seconds_sum")).toBe(15 + 20 * (watched.length - 1));
    expect(metric(text, "chainpulse_buys_swaps_total", { outcome: "seen" })).toBe(56);
    expect(metric(text, "chainpulse_buys_swaps_total", { outcome: "skipped" })).toBe(1);
    expect(metric(text, "chainpulse_buys_owed_total")).toBe(55);
    expect(metric(text, "chainpulse_buys_posts_total", { platform: "telegram", state: "posted" })).toBe(31);
    expect(metric(text, "chainpulse_buys_posts_total", { platform: "telegram", state: "folded" })).toBe(24);
    // One delay a post, trade to post: the burst's last trade was 10 s before the first post, and every post went out within two minutes.
    expect(metric(text, "chainpulse_buys_delay_seconds_count", { platform: "telegram" })).toBe(32);
    const delay = metric(text, "chainpulse_buys_delay_seconds_sum", { platform: "telegram" });
    expect(delay).toBeGreaterThanOrEqual(32 * 10);
    expect(delay).toBeLessThanOrEqual(32 * (38 + 120));
    // The polls are the feed lane's: 50 units each, and none spent on any other lane.
    expect(metric(text, "chainpulse_market_units_total", { endpoint: "swaps" })).toBe(50 * swapCalls);
    expect(metric(text, "chainpulse_market_lane_units_total", { lane: "feed" })).toBeGreaterThanOrEqual(50 * swapCalls);
    expect(metric(text, "chainpulse_market_lane_units_total", { lane: "feed" })).toBe(w.sandbox.stats().units);
  });

  it("keeps hostile symbols and wallets harmless, and skips swaps without a finite amount", async () => {
    const w = await start();
    const hostile = HOSTILE_TOKENS.find((t) => t.symbol === "<b>HTML</b>")!;
    expect(await w.ask(`/buys ${hostile.id}`)).toMatch(/^Posting the buys of /);
    await w.place(hostile.id, [
      { time: S0 + 3, side: "buy", amountUsd: null },
      { time: S0 + 4, side: "buy", amountUsd: "NaN" },
      { time: S0 + 5, side: "buy", amountUsd: 90, wallet: "<a href=\"tg://user?id=1\">@everyone</a>" },
    ]);
    await turnAt(w, T0 + 30_000);
    const out = posts(w);
    expect(out).toHaveLength(1);
    expect(out[0]!.text).toContain("<b>HTML</b> buy");
    expect(out[0]!.raw).not.toMatch(/<a href|<b>HTML/);
    expect(out[0]!.keyboard?.flat().map((b) => b.text)).toEqual(["Transaction"]);
    expect(w.h.fake.calls.filter((c) => !c.ok && c.method !== "getUpdates")).toEqual([]);
    expect(await w.store.buys.buyPostCounts()).toEqual({ delivered: 1 });
  });

  it("answers each bad input with one sentence and starts nothing", async () => {
    const w = await start();
    const noMarket = HOSTILE_TOKENS.find((t) => t.symbol === "NOMKT")!;
    expect(await w.ask("/buys zzzqqqxx")).toMatch(/^No token matches "zzzqqqxx"\./);
    expect(await w.ask(`/buys ${noMarket.id}`)).toBe("NOMKT has no trading pair with liquidity, so it has no buys to post.");
    expect(await w.ask("/buys pepe min lots")).toBe('"lots" does not work as min: type an amount from $0.01 to $1T, like 250, $1.5k or 2k.');
    expect(await w.ask("/buys pepe", w.member)).toBe("Only this chat's admins can manage its buy feeds.");
    expect(await w.ask("/stopbuys pepe")).toBe("This chat does not follow the buys of pepe.");
    expect(await w.store.buys.listFeeds({ platform: "telegram", chatId: String(w.chat.id) })).toEqual([]);
  });

  it("shows the chat's GIF or photo on whale buys only, the post its caption; media off; media without a picture", async () => {
    const w = await start();
    await w.ask("/buys pepe whale 1k");
    const pepe = w.idOf("PEPE");
    const gif = w.h.fake.sendFile(w.chat, "animation", { from: w.admin });
    expect(await w.ask("/buys pepe media", w.admin, w.chat, gif)).toMatch(/· whale media: GIF · checked about every 15 s\n\nWhale posts show this GIF\.\n\n/);
    await w.place(pepe, [
      { time: S0 + 5, side: "buy", amountUsd: 200 },
      { time: S0 + 6, side: "buy", amountUsd: 1_500 },
      { time: S0 + 7, side: "buy", amountUsd: 999 },
    ]);
    await turnAt(w, T0 + 30_000);
    const first = posts(w);
    expect(first.map((p) => [p.method, p.fileId])).toEqual([["sendMessage", undefined], ["sendAnimation", gif.animation?.file_id], ["sendMessage", undefined]]);
    const whale = first[1]!;
    expect(whale.text.split("\n")[0]).toBe(`🟢 🐳 ${"🟢".repeat(30)} PEPE buy`);
    expect(whale.text).toMatch(/^Spent: \$1,500 \([\d.,]+K? USDC\)$/m);
    expect(whale.raw).toMatch(/<b>/);
    expect(whale.keyboard?.flat().map((b) => b.text)).toEqual(["Buyer", "Transaction"]);

    const photo = w.h.fake.sendFile(w.chat, "photo", { from: w.admin });
    expect(await w.ask("/buys pepe media", w.admin, w.chat, photo)).toContain("Whale posts show this photo.");
    expect(await w.ask("/buys")).toMatch(/PEPE \(eth\) — min \$50 · sells off · whale \$1K · 🟢 per \$50 · whale media: photo/);
    await w.place(pepe, [{ time: S0 + 40, side: "buy", amountUsd: 2_000 }]);
    await turnAt(w, T0 + 60_000);
    expect(posts(w).slice(3).map((p) => [p.method, p.fileId])).toEqual([["sendPhoto", photo.photo?.at(-1)?.file_id]]);

    expect(await w.ask("/buys pepe media off")).toContain("Whale posts show no media now.");
    expect(await w.ask("/buys")).toMatch(/whale \$1K · 🟢 per \$50 · no media/);
    // "/buys list", as members type it, is the list too.
    expect(await w.ask("/buys list")).toMatch(/whale \$1K · 🟢 per \$50 · no media/);
    await w.place(pepe, [{ time: S0 + 70, side: "buy", amountUsd: 3_000 }]);
    await turnAt(w, T0 + 90_000);
    expect(posts(w).slice(4).map((p) => [p.method, p.text.split("\n")[0]])).toEqual([["sendMessage", `🟢 🐳 ${"🟢".repeat(40)} PEPE buy`]]);

    expect(await w.ask("/buys pepe media")).toBe("Reply to a photo, GIF or video with /buys PEPE media to show it on whale posts (on Discord, attach it in the media option).");
    const pdf = w.h.fake.sendFile(w.chat, "document", { from: w.admin });
    expect(await w.ask("/buys pepe media", w.admin, w.chat, pdf)).toBe("That file is not a photo, GIF or video, so whale posts cannot show it.");
    expect((await w.store.buys.listFeeds({ platform: "telegram", chatId: String(w.chat.id) })).map((f) => f.media)).toEqual([undefined]);
    expect(w.h.fake.calls.filter((c) => !c.ok && c.method !== "getUpdates")).toEqual([]);
  });

  it("posts a whale buy without the chat's media when Telegram no longer takes its file id", async () => {
    const w = await start();
    await w.ask("/buys pepe whale 1k");
    const gif = w.h.fake.sendFile(w.chat, "animation", { from: w.admin });
    expect(await w.ask("/buys pepe media", w.admin, w.chat, gif)).toContain("Whale posts show this GIF.");
    w.h.fake.dropFile(gif.animation!.file_id);
    await w.place(w.idOf("PEPE"), [{ time: S0 + 5, side: "buy", amountUsd: 1_500 }]);
    await turnAt(w, T0 + 30_000);
    expect(w.h.fake.calls.filter((c) => c.method === "sendAnimation").map((c) => c.error?.description)).toEqual(["Bad Request: wrong file identifier/HTTP URL specified"]);
    expect(posts(w).map((p) => [p.method, p.text.split("\n")[0]])).toEqual([["sendMessage", `🟢 🐳 ${"🟢".repeat(30)} PEPE buy`]]);
  });

  it("removes the feeds of a chat that removed the bot, and keeps a migrated group's under its new id", async () => {
    const w = await start();
    const kicked = groupChat({ id: -300 });
    const migrated = groupChat({ id: -400 });
    for (const c of [kicked, migrated]) {
      w.h.fake.setMember(c.id, w.admin.id, "administrator");
      expect(await w.ask("/buys pepe", w.admin, c)).toMatch(/^Posting the buys of PEPE/);
    }
    w.h.fake.kickFrom(kicked.id);
    w.h.fake.fail({
      chatId: migrated.id, times: 1,
      error: { error_code: 400, description: "Bad Request: group chat was upgraded to a supergroup chat", parameters: { migrate_to_chat_id: -1004000 } },
    });
    await w.place(w.idOf("PEPE"), [{ time: S0 + 5, side: "buy", amountUsd: 500 }]);
    await turnAt(w, T0 + 30_000);
    const key = (chatId: string) => ({ platform: "telegram" as const, chatId });
    expect(await w.store.buys.listFeeds(key("-300"))).toEqual([]);
    expect(await w.store.buys.listFeeds(key("-400"))).toEqual([]);
    expect((await w.store.buys.listFeeds(key("-1004000"))).map((f) => f.symbol)).toEqual(["PEPE"]);
    expect(posts(w, "-1004000")).toHaveLength(1);
    // The moved feed goes on under the new id.
    await w.place(w.idOf("PEPE"), [{ time: S0 + 40, side: "buy", amountUsd: 700 }]);
    await turnAt(w, T0 + 60_000);
    expect(posts(w, "-1004000").map((p) => /Spent: (\$\S+)/.exec(p.text)?.[1])).toEqual(["$500", "$700"]);
    expect(posts(w, "-300")).toEqual([]);
  });
});
