import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { sharingPrices } from "../../src/cache/price-sharing.js";
import { createPriceBatcher } from "../../src/cache/price-batch.js";
import type { BatchPricesParams } from "../../src/market/api.js";
import { asking, newAsk } from "../../src/market/ask.js";
import { deferred } from "../deferred.js";
import { createFakeMarket, fakeClock } from "./fake-market.js";

const id = (n: number) => `0x${n.toString(16).padStart(40, "0")}-eth`;

function setup() {
  const fake = createFakeMarket();
  for (let n = 1; n <= 400; n++) fake.prices.set(id(n), `${n}.0`);
  const clock = fakeClock();
  const market = createCachedMarket(fake.api, { now: clock.now, ttl: { batchPrices: 10_000 } });
  const sentIds = () => (fake.calls.batchPrices ?? []).map((args) => (args[0] as BatchPricesParams).tokenIds);
  return { fake, clock, market, sentIds };
}

describe("prices refreshed in passing", () => {
  it("carries recently asked prices past half their lifetime along with a miss, so they hit afterwards", async () => {
    const { clock, market, sentIds } = setup();
    await market.batchPrices({ tokenIds: [id(1), id(2)] });
    clock.advance(6_000);
    await market.batchPrices({ tokenIds: [id(3)] });
    expect(sentIds()).toEqual([[id(1), id(2)], [id(3), id(2), id(1)]]);
    clock.advance(6_000);
    const again = await market.batchPrices({ tokenIds: [id(1), id(2)] });
    expect(sentIds()).toHaveLength(2);
    expect(again.data[id(1)]?.current_price_usd).toBe("1.0");
    expect(again.stale).toBe(false);
  });

  it("leaves prices still in the first half of their lifetime out of the call", async () => {
    const { clock, market, sentIds } = setup();
    await market.batchPrices({ tokenIds: [id(1)] });
    clock.advance(4_000);
    await market.batchPrices({ tokenIds: [id(2)] });
    expect(sentIds()[1]).toEqual([id(2)]);
  });

  it("never sends more than 200 ids in one call", async () => {
    const { clock, market, sentIds } = setup();
    for (let n = 1; n <= 300; n += 100) await market.batchPrices({ tokenIds: Array.from({ length: 100 }, (_, i) => id(n + i)) });
    clock.advance(6_000);
    await market.batchPrices({ tokenIds: [id(301)] });
    expect(sentIds().at(-1)).toHaveLength(200);
  });
});

describe("prices refreshed with nobody waiting", () => {
  it("gather for a while into one call, and go at once with a person's id that joins them", async () => {
    const fake = createFakeMarket();
    for (let n = 1; n <= 5; n++) fake.prices.set(id(n), `${n}.0`);
    const batcher = createPriceBatcher(fake.api, { refreshWindowMs: 60_000 });
    const refreshes = [1, 2, 3].map((n) => asking(newAsk("refresh"), () => batcher.load("g", {}, id(n))));
    // A person's id of another group goes at once and comes back: refreshes that went at once would have gone before it.
    const other = await asking(newAsk("people", Date.now() + 2_500), () => batcher.load("other", {}, id(5)));
    expect(other?.current_price_usd).toBe("5.0");
    // A refresh alone would wait a minute; a person's id takes them all along at once.
    expect(fake.count("batchPrices")).toBe(1);
    const person = await asking(newAsk("people", Date.now() + 2_500), () => batcher.load("g", {}, id(4)));
    expect(person?.current_price_usd).toBe("4.0");
    expect((await Promise.all(refreshes)).map((p) => p?.current_price_usd)).toEqual(["1.0", "2.0", "3.0"]);
    expect(fake.calls.batchPrices?.map((args) => (args[0] as BatchPricesParams).tokenIds)).toEqual([[id(5)], [id(1), id(2), id(3), id(4)]]);
  });
});

describe("prices the alert checker fetched", () => {
  it("answer a person's price without a call of their own, and are not carried along again while fresh", async () => {
    const { fake, clock, market, sentIds } = setup();
    await market.batchPrices({ tokenIds: [id(1)], tvlMin: 0 });
    clock.advance(6_000);
    const check = sharingPrices(market, fake.api);
    await check.batchPrices({ tokenIds: [id(1), id(2), id(3)], tvlMin: 0 });
    fake.prices.set(id(2), "22.0");
    const asked = await market.batchPrices({ tokenIds: [id(2), id(3)], tvlMin: 0 });
    expect(asked).toMatchObject({ stale: false, data: { [id(2)]: { current_price_usd: "2.0" }, [id(3)]: { current_price_usd: "3.0" } } });
    expect(sentIds()).toEqual([[id(1)], [id(1), id(2), id(3)]]);
    clock.advance(1_000);
    await market.batchPrices({ tokenIds: [id(4)], tvlMin: 0 });
    // id(1) was 7 s old by the people's clock but 1 s by the check's: it stays out of the call.
    expect(sentIds().at(-1)).toEqual([id(4)]);
  });
});

describe("prices the alert checker fetches every half minute", () => {
  it("stay fresh until its next check is due: a person asks no price of their own in between", async () => {
    const { fake, clock, market, sentIds } = setup();
    const check = sharingPrices(market, fake.api, { everyMs: 30_000 });
    await check.batchPrices({ tokenIds: [id(1), id(2), id(3)], tvlMin: 0 });
    clock.advance(25_000);
    const asked = await market.batchPrices({ tokenIds: [id(2)], tvlMin: 0 });
    expect(asked).toMatchObject({ stale: false, data: { [id(2)]: { current_price_usd: "2.0" } } });
    expect(sentIds()).toEqual([[id(1), id(2), id(3)]]);
  });

  it("carry, in a call with room, the prices people asked for lately, and give the checker back only its own", async () => {
    const { fake, clock, market, sentIds } = setup();
    await market.batchPrices({ tokenIds: [id(10)], tvlMin: 0 });
    clock.advance(6_000);
    const check = sharingPrices(market, fake.api, { everyMs: 30_000 });
    const checked = await check.batchPrices({ tokenIds: [id(1), id(2)], tvlMin: 0 });
    expect(Object.keys(checked).sort()).toEqual([id(1), id(2)]);
    expect(sentIds().at(-1)).toEqual([id(1), id(2), id(10)]);
    clock.advance(25_000);
    fake.prices.set(id(10), "10.5");
    // The person's price came with the check: still fresh, no call of its own.
    expect(await market.batchPrices({ tokenIds: [id(10)], tvlMin: 0 })).toMatchObject({ stale: false, data: { [id(10)]: { current_price_usd: "10.0" } } });
    expect(sentIds()).toHaveLength(2);
  });
});

describe("prices a check keeps fresh longer", () => {
  it("are not carried along by a person's batch before half of that longer freshness, which would cut it to the TTL", async () => {
    const { fake, clock, market, sentIds } = setup();
    await market.batchPrices({ tokenIds: [id(1)], tvlMin: 0 });
    clock.advance(1_000);
    await sharingPrices(market, fake.api, { everyMs: 30_000 }).batchPrices({ tokenIds: [id(1), id(2)], tvlMin: 0 });
    clock.advance(8_000);
    await market.batchPrices({ tokenIds: [id(3)], tvlMin: 0 });
    expect(sentIds().at(-1)).toEqual([id(3)]);
  });

  it("leave the room of a check's call to ids its other calls do not carry", async () => {
    const { fake, clock, market, sentIds } = setup();
    await market.batchPrices({ tokenIds: [id(300), id(5)], tvlMin: 0 });
    clock.advance(6_000);
    const check = sharingPrices(market, fake.api, { everyMs: 30_000 });
    const first = Array.from({ length: 200 }, (_, i) => id(i + 1));
    const second = Array.from({ length: 50 }, (_, i) => id(i + 201));
    await Promise.all([check.batchPrices({ tokenIds: first, tvlMin: 0 }), check.batchPrices({ tokenIds: second, tvlMin: 0 })]);
    expect(sentIds().at(-1)).toEqual([...second, id(300)]);
  });
});

describe("prices of all chats coalesced", () => {
  it("costs ⌈N/200⌉ batch calls when N chats ask different tokens at once, each call of at most 200 ids", async () => {
    const { fake, market, sentIds } = setup();
    for (let n = 401; n <= 450; n++) fake.prices.set(id(n), `${n}.0`);
    // 450 chats, each its own person with its own deadline.
    const asked = Array.from({ length: 450 }, (_, i) => asking(newAsk("people", Date.now() + 2_500), () => market.batchPrices({ tokenIds: [id(i + 1)] })));
    const answers = await Promise.all(asked);
    expect(answers.map((a, i) => a.data[id(i + 1)]?.current_price_usd)).toEqual(Array.from({ length: 450 }, (_, i) => `${i + 1}.0`));
    expect(sentIds().map((ids) => ids.length)).toEqual([200, 200, 50]);
    expect(new Set(sentIds().flat()).size).toBe(450);
  });

  it("gathers the ids of chats asking over the next turns, while a call is out, into one more call", async () => {
    const fake = createFakeMarket();
    for (let n = 1; n <= 201; n++) fake.prices.set(id(n), `${n}.0`);
    for (let turn = 0; turn < 4; turn++) fake.prices.set(id(900 + turn), "9.0");
    const firstOut = deferred();
    const held = deferred();
    // The service takes its time over the first call, as a real one over the network does.
    const api = new Proxy(fake.api, {
      get: (target, prop) =>
        prop === "batchPrices"
          ? async (p: BatchPricesParams) => {
              if (p.tokenIds[0] === id(1)) {
                firstOut.resolve();
                await held.promise;
              }
              return target.batchPrices(p);
            }
          : target[prop as keyof typeof target],
    });
    const market = createCachedMarket(api);
    const first = market.batchPrices({ tokenIds: [id(1)] });
    await firstOut.promise;
    const later: Promise<unknown>[] = [];
    for (let turn = 0; turn < 4; turn++) {
      for (let k = 0; k < 50; k++) later.push(market.batchPrices({ tokenIds: [id(2 + turn * 50 + k)] }));
      // The next chats ask once a call of another group, asked after these and sent at once,
      // has come back: had these ids gone at once, they would have gone before it.
      await market.batchPrices({ tokenIds: [id(900 + turn)], tvlMin: 0 });
    }
    held.resolve();
    await Promise.all([first, ...later]);
    const calls = (fake.calls.batchPrices ?? []).map((args) => (args[0] as BatchPricesParams)).filter((p) => p.tvlMin === undefined).map((p) => p.tokenIds);
    expect(calls[0]).toEqual([id(1)]);
    // Four turns of 50 chats: fewer calls than turns, none over 200 ids, every id asked once.
    expect(calls.length - 1).toBeLessThan(4);
    expect(Math.max(...calls.map((c) => c.length))).toBeLessThanOrEqual(200);
    expect(calls.slice(1).flat().sort()).toEqual(Array.from({ length: 200 }, (_, i) => id(i + 2)).sort());
  });

  it("sends at once, even while a call is out, for an asker whose deadline has come", async () => {
    const fake = createFakeMarket();
    fake.prices.set(id(9), "9.0");
    const firstOut = deferred();
    const held = deferred();
    const sent: string[][] = [];
    const api = new Proxy(fake.api, {
      get: (target, prop) =>
        prop === "batchPrices"
          ? async (p: BatchPricesParams) => {
              sent.push([...p.tokenIds]);
              if (sent.length === 1) {
                firstOut.resolve();
                await held.promise;
              }
              return target.batchPrices(p);
            }
          : target[prop as keyof typeof target],
    });
    const market = createCachedMarket(api);
    const first = market.batchPrices({ tokenIds: [id(1)] });
    await firstOut.promise;
    // Its lookup gives up at once (no time left); the call it started goes out alone, without the window.
    const late = asking(newAsk("people", Date.now()), () => market.batchPrices({ tokenIds: [id(2)] }));
    late.catch(() => undefined);
    // A call of another group, asked after it and sent at once, has come back: one that waited the window has not gone yet.
    await market.batchPrices({ tokenIds: [id(9)], tvlMin: 0 });
    // The second call may carry the first id along as a companion; what matters is that it went now.
    expect(sent.map((ids) => ids[0])).toEqual([id(1), id(2), id(9)]);
    held.resolve();
    await first;
  });
});

describe("a cache under size pressure", () => {
  it("answers every concurrent miss even when their entries are evicted while loading", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api, { maxBytes: 2_000 });
    const ids = Array.from({ length: 50 }, (_, n) => id(n + 1000));
    const answers = await Promise.allSettled(ids.map((x) => market.tokenDetail(x)));
    expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
  });
});
