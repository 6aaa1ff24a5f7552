import { pino } from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { createBuyDelivery } from "../../src/buys/delivery.js";
import type { Trade } from "../../src/buys/trade.js";
import { WATCHER_LEASE } from "../../src/buys/watcher.js";
import type { SendOutcome } from "../../src/adapters/types.js";
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import type { Reply } from "../../src/core/reply.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { deferred } from "../deferred.js";
import type { BuyFeed, BuyOptions, ChatKey, NewBuyPost, NewOwedBuy, PairWatch, Store } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();

const OPTIONS: BuyOptions = { minUsd: "50", sells: false, whaleUsd: "10000", emoji: "🟢", stepUsd: "50" };
const group: ChatKey = { platform: "telegram", chatId: "-100" };
const other: ChatKey = { platform: "discord", chatId: "555" };

function feed(chat: ChatKey, tokenId: string, options: Partial<BuyOptions> = {}): Omit<BuyFeed, "createdAt"> {
  return { ...chat, tokenId, symbol: tokenId.toUpperCase(), chain: "eth", options: { ...OPTIONS, ...options } };
}

/** A poll's commit by the one watcher: the pair's watch as stored now is the watch it read. */
async function commit(store: Store, w: PairWatch, owe: readonly NewOwedBuy[], now: number): Promise<number> {
  const read = (await store.buys.watches()).find((x) => x.pairId === w.pairId);
  if (read === undefined) throw new Error(`${w.pairId} is not watched`);
  return store.buys.commitPoll(w, owe, now, read);
}

function owed(chat: ChatKey, swapKey: string, txTime: number): NewOwedBuy {
  return { ...chat, swapKey, tokenId: "pepe", txTime, payload: JSON.stringify({ swapKey }) };
}

describe.each(ENGINES)("buy feeds on %s", (engine) => {
  let db: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    db = await engines.database(engine);
    store = await db.open();
  });

  it("starts a feed with its pairs watched from now, changes options in place and refuses a token past the limit", async () => {
    const made = await store.buys.upsertFeed(feed(group, "pepe"), ["p1", "p2"], 2, 10_000);
    expect(made).toMatchObject({ created: true, feed: { tokenId: "pepe", createdAt: 10_000, options: OPTIONS } });
    expect((await store.buys.watches()).map((w) => [w.pairId, w.cursor, w.nextPollAt])).toEqual([["p1", 10, 10_000], ["p2", 10, 10_000]]);
    const changed = await store.buys.upsertFeed(feed(group, "pepe", { minUsd: "250", sells: true }), ["p1", "p2"], 2, 20_000);
    expect(changed).toMatchObject({ created: false, feed: { createdAt: 10_000, options: { ...OPTIONS, minUsd: "250", sells: true } } });
    await store.buys.upsertFeed(feed(group, "wif"), ["w1"], 2, 20_000);
    expect(await store.buys.upsertFeed(feed(group, "bonk"), ["b1"], 2, 20_000)).toEqual({ full: 2 });
    expect((await store.buys.listFeeds(group)).map((f) => f.tokenId)).toEqual(["pepe", "wif"]);
  });

  it("keeps a feed's media on its row: Telegram's file id, or the bot's own copy of the file, until it is removed", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 10_000);
    await store.buys.upsertFeed(feed(other, "pepe"), ["p1"], 5, 10_000);
    expect(await store.buys.setFeedMedia(group, "pepe", { kind: "animation", fileId: "CgACAgQAAx0" })).toBe(true);
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256);
    expect(await store.buys.setFeedMedia(other, "pepe", { kind: "photo", file: { name: "whale.png", type: "image/png", data: bytes } })).toBe(true);
    expect(await store.buys.setFeedMedia(group, "wif", { kind: "photo", fileId: "x" })).toBe(false);
    expect(await store.buys.feedMedia(group, "pepe")).toEqual({ kind: "animation", fileId: "CgACAgQAAx0" });
    const copy = await store.buys.feedMedia(other, "pepe");
    expect(copy).toMatchObject({ kind: "photo", file: { name: "whale.png", type: "image/png" } });
    expect(Buffer.from(copy?.file?.data ?? []).equals(Buffer.from(bytes))).toBe(true);
    // Options changed later keep the media; listing says its kind without reading the file.
    await store.buys.upsertFeed(feed(other, "pepe", { minUsd: "250" }), ["p1"], 5, 20_000);
    expect((await store.buys.feedsOnPair("p1")).map((f) => [f.platform, f.media])).toEqual([["discord", "photo"], ["telegram", "animation"]]);
    expect(await store.buys.setFeedMedia(other, "pepe", undefined)).toBe(true);
    expect(await store.buys.feedMedia(other, "pepe")).toBeUndefined();
    expect((await store.buys.listFeeds(other))[0]?.media).toBeUndefined();
  });

  it("watches a pair once for every chat following its token, and stops when the last one stops", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 10_000);
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 50, lastTradeAt: 50, nextPollAt: 60_000 }, [], 55_000);
    await store.buys.upsertFeed(feed(other, "pepe"), ["p1"], 5, 70_000);
    expect(await store.buys.watches()).toEqual([{ pairId: "p1", tokenId: "pepe", cursor: 50, lastTradeAt: 50, nextPollAt: 60_000 }]);
    expect((await store.buys.feedsOnPair("p1")).map((f) => f.platform)).toEqual(["discord", "telegram"]);
    expect(await store.buys.removeFeeds(group, "pepe")).toBe(1);
    expect(await store.buys.watches()).toHaveLength(1);
    expect(await store.buys.removeFeeds(other, "all")).toBe(1);
    expect(await store.buys.watches()).toEqual([]);
    // Followed again later: the watch starts afresh instead of paging back to the old cursor.
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 900_000);
    expect((await store.buys.watches())[0]?.cursor).toBe(900);
  });

  it("keeps what a cut poll left unread with the pair's cursor until a poll reads it, and forgets it when watched afresh", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 10_000);
    const gaps = [{ after: 40, to: 45 }, { after: 10, to: 30 }];
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 50, lastTradeAt: 50, nextPollAt: 60_000, gaps }, [], 55_000);
    expect(await (await db.open()).buys.watches()).toEqual([{ pairId: "p1", tokenId: "pepe", cursor: 50, lastTradeAt: 50, nextPollAt: 60_000, gaps }]);
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 70, lastTradeAt: 70, nextPollAt: 80_000, gaps: [] }, [], 75_000);
    expect((await store.buys.watches())[0]?.gaps).toBeUndefined();
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 90, lastTradeAt: 90, nextPollAt: 100_000, gaps }, [], 95_000);
    await store.buys.removeFeeds(group, "all");
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 900_000);
    expect(await store.buys.watches()).toEqual([{ pairId: "p1", tokenId: "pepe", cursor: 900, nextPollAt: 900_000 }]);
  });

  it("writes a poll's watch only over the one it read, and owes its buys either way", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 10_000);
    const [read] = await store.buys.watches();
    if (read === undefined) throw new Error("no watch");
    // Two workers polled from the same watch; the second to commit finds it changed.
    const mine = { ...read, cursor: 60, lastTradeAt: 60, nextPollAt: 70_000, gaps: [{ after: 10, to: 30 }] };
    expect(await store.buys.commitPoll(mine, [owed(group, "a", 40)], 65_000, read)).toBe(1);
    const stale = { ...read, cursor: 50, lastTradeAt: 50, nextPollAt: 80_000 };
    expect(await store.buys.commitPoll(stale, [owed(group, "a", 40), owed(group, "b", 45)], 66_000, read)).toBe(1);
    expect(await store.buys.watches()).toEqual([mine]);
    const closed = { ...read, cursor: 60, lastTradeAt: 60, nextPollAt: 90_000 };
    await commit(store, closed, [], 85_000);
    expect(await store.buys.watches()).toEqual([closed]);
  });

  it("owes a chat each swap once, whatever polls saw it, and keeps the cursor from going back", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    const w = { pairId: "p1", tokenId: "pepe", cursor: 100, nextPollAt: 1_000 };
    expect(await commit(store, w, [owed(group, "a", 90), owed(group, "b", 100)], 1)).toBe(2);
    expect(await commit(store, { ...w, cursor: 80 }, [owed(group, "b", 100), owed(group, "c", 95)], 2)).toBe(1);
    expect((await store.buys.watches())[0]?.cursor).toBe(100);
    expect((await store.buys.queuedBuys(group)).map((b) => b.swapKey)).toEqual(["a", "c", "b"]);
    expect(await store.buys.chatsOwed()).toEqual([group]);
    // Reopened (a restart, another worker): the record is the same.
    const again = await db.open();
    expect(await commit(again, w, [owed(group, "a", 90)], 3)).toBe(0);
  });

  it("queues a post with its buys moved out of queued in one step, each buy in one post, and prunes only settled ones", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 100, nextPollAt: 1 }, [owed(group, "a", 90), owed(group, "b", 91), owed(group, "c", 92)], 1_000);
    const post = (postKey: string, kind: "post" | "summary", swapKeys: string[]): NewBuyPost => ({ ...group, postKey, tokenId: "pepe", kind, txTime: 92, payload: "{}", swapKeys });
    expect(await store.buys.queueBuyPost(post("a", "post", ["a"]), 2_000)).toBe(true);
    // "a" is in a post already: the summary is refused whole and "b", "c" stay queued.
    expect(await store.buys.queueBuyPost(post("fold:a:3", "summary", ["a", "b", "c"]), 2_000)).toBe(false);
    expect((await store.buys.queuedBuys(group)).map((b) => b.swapKey)).toEqual(["b", "c"]);
    expect(await store.buys.queueBuyPost(post("fold:b:2", "summary", ["b", "c"]), 2_000)).toBe(true);
    expect(await store.buys.queueBuyPost(post("fold:b:2", "summary", ["b", "c"]), 2_000)).toBe(false);
    expect(await store.buys.queuedBuys(group)).toEqual([]);
    expect(await store.buys.buyCounts()).toEqual({ posted: 1, folded: 2 });
    expect((await store.buys.waitingBuyPosts()).map((p) => [p.postKey, p.kind, p.state])).toEqual([["a", "post", "queued"], ["fold:b:2", "summary", "queued"]]);
    expect(await store.buys.pruneBuys(1_000, 0)).toBe(0);
    await store.buys.expireBuyPost({ ...group, postKey: "a" }, 3_000);
    expect(await store.buys.buyPostCounts()).toEqual({ expired: 1, queued: 1 });
    expect(await store.buys.pruneBuys(2_001, 0)).toBe(3);
    expect(await store.buys.buyPostCounts()).toEqual({ queued: 1 });
  });

  it("prunes a settled buy only once no poll can read its swap again, nor a gap hold it", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 100, nextPollAt: 1 }, [owed(group, "a", 30), owed(group, "b", 50)], 1_000);
    const post = (postKey: string, swapKeys: string[]): NewBuyPost => ({ ...group, postKey, tokenId: "pepe", kind: "post", txTime: 50, payload: "{}", swapKeys });
    expect(await store.buys.queueBuyPost(post("a", ["a"]), 1_000)).toBe(true);
    expect(await store.buys.queueBuyPost(post("b", ["b"]), 1_000)).toBe(true);
    // The next poll asks from the cursor less 60 s, 40: "b" (50) would be read again and must stay known.
    expect(await store.buys.pruneBuys(2_000, 60)).toBe(1);
    expect(await store.buys.buyCounts()).toEqual({ posted: 1 });
    // A gap left to read may hold any older swap: nothing of the token goes while it is there.
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 200, nextPollAt: 1, gaps: [{ after: 100, to: 150 }] }, [], 3_000);
    expect(await store.buys.pruneBuys(4_000, 60)).toBe(0);
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 200, nextPollAt: 1 }, [], 5_000);
    expect(await store.buys.pruneBuys(6_000, 60)).toBe(1);
    expect(await store.buys.buyCounts()).toEqual({});
  });

  it("drops a stopped feed's posts not yet sent, of that token only, and leaves the one in flight", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    await store.buys.upsertFeed(feed(group, "wif"), ["w1"], 5, 0);
    const post = (postKey: string, tokenId: string): NewBuyPost => ({ ...group, postKey, tokenId, kind: "post", txTime: 92, payload: "{}", swapKeys: [] });
    for (const [key, token] of [["a", "pepe"], ["b", "pepe"], ["c", "pepe"], ["w", "wif"]] as const) await store.buys.queueBuyPost(post(key, token), 1_000);
    await store.subscriptions.acquireLease(WATCHER_LEASE, "me", 60_000, 1_000);
    const rows = { ...group, postKey: "a" };
    expect(await store.buys.claimBuyPost(rows, "me", WATCHER_LEASE, 2_000)).toBe("claimed");
    expect(await store.buys.removeFeeds(group, "pepe")).toBe(1);
    expect((await store.buys.waitingBuyPosts()).map((p) => p.postKey)).toEqual(["w"]);
    // The post in flight is recorded as it ends; the others can no longer be claimed.
    expect(await store.buys.settleBuyPost(rows, "me", "delivered", 3_000)).toBe(true);
    expect(await store.buys.claimBuyPost({ ...group, postKey: "b" }, "me", WATCHER_LEASE, 3_000)).toBe("taken");
    expect(await store.buys.removeFeeds(group, "all")).toBe(1);
    expect(await store.buys.waitingBuyPosts()).toEqual([]);
  });

  it("resends once, recorded resent, a post whose watcher died between its claim and its outcome", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    const trade: Trade = {
      swapKey: "s1", pairId: "p1", tokenId: "pepe", chain: "eth", side: "buy", txHash: "0x1", txTime: 1_000, amountUsd: "500",
      quoteAmount: "0.2", quoteSymbol: "WETH", tokenAmount: "1000", wallet: `0x${"1".repeat(40)}`, amm: "uniswapv2",
    };
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 1_000, nextPollAt: 1 }, [{ ...group, swapKey: "s1", tokenId: "pepe", txTime: 1_000, payload: JSON.stringify(trade) }], 1_000_000);
    let clock = 1_001_000;
    const now = () => clock;
    const watcher = async (sender: string, send: (reply: Reply) => Promise<SendOutcome>) => {
      const leading = await store.subscriptions.acquireLease(WATCHER_LEASE, sender, 45_000, clock);
      return createBuyDelivery({
        buys: store.buys, chats: store, core: createPostRenderer({ settings: store, source: "test", log: pino({ level: "silent" }) }),
        sinks: { telegram: { send: (_chat, reply) => send(reply) } },
        queues: { telegram: createPacedQueue({ maxInFlight: 1, now }) }, lease: WATCHER_LEASE, sender, leading: () => leading,
        logger: pino({ level: "silent" }), now,
      });
    };
    // The first watcher claims the post and its request never comes back: it died mid-send.
    const atPlatform = deferred();
    const answer = deferred<SendOutcome>();
    const dead = await watcher("dead", () => {
      atPlatform.resolve();
      return answer.promise;
    });
    await dead.flush();
    await atPlatform.promise;
    expect(await store.buys.buyPostCounts()).toEqual({ sending: 1 });
    // Its lease runs out; the next watcher takes it, finds the post cut off and sends it once more.
    clock += 60_000;
    const sent: Reply[] = [];
    const next = await watcher("next", async (reply) => (sent.push(reply), { kind: "delivered" }));
    await next.flush();
    await next.settled();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.title).toContain("PEPE");
    expect(await store.buys.buyPostCounts()).toEqual({ resent: 1 });
    await next.flush();
    await next.settled();
    expect(sent).toHaveLength(1);
    // The dead sender's answer arriving late changes nothing: the outcome is recorded.
    answer.resolve({ kind: "delivered" });
    await dead.settled();
    expect(await store.buys.buyPostCounts()).toEqual({ resent: 1 });
    expect(await store.buys.buyCounts()).toEqual({ posted: 1 });
  });

  it("keeps each wallet's first buy of a token seen, bounded, and forgets them with the token's last feed", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 10_000);
    const b = (wallet: string, swapKey: string) => ({ wallet, swapKey });
    expect([...(await store.buys.firstBuys("pepe", [b("0xa", "s1"), b("0xb", "s2"), b("0xa", "s3")], 3))].sort()).toEqual(["s1", "s2"]);
    // Seen again (the overlap of the next poll): still their first; a later buy is not.
    expect([...(await store.buys.firstBuys("pepe", [b("0xa", "s1"), b("0xa", "s4"), b("0xb", "s2")], 3))].sort()).toEqual(["s1", "s2"]);
    // The bound: one more wallet fits, then none is called first.
    expect([...(await store.buys.firstBuys("pepe", [b("0xc", "s5"), b("0xd", "s6")], 3))]).toEqual(["s5"]);
    expect([...(await store.buys.firstBuys("wif", [b("0xd", "s7")], 3))]).toEqual(["s7"]);
    await store.buys.removeFeeds(group, "all");
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 90_000);
    // Followed afresh: a wallet's buy is its first seen since this feed started.
    expect([...(await store.buys.firstBuys("pepe", [b("0xa", "s8")], 3))]).toEqual(["s8"]);
  });

  it("forgets a removed chat's feeds and buys, and moves a migrated group's with it", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    await commit(store, { pairId: "p1", tokenId: "pepe", cursor: 1, nextPollAt: 1 }, [owed(group, "a", 1)], 1);
    await store.moveChat(group, "-200");
    const moved = { platform: "telegram" as const, chatId: "-200" };
    expect((await store.buys.listFeeds(moved)).map((f) => f.tokenId)).toEqual(["pepe"]);
    expect((await store.buys.queuedBuys(moved)).map((b) => b.swapKey)).toEqual(["a"]);
    await store.forgetChat(moved);
    expect(await store.buys.listFeeds(moved)).toEqual([]);
    expect(await store.buys.queuedBuys(moved)).toEqual([]);
    expect(await store.buys.watches()).toEqual([]);
  });
});
