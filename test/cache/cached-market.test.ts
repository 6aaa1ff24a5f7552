import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { CacheEvent } from "../../src/cache/lookup.js";
import { createMemoryStore } from "../../src/cache/memory-store.js";
import type { CacheEntry, CacheStore } from "../../src/cache/store.js";
import { holdersCommand } from "../../src/core/commands/holders.js";
import { isMarketError } from "../../src/market/errors.js";
import { deferred } from "../deferred.js";
import { createFakeMarket, fakeClock, FULL_HOLDER } from "./fake-market.js";

const ID = `0x${"a".repeat(40)}-eth`;

describe("createCachedMarket", () => {
  it("answers 100 identical concurrent lookups with one upstream call", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api);
    const answers = await Promise.all(Array.from({ length: 100 }, () => market.tokenDetail(ID)));
    expect(fake.count("tokenDetail")).toBe(1);
    expect(new Set(answers.map((a) => a.data.token.current_price_usd))).toEqual(new Set(["1.5"]));
  });

  it("keeps of a holder list only the fields a reply shows, so the byte bound holds many more lists", async () => {
    const market = createCachedMarket(createFakeMarket().api);
    const { data } = await market.topHolders({ tokenId: ID, limit: 100 });
    // The holder's address once: the service sends it as both holder and address.
    const { address, addr_alias, remark, balance_ratio, balance_usd } = FULL_HOLDER;
    expect(data).toEqual([{ address, addr_alias, remark, balance_ratio, balance_usd }]);
  });

  it("stores of a top-100 holder list only the holders /holders can show, each with only the fields it shows", async () => {
    const fake = createFakeMarket();
    const hundred = Array.from({ length: 100 }, (_, i) => ({ ...FULL_HOLDER, address: `0x${String(i).padStart(40, "0")}`, holder: `0x${String(i).padStart(40, "0")}` }));
    const api = new Proxy(fake.api, { get: (target, prop) => (prop === "topHolders" ? async () => hundred : target[prop as keyof typeof target]) });
    const stored: CacheEntry[] = [];
    const inner = createMemoryStore({ maxBytes: 1024 ** 2, now: Date.now });
    const store: CacheStore = { get: (k) => inner.get(k), set: (k, e, keep) => (stored.push(e), inner.set(k, e, keep)) };
    const market = createCachedMarket(api, { store });
    await market.topHolders({ tokenId: ID, limit: 100 });
    const kept = stored[0]?.data as Record<string, unknown>[];
    const most = holdersCommand.args.find((a) => a.name === "n")?.max;
    expect(most).toBeDefined();
    expect(kept).toHaveLength(Math.max(10, most ?? 0));
    expect(kept.map((h) => h.address)).toEqual(hundred.slice(0, kept.length).map((h) => h.address));
    for (const h of kept) expect(Object.keys(h).sort()).toEqual(["addr_alias", "address", "balance_ratio", "balance_usd", "remark"]);
  });

  it("treats parameter order and EVM address case as the same lookup", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api);
    await market.search({ keyword: "pepe", chain: "eth" });
    await market.search({ chain: "eth", keyword: "pepe" });
    await market.tokenDetail(ID.toUpperCase().replace("0X", "0x").replace("-ETH", "-eth"));
    await market.tokenDetail(ID);
    expect(fake.count("search")).toBe(1);
    expect(fake.count("tokenDetail")).toBe(1);
  });

  it("asks the service again only after the kind's TTL has passed", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const market = createCachedMarket(fake.api, { now: clock.now, ttl: { tokenDetail: 30_000 } });
    const first = await market.tokenDetail(ID);
    clock.advance(29_000);
    const second = await market.tokenDetail(ID);
    expect(fake.count("tokenDetail")).toBe(1);
    expect(second.fetchedAt).toBe(first.fetchedAt);
    clock.advance(2 * 30_000);
    const third = await market.tokenDetail(ID);
    expect(fake.count("tokenDetail")).toBe(2);
    expect(third).toMatchObject({ fetchedAt: clock.now(), stale: false });
  });

  it("serves an expired value marked stale when the service fails", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const market = createCachedMarket(fake.api, { now: clock.now, ttl: { tokenDetail: 30_000 } });
    const first = await market.tokenDetail(ID);
    fake.failWith("server");
    clock.advance(10 * 60_000);
    const served = await market.tokenDetail(ID);
    expect(served).toMatchObject({ stale: true, fetchedAt: first.fetchedAt });
    expect(served.data.token.current_price_usd).toBe("1.5");
    expect(fake.count("tokenDetail")).toBe(2);
  });

  it("revalidates in the background within the grace window and labels the entry stale once the refresh fails", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    // The failed refresh ends in the store: the entry written back with the time it failed.
    const failedStored = deferred();
    const inner = createMemoryStore({ maxBytes: 1024 ** 2, now: clock.now });
    const store: CacheStore = {
      get: (k) => inner.get(k),
      set: async (k, e, keep) => {
        await inner.set(k, e, keep);
        if (e.refreshFailedAt !== undefined) failedStored.resolve();
      },
    };
    const market = createCachedMarket(fake.api, { store, now: clock.now, ttl: { tokenDetail: 30_000 } });
    const first = await market.tokenDetail(ID);
    fake.failWith("timeout");
    clock.advance(40_000);
    const quick = await market.tokenDetail(ID);
    expect(quick).toMatchObject({ stale: false, fetchedAt: first.fetchedAt });
    await failedStored.promise;
    expect(fake.count("tokenDetail")).toBe(2);
    const after = await market.tokenDetail(ID);
    expect(after).toMatchObject({ stale: true, fetchedAt: first.fetchedAt });
  });

  it("rejects every waiter with the MarketError when there is nothing to fall back on", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api);
    fake.failWith("rate_limited");
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => market.tokenDetail(ID)));
    expect(fake.count("tokenDetail")).toBe(1);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      const reason = (s as PromiseRejectedResult).reason as unknown;
      expect(isMarketError(reason) && reason.kind).toBe("rate_limited");
    }
    fake.failWith(null);
    await expect(market.tokenDetail(ID)).resolves.toMatchObject({ stale: false });
  });

  it("remembers a not-found answer briefly so garbage input cannot hammer the service", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const market = createCachedMarket(fake.api, { now: clock.now, notFoundTtlMs: 30_000 });
    const garbage = `0xdead${"0".repeat(36)}-eth`;
    for (let i = 0; i < 20; i++) {
      await expect(market.tokenDetail(garbage)).rejects.toMatchObject({ kind: "not_found" });
    }
    expect(fake.count("tokenDetail")).toBe(1);
    clock.advance(31_000 * 2);
    await expect(market.tokenDetail(garbage)).rejects.toMatchObject({ kind: "not_found" });
    expect(fake.count("tokenDetail")).toBe(2);
  });

  it("caches prices per id and fetches only the missing ones in one batch call", async () => {
    const fake = createFakeMarket();
    const [a, b, c] = ["a", "b", "c"].map((x) => `0x${x.repeat(40)}-eth`) as [string, string, string];
    fake.prices.set(a, "1").set(b, "2").set(c, "3");
    const market = createCachedMarket(fake.api);
    const first = await market.batchPrices({ tokenIds: [a, b] });
    expect(Object.keys(first.data).sort()).toEqual([a, b]);
    const second = await market.batchPrices({ tokenIds: [b, c, a] });
    expect(second.data[c]?.current_price_usd).toBe("3");
    expect(fake.calls["batchPrices"]?.map((args) => (args[0] as { tokenIds: string[] }).tokenIds)).toEqual([[a, b], [c]]);
  });

  it("merges concurrent price lookups for different ids into one upstream call", async () => {
    const fake = createFakeMarket();
    const ids = Array.from({ length: 100 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}-bsc`);
    for (const id of ids) fake.prices.set(id, "0.5");
    const market = createCachedMarket(fake.api);
    const answers = await Promise.all(ids.map((id) => market.batchPrices({ tokenIds: [id] })));
    expect(fake.count("batchPrices")).toBe(1);
    expect(answers.every((a, i) => a.data[ids[i] as string]?.current_price_usd === "0.5")).toBe(true);
  });

  it("leaves out ids the service does not price and asks about them again only after the price TTL", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const market = createCachedMarket(fake.api, { now: clock.now, ttl: { batchPrices: 10_000 } });
    const unknown = `0x${"9".repeat(40)}-eth`;
    expect((await market.batchPrices({ tokenIds: [unknown] })).data).toEqual({});
    expect((await market.batchPrices({ tokenIds: [unknown] })).data).toEqual({});
    expect(fake.count("batchPrices")).toBe(1);
    clock.advance(25_000);
    await market.batchPrices({ tokenIds: [unknown] });
    expect(fake.count("batchPrices")).toBe(2);
  });

  it("evicts old entries to stay within its byte budget", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api, { maxBytes: 2_000 });
    const ids = Array.from({ length: 40 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}-eth`);
    for (const id of ids) await market.tokenDetail(id);
    await market.tokenDetail(ids[0] as string);
    expect(fake.count("tokenDetail")).toBe(41);
    await market.tokenDetail(ids[39] as string);
    expect(fake.count("tokenDetail")).toBe(41);
  });

  it("passes every call through when disabled", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api, { disabled: true });
    await market.tokenDetail(ID);
    await market.tokenDetail(ID);
    expect(fake.count("tokenDetail")).toBe(2);
  });

  it("reports hits, misses and stale answers to its listener", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const events: CacheEvent[] = [];
    const market = createCachedMarket(fake.api, { now: clock.now, onEvent: (e) => events.push(e) });
    await market.supportedChains();
    await market.supportedChains();
    fake.failWith("server");
    clock.advance(24 * 3_600_000);
    await market.supportedChains();
    expect(events.map((e) => `${e.method}:${e.outcome}`)).toEqual([
      "supportedChains:miss",
      "supportedChains:hit",
      "supportedChains:stale",
    ]);
  });
});
