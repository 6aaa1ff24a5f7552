import { beforeEach, describe, expect, it } from "vitest";
import type { BuyFeed, BuyOptions, ChatKey, NewOwedBuy, Store } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();

const OPTIONS: BuyOptions = { minUsd: "50", sells: false, whaleUsd: "10000", emoji: "🟢", stepUsd: "50" };
const group: ChatKey = { platform: "telegram", chatId: "-100" };
const other: ChatKey = { platform: "discord", chatId: "555" };

function feed(chat: ChatKey, tokenId: string, options: Partial<BuyOptions> = {}): Omit<BuyFeed, "createdAt"> {
  return { ...chat, tokenId, symbol: tokenId.toUpperCase(), chain: "eth", options: { ...OPTIONS, ...options } };
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

  it("watches a pair once for every chat following its token, and stops when the last one stops", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 10_000);
    await store.buys.commitPoll({ pairId: "p1", tokenId: "pepe", cursor: 50, lastTradeAt: 50, nextPollAt: 60_000 }, [], 55_000);
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

  it("owes a chat each swap once, whatever polls saw it, and keeps the cursor from going back", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    const w = { pairId: "p1", tokenId: "pepe", cursor: 100, nextPollAt: 1_000 };
    expect(await store.buys.commitPoll(w, [owed(group, "a", 90), owed(group, "b", 100)], 1)).toBe(2);
    expect(await store.buys.commitPoll({ ...w, cursor: 80 }, [owed(group, "b", 100), owed(group, "c", 95)], 2)).toBe(1);
    expect((await store.buys.watches())[0]?.cursor).toBe(100);
    expect((await store.buys.queuedBuys(group)).map((b) => b.swapKey)).toEqual(["a", "c", "b"]);
    expect(await store.buys.chatsOwed()).toEqual([group]);
    // Reopened (a restart, another worker): the record is the same.
    const again = await db.open();
    expect(await again.buys.commitPoll(w, [owed(group, "a", 90)], 3)).toBe(0);
  });

  it("settles queued buys into posts and summaries once, and prunes only settled ones", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    await store.buys.commitPoll({ pairId: "p1", tokenId: "pepe", cursor: 100, nextPollAt: 1 }, [owed(group, "a", 90), owed(group, "b", 91), owed(group, "c", 92)], 1_000);
    expect(await store.buys.settleBuys(group, ["a"], "posted", 2_000)).toBe(1);
    expect(await store.buys.settleBuys(group, ["a", "b", "c"], "folded", 2_000, "s1")).toBe(2);
    expect(await store.buys.queuedBuys(group)).toEqual([]);
    expect(await store.buys.buyCounts()).toEqual({ posted: 1, folded: 2 });
    expect(await store.buys.pruneBuys(1_000)).toBe(0);
    expect(await store.buys.pruneBuys(1_001)).toBe(3);
  });

  it("forgets a removed chat's feeds and buys, and moves a migrated group's with it", async () => {
    await store.buys.upsertFeed(feed(group, "pepe"), ["p1"], 5, 0);
    await store.buys.commitPoll({ pairId: "p1", tokenId: "pepe", cursor: 1, nextPollAt: 1 }, [owed(group, "a", 1)], 1);
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
