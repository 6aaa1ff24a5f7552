import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PAGE } from "../../src/buys/poll.js";
import { createWatcher, KEEP_BUYS_MS, MAX_GAPS, type Watcher, type WatcherOptions } from "../../src/buys/watcher.js";
import type { Trade } from "../../src/buys/trade.js";
import type { SwapsParams } from "../../src/market/api.js";
import { MarketClient } from "../../src/market/client.js";
import { MarketError } from "../../src/market/errors.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import type { BuyOptions, ChatKey, PairWatch } from "../../src/store/types.js";

const T0 = Date.UTC(2026, 10, 22, 12, 30);
const S0 = T0 / 1000;
const OPTIONS: BuyOptions = { minUsd: "50", sells: false, whaleUsd: "10000", emoji: "🟢", stepUsd: "50" };
const chat = (id: string): ChatKey => ({ platform: "telegram", chatId: id });

describe("the buy watcher", () => {
  let sb: Sandbox;
  let clock = T0;
  let client: MarketClient;
  let token: SandboxToken;
  let pairId: string;
  let store: SqliteStore;
  let dir = 0;
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    sb = await startSandbox({ now: () => clock });
  });
  afterAll(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    clock = T0;
    // A client of its own per test: its scheduler's clock must never go back.
    client = new MarketClient({ v2: { baseUrl: sb.url, key: sb.v2Key }, retry: { maxAttempts: 1 }, now: () => clock });
    // A token of its own per test, its pairs quiet: every swap served is one the test placed.
    token = sb.market.tokens.filter((t) => !t.hostile && !t.main && t.chain === "eth" && t.pairs.length > 0 && t.launchAt < S0 - 86_400)[dir++] as SandboxToken;
    pairId = token.pairs[0]?.id ?? "";
    for (const p of token.pairs) sb.quietPair(p.id);
    store = await openSqliteStore({ path: ":memory:" });
    sb.resetStats();
  });
  afterEach(async () => {
    for (const w of watchers.splice(0)) await w.stop();
    await store.close();
    await client.close();
  });

  function watcher(extra: Partial<WatcherOptions> = {}): Watcher {
    const w = createWatcher({
      buys: store.buys, leases: store.subscriptions, market: client, budget: () => ({}), platforms: ["telegram", "discord"],
      logger: pino({ level: "silent" }), now: () => clock, pollSeconds: 15, maxPollSeconds: 300, ...extra,
    });
    watchers.push(w);
    return w;
  }

  const follow = (c: ChatKey, options: Partial<BuyOptions> = {}) =>
    store.buys.upsertFeed({ ...c, tokenId: token.id, symbol: token.symbol, chain: token.chain, options: { ...OPTIONS, ...options } }, [pairId], 5, clock);

  const owedTo = async (c: ChatKey): Promise<Trade[]> => (await store.buys.queuedBuys(c)).map((b) => JSON.parse(b.payload) as Trade);
  const swapCalls = () => sb.stats().byEndpoint.swaps ?? 0;

  it("polls a pair once for every chat following its token, each chat owed the trades at or over its own minimum", async () => {
    await follow(chat("a"));
    await follow(chat("b"), { minUsd: "500" });
    await follow(chat("c"), { sells: true });
    sb.placeSwaps(pairId, [
      { time: S0 + 3, side: "buy", amountUsd: 40 },
      { time: S0 + 4, side: "buy", amountUsd: 60 },
      { time: S0 + 5, side: "sell", amountUsd: 700 },
      { time: S0 + 6, side: "buy", amountUsd: 900 },
    ]);
    clock = T0 + 10_000;
    expect(await watcher().tick()).toEqual([pairId]);
    expect(swapCalls()).toBe(1);
    expect((await owedTo(chat("a"))).map((t) => t.amountUsd)).toEqual(["60", "900"]);
    expect((await owedTo(chat("b"))).map((t) => t.amountUsd)).toEqual(["900"]);
    expect((await owedTo(chat("c"))).map((t) => [t.side, t.amountUsd])).toEqual([["buy", "60"], ["sell", "700"], ["buy", "900"]]);
    const [first] = await owedTo(chat("a"));
    expect(first).toMatchObject({ tokenId: token.id, pairId, quoteSymbol: token.pairs[0]?.quote.symbol, txTime: S0 + 4 });
  });

  it("forgets a posted buy after a week, once no poll can read its swap again", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, [{ time: S0 + 5, side: "buy", amountUsd: 75 }]);
    const w = watcher();
    clock = T0 + 10_000;
    await w.tick();
    const [buy] = await store.buys.queuedBuys(chat("a"));
    const post = { ...chat("a"), postKey: "p", tokenId: token.id, kind: "post" as const, txTime: S0 + 5, payload: "{}", swapKeys: [buy?.swapKey ?? ""] };
    expect(await store.buys.queueBuyPost(post, clock)).toBe(true);
    // A week on, a new trade: this poll reads from the old cursor, so the old buy is still known and not owed again.
    clock = T0 + KEEP_BUYS_MS + 60_000;
    sb.placeSwaps(pairId, [{ time: clock / 1000 - 5, side: "buy", amountUsd: 80 }]);
    await w.tick();
    expect(await store.buys.buyCounts()).toEqual({ posted: 1, queued: 1 });
    // An hour later the cursor has passed it by more than the overlap: it goes.
    clock += 3_600_000;
    await w.tick();
    expect(await store.buys.buyCounts()).toEqual({ queued: 1 });
  });

  it("posts a swap the service indexes late, once polls covered its time, within the overlap", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, [{ time: S0 + 20, side: "buy", amountUsd: 75, indexedAt: S0 + 70 }, { time: S0 + 25, side: "buy", amountUsd: 80 }]);
    const w = watcher();
    clock = T0 + 30_000;
    await w.tick();
    expect((await owedTo(chat("a"))).map((t) => t.amountUsd)).toEqual(["80"]);
    clock = T0 + 75_000;
    await w.tick();
    expect((await owedTo(chat("a"))).map((t) => t.amountUsd)).toEqual(["75", "80"]);
  });

  it("pages back from a full page to the cursor, telling same-second swaps apart by identity", async () => {
    await follow(chat("a"));
    // 47 buys over three seconds, 20 a page: pages end inside a second.
    const burst = Array.from({ length: 47 }, (_, i) => ({ time: S0 + 5 + (i % 3), side: "buy" as const, amountUsd: 100 + i }));
    sb.placeSwaps(pairId, burst);
    clock = T0 + 10_000;
    await watcher({ pageSize: 20 }).tick();
    expect(swapCalls()).toBeGreaterThan(2);
    const got = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y);
    expect(got).toEqual(burst.map((b) => b.amountUsd));
  });

  it("pages back from a page the service cut below the size asked, by the limit it answers with", async () => {
    await follow(chat("a"));
    const burst = Array.from({ length: 47 }, (_, i) => ({ time: S0 + 2 + (i % 7), side: "buy" as const, amountUsd: 100 + i }));
    sb.placeSwaps(pairId, burst);
    clock = T0 + 10_000;
    // A service whose pages hold at most 20 swaps, whatever is asked, and say so.
    const market = { swaps: (q: SwapsParams) => client.swaps({ ...q, limit: Math.min(q.limit ?? 20, 20) }) };
    await watcher({ market }).tick();
    expect(swapCalls()).toBeGreaterThan(2);
    const got = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y);
    expect(got).toEqual(burst.map((b) => b.amountUsd));
  });

  it("stops paging back when the service answers a page back with no older swap, rather than ask it again to the page limit", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, Array.from({ length: 47 }, (_, i) => ({ time: S0 + 2 + i, side: "buy" as const, amountUsd: 100 + i })));
    clock = T0 + 60_000;
    // A service that serves the newest swaps whatever to_time asks for.
    const market = { swaps: (q: SwapsParams) => client.swaps({ ...q, toTime: undefined }) };
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) });
    await watcher({ market, pageSize: 20, logger }).tick();
    expect(swapCalls()).toBe(2);
    expect(await owedTo(chat("a"))).toHaveLength(20);
    expect(warnings.some((m) => m.includes("does not honour to_time"))).toBe(true);
  });

  it("asks pages of the documented default size once the service refuses a larger one, and loses nothing", async () => {
    await follow(chat("a"));
    const burst = Array.from({ length: 150 }, (_, i) => ({ time: S0 + 2 + (i % 7), side: "buy" as const, amountUsd: 100 + i }));
    sb.placeSwaps(pairId, burst);
    clock = T0 + 10_000;
    const asked: number[] = [];
    const market = {
      swaps: (q: SwapsParams) => {
        asked.push(q.limit ?? 0);
        if ((q.limit ?? 0) > DEFAULT_PAGE) return Promise.reject(new MarketError({ kind: "bad_request", endpoint: "swaps", message: "HTTP 400", status: 400 }));
        return client.swaps(q);
      },
    };
    const w = watcher({ market });
    await w.tick();
    expect((await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y)).toEqual(burst.map((b) => b.amountUsd));
    sb.placeSwaps(pairId, [{ time: S0 + 20, side: "buy", amountUsd: 5_000 }]);
    clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
    await w.tick();
    expect((await owedTo(chat("a"))).map((t) => Number(t.amountUsd))).toContain(5_000);
    // One refusal, then the default size only.
    expect(asked.filter((n) => n > DEFAULT_PAGE)).toEqual([300]);
    expect(asked.slice(1).every((n) => n === DEFAULT_PAGE)).toBe(true);
  });

  it("leaves no gap when a poll reaches its page limit: later polls read what it left, new swaps first, after a restart too", async () => {
    await follow(chat("a"));
    // 50 buys and 10 under the minimum in 200 s, 30 swaps a poll: more than one poll may page through.
    const buys = Array.from({ length: 50 }, (_, i) => ({ time: S0 + 4 + 4 * i, side: "buy" as const, amountUsd: 100 + i }));
    const small = Array.from({ length: 10 }, (_, i) => ({ time: S0 + 2 + 4 * i, side: "buy" as const, amountUsd: 30 }));
    sb.placeSwaps(pairId, [...buys, ...small]);
    const pages: number[] = [];
    const options = { pageSize: 10, maxPages: 3, events: { polled: (e: { pages: number }) => pages.push(e.pages) } };
    const first = watcher(options);
    clock = T0 + 210_000;
    await first.tick();
    const owedFirst = (await owedTo(chat("a"))).length;
    expect(owedFirst).toBeLessThan(buys.length);
    expect((await store.buys.watches())[0]?.gaps).toHaveLength(1);
    // A restart: what the cut poll left is read from the store by the next watcher.
    await first.stop();
    const again = watcher(options);
    const late = [{ time: S0 + 215, side: "buy" as const, amountUsd: 1_000 }, { time: S0 + 216, side: "buy" as const, amountUsd: 1_001 }];
    sb.placeSwaps(pairId, late);
    clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
    await again.tick();
    const owedSecond = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd));
    expect(owedSecond).toEqual(expect.arrayContaining([1_000, 1_001]));
    expect(owedSecond.length).toBeGreaterThan(owedFirst + late.length);
    for (let i = 0; i < 10 && (await store.buys.watches())[0]?.gaps !== undefined; i++) {
      clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
      await again.tick();
    }
    expect((await store.buys.watches())[0]?.gaps).toBeUndefined();
    const got = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y);
    expect(got).toEqual([...buys, ...late].map((b) => b.amountUsd));
    expect(Math.max(...pages)).toBe(3);
  });

  it("reads a gap from the overlap before its cursor: a swap indexed late just before a burst the poll could not page through is owed", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, [
      { time: S0 + 5, side: "buy", amountUsd: 70 },
      // Older than the first poll's newest swap, and served only after that poll.
      { time: S0 + 3, side: "buy", amountUsd: 71, indexedAt: S0 + 12 },
    ]);
    const w = watcher({ pageSize: 10, maxPages: 4, overlapSeconds: 20 });
    clock = T0 + 10_000;
    await w.tick();
    expect((await owedTo(chat("a"))).map((t) => t.amountUsd)).toEqual(["70"]);
    // A buy a second for longer than the overlap: the next poll's pages stop well short of the cursor.
    const burst = Array.from({ length: 60 }, (_, i) => ({ time: S0 + 30 + i, side: "buy" as const, amountUsd: 100 + i }));
    sb.placeSwaps(pairId, burst);
    clock = T0 + 90_000;
    await w.tick();
    expect((await store.buys.watches())[0]?.gaps).toEqual([{ after: S0 + 5, to: expect.any(Number) }]);
    expect((await owedTo(chat("a"))).map((t) => t.amountUsd)).not.toContain("71");
    for (let i = 0; i < 10 && (await store.buys.watches())[0]?.gaps !== undefined; i++) {
      clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
      await w.tick();
    }
    expect((await store.buys.watches())[0]?.gaps).toBeUndefined();
    const got = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y);
    expect(got).toEqual([70, 71, ...burst.map((b) => b.amountUsd)]);
  });

  it("calls a wallet's buy its first only once no gap older than it is left unread", async () => {
    await follow(chat("a"));
    const buys = Array.from({ length: 40 }, (_, i) => ({ time: S0 + 4 + 4 * i, side: "buy" as const, amountUsd: 100 + i, ...(i % 39 === 0 ? { wallet: "0xwhale" } : {}) }));
    sb.placeSwaps(pairId, buys);
    const w = watcher({ pageSize: 10, maxPages: 3 });
    clock = T0 + 170_000;
    await w.tick();
    for (let i = 0; i < 10 && (await store.buys.watches())[0]?.gaps !== undefined; i++) {
      clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
      await w.tick();
    }
    const whale = (await store.buys.queuedBuys(chat("a"))).map((b) => JSON.parse(b.payload) as Trade & { firstBuy?: boolean }).filter((t) => t.wallet === "0xwhale");
    expect(whale.map((t) => [t.amountUsd, t.firstBuy === true])).toEqual([["100", true], ["139", false]]);
  });

  it("owes the new swaps and keeps a gap when reading the gap fails, and reads it at the next poll", async () => {
    await follow(chat("a"));
    const buys = Array.from({ length: 40 }, (_, i) => ({ time: S0 + 4 + 4 * i, side: "buy" as const, amountUsd: 100 + i }));
    sb.placeSwaps(pairId, buys);
    let refusing = false;
    // Gap reads start before the feed's first second; the new swaps' reads after it.
    const refusingOld = { swaps: async (q: Parameters<MarketClient["swaps"]>[0]) => {
      if (refusing && (q.fromTime ?? 0) < S0) throw new Error("refused");
      return client.swaps(q);
    } };
    const w = watcher({ market: refusingOld, pageSize: 10, maxPages: 3 });
    clock = T0 + 170_000;
    await w.tick();
    const [cut] = (await store.buys.watches())[0]?.gaps ?? [];
    expect(cut).toBeDefined();
    refusing = true;
    sb.placeSwaps(pairId, [{ time: S0 + 175, side: "buy", amountUsd: 1_000 }]);
    clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
    expect(await w.tick()).toEqual([pairId]);
    expect((await owedTo(chat("a"))).map((t) => Number(t.amountUsd))).toContain(1_000);
    expect((await store.buys.watches())[0]?.gaps).toEqual([cut]);
    refusing = false;
    for (let i = 0; i < 10 && (await store.buys.watches())[0]?.gaps !== undefined; i++) {
      clock = (await store.buys.watches())[0]?.nextPollAt ?? 0;
      await w.tick();
    }
    const got = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y);
    expect(got).toEqual([...buys.map((b) => b.amountUsd), 1_000]);
  });

  it("keeps at most MAX_GAPS gaps for a pair trading faster than its polls page, and owes every buy once it calms", async () => {
    await follow(chat("a"));
    const w = watcher({ pageSize: 5, maxPages: 3, overlapSeconds: 1 });
    const placed: number[] = [];
    const most: number[] = [];
    // 20 buys between polls 15 s apart, 15 a poll: each poll leaves a gap and reads none.
    for (let poll = 0; poll < MAX_GAPS + 3; poll++) {
      const swaps = Array.from({ length: 20 }, (_, i) => ({ time: S0 + 15 * poll + (i % 15), side: "buy" as const, amountUsd: 100 + placed.length + i }));
      sb.placeSwaps(pairId, swaps);
      placed.push(...swaps.map((x) => x.amountUsd));
      clock = T0 + 15_000 * (poll + 1);
      await w.tick();
      most.push((await store.buys.watches())[0]?.gaps?.length ?? 0);
    }
    expect(Math.max(...most)).toBe(MAX_GAPS);
    for (let i = 0; i < 200 && (await store.buys.watches())[0]?.gaps !== undefined; i++) {
      clock = Math.max(clock, (await store.buys.watches())[0]?.nextPollAt ?? 0);
      await w.tick();
    }
    const got = (await owedTo(chat("a"))).map((t) => Number(t.amountUsd)).sort((x, y) => x - y);
    expect(got).toEqual(placed);
  });

  it("skips and counts swaps with a missing or non-finite amount_usd, and keeps a hostile wallet as text", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, [
      { time: S0 + 1, side: "buy", amountUsd: null },
      { time: S0 + 2, side: "buy", amountUsd: "NaN" },
      { time: S0 + 3, side: "buy", amountUsd: "Infinity" },
      { time: S0 + 4, side: "buy", amountUsd: 120, wallet: "<a href=x>@everyone</a>" },
    ]);
    const counted: { seen: number; skipped: number }[] = [];
    clock = T0 + 10_000;
    await watcher({ events: { swaps: (e) => counted.push(e) } }).tick();
    expect(counted).toEqual([{ seen: 4, skipped: 3 }]);
    expect((await owedTo(chat("a"))).map((t) => [t.amountUsd, t.wallet])).toEqual([["120", "<a href=x>@everyone</a>"]]);
  });

  it("counts a swap indexed late, and a skipped one, once, and none read again in the overlap", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, [
      { time: S0 + 20, side: "buy", amountUsd: 75 },
      { time: S0 + 22, side: "buy", amountUsd: "NaN", indexedAt: S0 + 50 },
      { time: S0 + 24, side: "buy", amountUsd: 90, indexedAt: S0 + 50 },
      { time: S0 + 30, side: "buy", amountUsd: 60 },
    ]);
    const counted: { seen: number; skipped: number }[] = [];
    const w = watcher({ events: { swaps: (e) => counted.push(e) } });
    clock = T0 + 40_000;
    await w.tick();
    clock = T0 + 70_000;
    await w.tick();
    // First poll: the two indexed on time. Second: the two indexed late (one skipped), behind the cursor; the others again, not counted.
    expect(counted).toEqual([{ seen: 2, skipped: 0 }, { seen: 2, skipped: 1 }]);
  });

  it("lets one of two workers watch, and the other take over a dead one's lease without owing a buy twice", async () => {
    await follow(chat("a"));
    sb.placeSwaps(pairId, [{ time: S0 + 2, side: "buy", amountUsd: 100 }]);
    const one = watcher({ holder: "remote-1:1:a", leaseTtlMs: 30_000 });
    const two = watcher({ holder: "remote-2:2:b", leaseTtlMs: 30_000 });
    clock = T0 + 5_000;
    expect(await one.tick()).toEqual([pairId]);
    expect(await two.tick()).toEqual([]);
    expect(two.leading()).toBe(false);
    // The first worker dies without a word: the second leads once its lease runs out, and asks
    // again from the cursor with the overlap, seeing the first buy again.
    sb.placeSwaps(pairId, [{ time: S0 + 40, side: "buy", amountUsd: 200 }]);
    clock = T0 + 50_000;
    expect(await two.tick()).toEqual([pairId]);
    expect((await owedTo(chat("a"))).map((t) => t.amountUsd)).toEqual(["100", "200"]);
  });

  it("stops a tick's polling after its budget and polls what it left first in the next tick", async () => {
    const wide = sb.market.tokens.find((t) => !t.hostile && !t.main && t.chain === "eth" && t.pairs.length >= 3 && t.launchAt < S0 - 86_400) as SandboxToken;
    const pairs = wide.pairs.slice(0, 3).map((p) => p.id);
    for (const p of pairs) sb.quietPair(p);
    await store.buys.upsertFeed({ ...chat("a"), tokenId: wide.id, symbol: wide.symbol, chain: wide.chain, options: OPTIONS }, pairs, 5, clock);
    // Each poll waits its turn on the feed lane: on a small plan, seconds.
    const paced = { swaps: async (q: Parameters<MarketClient["swaps"]>[0]) => ((clock += 3_000), client.swaps(q)) };
    const w = watcher({ market: paced });
    clock = T0 + 1_000;
    const first = await w.tick();
    expect(first).toHaveLength(2);
    const second = await w.tick();
    expect(second).toEqual(pairs.filter((p) => !first.includes(p)));
  });

  it("polls first the due pair that likely owes most (before its first poll: the most followed), and one overdue past its interval before it", async () => {
    const [busy, quiet] = sb.market.tokens.filter((t) => !t.hostile && !t.main && t.chain === "eth" && t.pairs.length > 0 && t.launchAt < S0 - 86_400).slice(-2) as [SandboxToken, SandboxToken];
    const [busyPair, quietPair] = [busy.pairs[0]?.id ?? "", quiet.pairs[0]?.id ?? ""];
    for (const p of [...busy.pairs, ...quiet.pairs]) sb.quietPair(p.id);
    for (const id of ["a", "b", "c"]) await store.buys.upsertFeed({ ...chat(id), tokenId: busy.id, symbol: busy.symbol, chain: busy.chain, options: OPTIONS }, [busyPair], 5, clock);
    await store.buys.upsertFeed({ ...chat("d"), tokenId: quiet.id, symbol: quiet.symbol, chain: quiet.chain, options: OPTIONS }, [quietPair], 5, clock);
    sb.placeSwaps(busyPair, Array.from({ length: 9 }, (_, i) => ({ time: S0 + 1 + i, side: "buy" as const, amountUsd: 100 })));
    sb.placeSwaps(quietPair, [{ time: S0 + 2, side: "buy", amountUsd: 100 }]);
    // Each poll waits its turn on the feed lane: one poll a tick.
    const w = watcher({ market: { swaps: async (q) => ((clock += 6_000), client.swaps(q)) } });
    clock = T0 + 10_000;
    // Neither polled yet, both due since the feeds began: the one more chats follow first.
    expect(await w.tick()).toEqual([busyPair]);
    expect(await w.tick()).toEqual([quietPair]);
    // The quiet pair due first: by due time alone it would go first.
    const watchOf = async (id: string) => (await store.buys.watches()).find((x) => x.pairId === id) as PairWatch;
    const quietWatch = await watchOf(quietPair);
    await store.buys.commitPoll({ ...quietWatch, nextPollAt: T0 + 20_000 }, [], clock, quietWatch);
    clock = T0 + 30_000;
    expect(await w.tick()).toEqual([busyPair]);
    expect(await w.tick()).toEqual([quietPair]);
    // Overdue by more than its 15 s interval, the quiet pair goes before the busy one.
    const again = await watchOf(quietPair);
    await store.buys.commitPoll({ ...again, nextPollAt: clock - 16_000 }, [], clock, again);
    const busyWatch = await watchOf(busyPair);
    await store.buys.commitPoll({ ...busyWatch, nextPollAt: clock - 1_000 }, [], clock, busyWatch);
    expect(await w.tick()).toEqual([quietPair]);
  });

  it("backs a quiet pair off, up to the longest interval, and stretches every interval evenly past the share", async () => {
    await follow(chat("a"));
    const polled: number[] = [];
    const w = watcher({ events: { polled: (e) => polled.push(e.intervalSeconds) } });
    clock = T0 + 1_000;
    await w.tick();
    clock = T0 + 200_000;
    await w.tick();
    clock = T0 + 1_000_000;
    await w.tick();
    // Quiet since the watch began at T0: half the quiet time, between 15 and 300 s.
    expect(polled).toEqual([15, 100, 300]);
    const slow = watcher({ holder: "slow:1:x", budget: () => ({ rate: 0.001 }) });
    await store.subscriptions.releaseLease("buy-watcher", (await store.subscriptions.leaseHolder("buy-watcher")) ?? "");
    const before = (await store.buys.watches())[0]?.nextPollAt ?? 0;
    clock = before;
    await slow.tick();
    // A poll every 300 s wants 0.0033 a second; the share plans for 0.0008 (80 % of 0.001): 4.17 times longer.
    expect(((await store.buys.watches())[0]?.nextPollAt ?? 0) - clock).toBe(1_250_000);
  });

  it("plans a pair's next poll from what its poll found: a busy pair polled late is not backed off for the lateness", async () => {
    await follow(chat("a"));
    const polled: number[] = [];
    const w = watcher({ events: { polled: (e) => polled.push(e.intervalSeconds) } });
    sb.placeSwaps(pairId, [{ time: S0 + 5, side: "buy", amountUsd: 100 }]);
    clock = T0 + 10_000;
    await w.tick();
    // Polled 390 s late (a share stretched thin, a restart), with a trade a second before the poll.
    sb.placeSwaps(pairId, [{ time: S0 + 399, side: "buy", amountUsd: 200 }]);
    clock = T0 + 400_000;
    await w.tick();
    clock = T0 + 600_000;
    await w.tick();
    // Traded 5, then 1 s before its polls: the next in 15 s; then quiet for 201 s: in 100 s.
    expect(polled).toEqual([15, 15, 100]);
  });

  it("keeps a busy pair's cadence when ticks poll it up to a second late, and does not make up a longer lateness", async () => {
    await follow(chat("a"));
    const w = watcher();
    const nextPoll = async () => (await store.buys.watches())[0]?.nextPollAt ?? 0;
    const due = await nextPoll();
    sb.placeSwaps(pairId, [{ time: S0, side: "buy", amountUsd: 100 }]);
    clock = due + 700;
    await w.tick();
    // Due at `due`, polled 0.7 s later by the tick: the next is 15 s after it was due, not after the poll.
    expect(await nextPoll()).toBe(due + 15_000);
    sb.placeSwaps(pairId, [{ time: S0 + 15, side: "buy", amountUsd: 100 }]);
    clock = due + 15_000 + 1_400;
    await w.tick();
    // 1.4 s late: a second of it absorbed, the rest not made up.
    expect(await nextPoll()).toBe(due + 15_000 + 1_400 - 1_000 + 15_000);
    sb.placeSwaps(pairId, [{ time: S0 + 99, side: "buy", amountUsd: 100 }]);
    clock = due + 100_000;
    await w.tick();
    // Polled 68.6 s late (a stretched share, a restart): the next is an interval after the poll, less the one second.
    expect(await nextPoll()).toBe(due + 100_000 - 1_000 + 15_000);
    expect((await owedTo(chat("a"))).length).toBe(3);
  });

  it("makes up no lateness while the share is stretched: polling sooner would take from quieter pairs", async () => {
    await follow(chat("a"));
    // A poll every 15 s wants 0.067 a second; the share plans for 0.008 (80 % of 0.01): 8.33 times longer.
    const w = watcher({ budget: () => ({ rate: 0.01 }) });
    const due = (await store.buys.watches())[0]?.nextPollAt ?? 0;
    sb.placeSwaps(pairId, [{ time: S0, side: "buy", amountUsd: 100 }]);
    clock = due + 700;
    await w.tick();
    expect((await store.buys.watches())[0]?.nextPollAt).toBe(due + 700 + 125_000);
  });
});
