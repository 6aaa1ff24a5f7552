import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuyDelivery, type BuyDelivery } from "../../src/buys/delivery.js";
import { DEFAULT_OPTIONS } from "../../src/buys/options.js";
import type { Trade } from "../../src/buys/trade.js";
import { WATCHER_LEASE } from "../../src/buys/watcher.js";
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import type { Reply } from "../../src/core/reply.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import type { ChatKey } from "../../src/store/types.js";

const T = Date.UTC(2026, 10, 22, 12, 0);
const group: ChatKey = { platform: "telegram", chatId: "-100" };

function trade(i: number): Trade {
  return {
    swapKey: `k${String(i).padStart(3, "0")}`, pairId: "p-eth", tokenId: "pepe-eth", chain: "eth", side: "buy", txHash: `0x${i}`, txTime: T / 1000 + i,
    amountUsd: String(100 + i), quoteAmount: "0.1", quoteSymbol: "WETH", tokenAmount: "1000", wallet: `0x${String(i).padStart(40, "0")}`, amm: "uniswapv2",
  };
}

describe("delivering owed buys", () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = await openSqliteStore({ path: ":memory:" });
    await store.buys.upsertFeed({ ...group, tokenId: "pepe-eth", symbol: "PEPE", chain: "eth", options: DEFAULT_OPTIONS }, ["p-eth"], 5, T);
  });
  afterEach(() => store.close());

  const owe = async (trades: Trade[]) => {
    const [read] = await store.buys.watches();
    if (read === undefined) throw new Error("p-eth is not watched");
    return store.buys.commitPoll(
      { ...read, cursor: T / 1000 + 100, nextPollAt: T },
      trades.map((t) => ({ ...group, swapKey: t.swapKey, tokenId: t.tokenId, txTime: t.txTime, payload: JSON.stringify(t) })),
      T,
      read,
    );
  };

  const flushed = async (d: BuyDelivery) => {
    await d.flush();
    await d.settled();
  };

  /** A watcher's delivery: it sends while it holds the watcher's lease as `sender`. */
  async function world(sent: Reply[], sender = "w1") {
    const leading = await store.subscriptions.acquireLease(WATCHER_LEASE, sender, 45_000, T + 200_000);
    const sink = { send: async (_chat: string, reply: Reply) => (sent.push(reply), { kind: "delivered" as const }) };
    const core = createPostRenderer({ settings: store, source: "test", log: pino({ level: "silent" }) });
    return createBuyDelivery({
      buys: store.buys, chats: store, core, sinks: { telegram: sink }, queues: { telegram: createPacedQueue({ maxInFlight: 1, now: () => T + 200_000 }) },
      lease: WATCHER_LEASE, sender, leading: () => leading, logger: pino({ level: "silent" }), now: () => T + 200_000,
    });
  }

  it("folds a burst the group's pace cannot take into one summary, every buy in exactly one post or summary", async () => {
    const trades = Array.from({ length: 55 }, (_, i) => trade(i));
    await owe(trades);
    const sent: Reply[] = [];
    await flushed(await world(sent));
    expect(sent).toHaveLength(32);
    expect(sent.filter((r) => r.title.includes("more PEPE buys"))).toHaveLength(1);
    expect(sent[0]?.title).toBe("🟢 24 more PEPE buys · $2,676 in 23 s · largest $123 by 0x0000…0023");
    expect(await store.buys.buyCounts()).toEqual({ folded: 24, posted: 31 });
    expect(await store.buys.buyPostCounts()).toEqual({ delivered: 32 });
    expect(await store.buys.queuedBuys(group)).toEqual([]);
  });

  it("posts a burst's whale on its own, marked, rather than folding it with the oldest buys", async () => {
    const trades = Array.from({ length: 55 }, (_, i) => (i === 3 ? { ...trade(i), amountUsd: "25000" } : trade(i)));
    await owe(trades);
    const sent: Reply[] = [];
    await flushed(await world(sent));
    expect(sent).toHaveLength(32);
    expect(sent[0]?.title).toMatch(/^🟢 24 more PEPE buys · /);
    expect(sent[0]?.title).not.toContain("25,000");
    expect(sent.filter((r) => r.title.includes("🐳"))).toHaveLength(1);
    expect(await store.buys.buyCounts()).toEqual({ folded: 24, posted: 31 });
  });

  it("sends nothing twice: a worker without the watcher's lease sends nothing, and a restarted one finds every post recorded", async () => {
    await owe([trade(1), trade(2)]);
    const first: Reply[] = [];
    const second: Reply[] = [];
    const leader = await world(first);
    const other = await world(second, "w2");
    await Promise.all([flushed(leader), flushed(other)]);
    expect([first.length, second.length]).toEqual([2, 0]);
    await store.subscriptions.releaseLease(WATCHER_LEASE, "w1");
    await flushed(await world(second, "w3"));
    expect([first.length, second.length]).toEqual([2, 0]);
    expect(await store.buys.buyPostCounts()).toEqual({ delivered: 2 });
  });

  it("says how long ago a trade was as its post leaves: after the chat's pace held it, and after a 429's wait", async () => {
    let t = T + 200_000;
    const now = () => t;
    await store.subscriptions.acquireLease(WATCHER_LEASE, "w1", 600_000, t);
    await owe([trade(1), trade(2)]);
    const sent: { at: number; time: string | undefined }[] = [];
    let refused = false;
    const sink = {
      send: async (_chat: string, reply: Reply) => {
        if (!refused) {
          refused = true;
          return { kind: "retry" as const, afterMs: 30_000 };
        }
        const fields = reply.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : []));
        sent.push({ at: t, time: fields.find((f) => f.label === "Time")?.value });
        return { kind: "delivered" as const };
      },
    };
    // Two messages a minute to the group, the refused send counted: the second post waits for the minute.
    const queue = createPacedQueue({ maxInFlight: 1, perChatPerMinute: 2, now, sleep: async (ms) => void (t += ms) });
    await flushed(createBuyDelivery({
      buys: store.buys, chats: store, core: createPostRenderer({ settings: store, source: "test", log: pino({ level: "silent" }) }),
      sinks: { telegram: sink }, queues: { telegram: queue }, lease: WATCHER_LEASE, sender: "w1", leading: () => true, logger: pino({ level: "silent" }), now,
    }));
    expect(sent).toEqual([
      { at: T + 230_000, time: "12:00:01 UTC · 3m 49s ago" },
      { at: T + 260_000, time: "12:00:02 UTC · 4m 18s ago" },
    ]);
  });

  it("leaves a chat all its slots however many posts of other chats wait in the platform's queue", async () => {
    const leading = await store.subscriptions.acquireLease(WATCHER_LEASE, "w1", 45_000, T + 200_000);
    const queue = createPacedQueue({ maxInFlight: 1, now: () => T + 200_000 });
    // Another group's 30 posts wait behind one held in flight.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const others = Array.from({ length: 30 }, () => queue.push({ chatId: "-200", deadline: Infinity, send: async () => (await held, { kind: "delivered" as const }) }));
    const sent: Reply[] = [];
    const sink = { send: async (_chat: string, reply: Reply) => (sent.push(reply), { kind: "delivered" as const }) };
    const delivery = createBuyDelivery({
      buys: store.buys, chats: store, core: createPostRenderer({ settings: store, source: "test", log: pino({ level: "silent" }) }), sinks: { telegram: sink },
      queues: { telegram: queue }, lease: WATCHER_LEASE, sender: "w1", leading: () => leading, logger: pino({ level: "silent" }), now: () => T + 200_000,
    });
    await owe(Array.from({ length: 20 }, (_, i) => trade(i)));
    await delivery.flush();
    release();
    await Promise.all(others);
    await delivery.settled();
    expect(sent).toHaveLength(20);
    expect(sent.filter((r) => r.title.includes("more PEPE buys"))).toEqual([]);
  });

  it("takes the posts of a feed stopped mid-burst out of the chat's queue before they use up its pace", async () => {
    const leading = await store.subscriptions.acquireLease(WATCHER_LEASE, "w1", 45_000, T + 200_000);
    // The pace of a Telegram group on a clock that a wait moves on at once.
    let clock = T + 200_000;
    const queue = createPacedQueue({
      maxInFlight: 1, perChatPerMinute: 20, perChatSpacingMs: 1_000, reservePerChat: 4, now: () => clock,
      sleep: async (ms) => void (clock += ms),
    });
    const sent: string[] = [];
    let stoppedAt = 0;
    const sink = {
      send: async (_chat: string, reply: Reply) => {
        sent.push(reply.title);
        // The group's admin sends /stopbuys after its third post.
        if (sent.length === 3) {
          stoppedAt = clock;
          await store.buys.removeFeeds(group, "pepe-eth");
          await delivery.flush();
        }
        return { kind: "delivered" as const };
      },
    };
    const delivery = createBuyDelivery({
      buys: store.buys, chats: store, core: createPostRenderer({ settings: store, source: "test", log: pino({ level: "silent" }) }), sinks: { telegram: sink },
      queues: { telegram: queue }, lease: WATCHER_LEASE, sender: "w1", leading: () => leading, logger: pino({ level: "silent" }), now: () => clock,
    });
    await owe(Array.from({ length: 12 }, (_, i) => trade(i)));
    await flushed(delivery);
    expect(sent).toHaveLength(3);
    // The group's next message (a digest) goes in the second after the last post, not behind nine dead posts' turns.
    expect(await queue.push({ chatId: group.chatId, deadline: Infinity, send: async () => ({ kind: "delivered" }) })).toEqual({ kind: "delivered" });
    expect(clock - stoppedAt).toBeLessThanOrEqual(1_000);
  });

  it("drops the buys of a feed stopped since they were owed", async () => {
    await owe([trade(1)]);
    await store.buys.removeFeeds(group, "pepe-eth");
    const sent: Reply[] = [];
    await flushed(await world(sent));
    expect(sent).toEqual([]);
    expect(await store.buys.buyCounts()).toEqual({ dropped: 1 });
  });
});
