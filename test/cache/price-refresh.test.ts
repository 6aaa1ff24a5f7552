import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { BatchPricesParams } from "../../src/market/api.js";
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

describe("a cache under size pressure", () => {
  it("answers every concurrent miss even when their entries are evicted while loading", async () => {
    const fake = createFakeMarket();
    const market = createCachedMarket(fake.api, { maxBytes: 2_000 });
    const ids = Array.from({ length: 50 }, (_, n) => id(n + 1000));
    const answers = await Promise.allSettled(ids.map((x) => market.tokenDetail(x)));
    expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
  });
});
