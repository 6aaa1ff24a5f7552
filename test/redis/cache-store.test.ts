import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { CacheStore } from "../../src/cache/store.js";
import { createRedisCacheStore } from "../../src/redis/cache-store.js";
import { useRedis } from "../engines/redis.js";
import { createFakeMarket, fakeClock } from "../cache/fake-market.js";
import type { MarketApi } from "../../src/market/api.js";
import { asking, newAsk } from "../../src/market/ask.js";
import { deferred } from "../deferred.js";

const { link, engine } = useRedis();

/** A process's Redis cache store: a connection of its own, the generous wait of a busy machine. */
async function redisStore(): Promise<CacheStore> {
  return createRedisCacheStore({ redis: await link() });
}

/** A market whose detail calls are held until the test lets them answer; `reached` counts the calls that reached it. */
function heldMarket(): { api: MarketApi; reached: () => number; answer: () => void } {
  const fake = createFakeMarket();
  const held = deferred();
  let reached = 0;
  const api = new Proxy(fake.api, {
    get: (target, prop: keyof MarketApi) => (prop === "tokenDetail" ? (id: string) => (reached++, held.promise.then(() => target.tokenDetail(id))) : target[prop]),
  });
  return { api, reached: () => reached, answer: () => held.resolve() };
}

/** Each test looks up token ids of its own: the Redis tests share a server. */
let n = 0;
const freshId = () => `0x${(n += 1).toString(16).padStart(40, "0")}-eth`;

describe.each([
  ["in process", async (): Promise<CacheStore | undefined> => undefined],
  ["on Redis", redisStore],
])("the lookup cache %s", (_where, storeFor) => {
  it("answers 100 identical concurrent lookups with one upstream call", async () => {
    const fake = createFakeMarket();
    const store = await storeFor();
    const market = createCachedMarket(fake.api, store ? { store } : {});
    const id = freshId();
    const answers = await Promise.all(Array.from({ length: 100 }, () => market.tokenDetail(id)));
    expect(fake.count("tokenDetail")).toBe(1);
    expect(new Set(answers.map((a) => a.data.token.current_price_usd))).toEqual(new Set(["1.5"]));
  });

  it("asks the service again only after the kind's TTL has passed", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const store = await storeFor();
    const market = createCachedMarket(fake.api, { now: clock.now, ttl: { tokenDetail: 30_000 }, ...(store ? { store } : {}) });
    const id = freshId();
    const first = await market.tokenDetail(id);
    clock.advance(29_000);
    expect((await market.tokenDetail(id)).fetchedAt).toBe(first.fetchedAt);
    expect(fake.count("tokenDetail")).toBe(1);
    clock.advance(2 * 30_000);
    expect(await market.tokenDetail(id)).toMatchObject({ fetchedAt: clock.now(), stale: false });
    expect(fake.count("tokenDetail")).toBe(2);
  });

  it("serves an expired value marked stale when the service fails", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const store = await storeFor();
    const market = createCachedMarket(fake.api, { now: clock.now, ttl: { tokenDetail: 30_000 }, ...(store ? { store } : {}) });
    const id = freshId();
    const first = await market.tokenDetail(id);
    fake.failWith("server");
    clock.advance(10 * 60_000);
    expect(await market.tokenDetail(id)).toMatchObject({ stale: true, fetchedAt: first.fetchedAt });
  });

  it("remembers a not-found answer briefly so garbage input cannot hammer the service", async () => {
    const fake = createFakeMarket();
    const clock = fakeClock();
    const store = await storeFor();
    const market = createCachedMarket(fake.api, { now: clock.now, notFoundTtlMs: 30_000, ...(store ? { store } : {}) });
    const garbage = `0xdead${(n += 1).toString(16).padStart(36, "0")}-eth`;
    for (let i = 0; i < 5; i++) await expect(market.tokenDetail(garbage)).rejects.toMatchObject({ kind: "not_found" });
    expect(fake.count("tokenDetail")).toBe(1);
  });
});

describe("the lookup cache of several processes on one Redis", () => {
  it("asks the service once when two processes miss the same lookup at the same moment", async () => {
    const fake = createFakeMarket();
    const [a, b] = [createCachedMarket(fake.api, { store: await redisStore() }), createCachedMarket(fake.api, { store: await redisStore() })];
    const id = freshId();
    const [x, y] = await Promise.all([a.tokenDetail(id), b.tokenDetail(id)]);
    expect(fake.count("tokenDetail")).toBe(1);
    expect(y.fetchedAt).toBe(x.fetchedAt);
  });

  it("answers from what another process fetched", async () => {
    const fake = createFakeMarket();
    const [a, b] = [createCachedMarket(fake.api, { store: await redisStore() }), createCachedMarket(fake.api, { store: await redisStore() })];
    const id = freshId();
    await a.tokenDetail(id);
    await b.tokenDetail(id);
    expect(fake.count("tokenDetail")).toBe(1);
  });

  it("fetches for itself when the process that claimed a lookup failed to fill it", async () => {
    const fake = createFakeMarket();
    const a = createCachedMarket(fake.api, { store: createRedisCacheStore({ redis: await link() }) });
    const b = createCachedMarket(fake.api, { store: createRedisCacheStore({ redis: await link() }) });
    const id = freshId();
    fake.failWith("server");
    await expect(a.tokenDetail(id)).rejects.toMatchObject({ kind: "server" });
    fake.failWith(null);
    await expect(b.tokenDetail(id)).resolves.toMatchObject({ stale: false });
  });

  it("asks the service once for three processes missing a lookup together, though its answer takes longer than any fixed wait", async () => {
    const slow = heldMarket();
    const [a, b, c] = await Promise.all([0, 1, 2].map(async () => createCachedMarket(slow.api, { store: await redisStore() })));
    const id = freshId();
    const first = a!.tokenDetail(id);
    await expect.poll(() => slow.reached()).toBe(1);
    const others = [b!.tokenDetail(id), c!.tokenDetail(id)];
    // A slow service: well past the 750 ms a claim once lasted before the others fetched for themselves.
    setTimeout(() => slow.answer(), 1_500);
    const answers = await Promise.all([first, ...others]);
    expect(slow.reached()).toBe(1);
    expect(new Set(answers.map((x) => x.fetchedAt)).size).toBe(1);
  });

  it("tells a person waiting for another process's load that the market is busy, never that it is not answering, and the load's answer serves the next ask", async () => {
    const slow = heldMarket();
    const [a, b] = await Promise.all([0, 1].map(async () => createCachedMarket(slow.api, { store: await redisStore() })));
    const id = freshId();
    const loading = a!.tokenDetail(id);
    await expect.poll(() => slow.reached()).toBe(1);
    const person = asking(newAsk("people", Date.now() + 300), () => b!.tokenDetail(id));
    await expect(person).rejects.toMatchObject({ kind: "busy" });
    slow.answer();
    await loading;
    await expect(b!.tokenDetail(id)).resolves.toMatchObject({ stale: false });
    expect(slow.reached()).toBe(1);
  });

  it("answers from the process's own store while Redis is away, and shares again once it is back", async () => {
    const fake = createFakeMarket();
    const shared = await link();
    const a = createCachedMarket(fake.api, { store: createRedisCacheStore({ redis: shared }) });
    const id = freshId();
    await a.tokenDetail(id);

    await engine().stop();
    expect((await a.tokenDetail(id)).data.token.current_price_usd).toBe("1.5");
    expect(fake.count("tokenDetail")).toBe(1);

    await engine().start();
    await shared.whenUp();
    const b = createCachedMarket(fake.api, { store: await redisStore() });
    const other = freshId();
    await a.tokenDetail(other);
    await b.tokenDetail(other);
    expect(fake.count("tokenDetail")).toBe(2);
  });
});
