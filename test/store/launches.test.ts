import { beforeEach, describe, expect, it } from "vitest";
import type { LaunchStore, NewLaunchPost } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();
const chat = { platform: "telegram" as const, chatId: "1" };
const post = (tokenId: string): NewLaunchPost => ({ ...chat, tokenId, kind: "token", chain: "solana", payload: "{}" });

describe.each(ENGINES)("launch store on %s", (engine) => {
  let db: TestDatabase;
  let launches: LaunchStore;
  beforeEach(async () => {
    db = await engines.database(engine);
    launches = (await db.open()).launches;
  });

  it("keeps one subscription per chat and chain, with its minimum changed in place", async () => {
    await launches.upsertLaunchSubscription({ ...chat, chain: "solana", minLiquidity: 0 }, 1);
    await launches.upsertLaunchSubscription({ ...chat, chain: "solana", minLiquidity: 5000 }, 2);
    await launches.upsertLaunchSubscription({ platform: "discord", chatId: "9", chain: "bsc", minLiquidity: 0 }, 3);
    expect(await launches.listLaunchSubscriptions(chat)).toMatchObject([{ chain: "solana", minLiquidity: 5000, createdAt: 1 }]);
    expect(await launches.launchChains()).toEqual(["bsc", "solana"]);
    expect(await launches.removeLaunchSubscription(chat, "solana")).toBe(1);
    expect(await launches.removeLaunchSubscription(chat, "solana")).toBe(0);
  });

  it("queues a token once per chat and counts only its unfolded token posts this hour", async () => {
    expect(await launches.queueLaunchPost(post("a-solana"), "queued", 10)).toBe(true);
    expect(await launches.queueLaunchPost(post("a-solana"), "queued", 11)).toBe(false);
    await launches.queueLaunchPost(post("b-solana"), "folded", 12);
    await launches.queueLaunchPost({ ...post("summary:solana:0"), kind: "summary" }, "queued", 13);
    expect(await launches.launchesCountedSince(chat, 0)).toBe(1);
    expect(await launches.launchesCountedSince(chat, 11)).toBe(0);
    expect((await launches.waitingLaunchPosts()).map((p) => p.tokenId)).toEqual(["a-solana", "summary:solana:0"]);
    expect((await launches.foldedBefore(100)).map((p) => p.tokenId)).toEqual(["b-solana"]);
    await launches.markSummarised(chat, ["b-solana"], 20);
    expect(await launches.foldedBefore(100)).toEqual([]);
    expect(await launches.launchPostCounts()).toEqual({ queued: 2, summarised: 1 });
  });

  it("drops what a chat was still to get of a chain it unsubscribed from, and keeps its other chains", async () => {
    await launches.upsertLaunchSubscription({ ...chat, chain: "solana", minLiquidity: 0 }, 1);
    await launches.upsertLaunchSubscription({ ...chat, chain: "eth", minLiquidity: 0 }, 1);
    await launches.queueLaunchPost(post("a-solana"), "queued", 10);
    await launches.queueLaunchPost(post("b-solana"), "folded", 11);
    await launches.queueLaunchPost({ ...post("c-eth"), chain: "eth" }, "folded", 12);
    expect(await launches.removeLaunchSubscription(chat, "solana")).toBe(1);
    expect(await launches.waitingLaunchPosts()).toEqual([]);
    expect((await launches.foldedBefore(100)).map((p) => p.tokenId)).toEqual(["c-eth"]);
    // The rows stay, dropped: a token reaches a chat once even if it subscribes again.
    expect(await launches.queueLaunchPost(post("a-solana"), "queued", 20)).toBe(false);
  });
});
