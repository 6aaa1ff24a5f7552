import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostExtras, DETAIL_EVERY_MS, OWN_CAP_MS } from "../../src/buys/extras.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";

const T0 = Date.UTC(2026, 10, 27, 12, 0);

describe("what a buy post adds from the market", () => {
  let sb: Sandbox;
  let clock = T0;
  let client: MarketClient;

  beforeAll(async () => {
    sb = await startSandbox({ now: () => clock });
    client = new MarketClient({ v2: { baseUrl: sb.url, key: sb.v2Key }, retry: { maxAttempts: 1 }, now: () => clock });
  });
  afterAll(async () => {
    await client.close();
    await sb.close();
  });

  it("reads a token's detail for its posts once per interval, past the cache's own freshness", async () => {
    const token = sb.market.tokens.find((t) => !t.hostile && t.chain === "eth" && t.pairs.length > 0) as SandboxToken;
    // Every post at one trade price: the cap reckoned from the detail is the same while it is.
    const TRADE_PRICE = "0.5";
    const extras = createPostExtras({ market: createCachedMarket(client, { now: () => clock }), now: () => clock });
    sb.resetStats();
    const details = () => sb.stats().byEndpoint.tokenDetail ?? 0;
    const first = await Promise.all([extras(token.id, token.chain, TRADE_PRICE), extras(token.id, token.chain, TRADE_PRICE)]);
    expect(first[0]?.cap).toBeDefined();
    expect(first[1]).toEqual(first[0]);
    expect(details()).toBe(1);
    // Past the cache's freshness and its grace (a refresh or a load each), still inside the interval: no call.
    clock = T0 + DETAIL_EVERY_MS - 1_000;
    expect(await extras(token.id, token.chain, TRADE_PRICE)).toEqual(first[0]);
    expect(details()).toBe(1);
    clock = T0 + DETAIL_EVERY_MS + 1_000;
    await extras(token.id, token.chain, TRADE_PRICE);
    expect(details()).toBe(2);
  });

  it("gives the cap at the trade's price: the detail's cap over its price, times the trade's", async () => {
    const token = sb.market.tokens.filter((x) => !x.hostile && x.chain === "eth" && x.pairs.length > 0)[1] as SandboxToken;
    const extras = createPostExtras({ market: createCachedMarket(client, { now: () => clock }), now: () => clock });
    const { token: listed } = await client.tokenDetail(token.id);
    const [price, cap] = [Number(listed.current_price_usd), Number(listed.market_cap)];
    expect(price).toBeGreaterThan(0);
    const doubled = await extras(token.id, token.chain, String(price * 2));
    expect(doubled.cap?.kind).toBe("cap");
    expect(Number(doubled.cap?.usd)).toBeCloseTo(cap * 2, -1);
    // No price of the trade (or none that reads as one): the detail's own cap, while it is fresh.
    for (const none of [undefined, "NaN", "-1"]) expect(Number((await extras(token.id, token.chain, none)).cap?.usd)).toBeCloseTo(cap, -1);
    const reads = sb.stats().byEndpoint.tokenDetail ?? 0;
    clock += OWN_CAP_MS + 1_000;
    expect((await extras(token.id, token.chain, undefined)).cap).toBeUndefined();
    expect((await extras(token.id, token.chain, undefined)).explorer).toBeDefined();
    expect(Number((await extras(token.id, token.chain, String(price * 3))).cap?.usd)).toBeCloseTo(cap * 3, -1);
    expect(sb.stats().byEndpoint.tokenDetail ?? 0).toBe(reads);
  });

  it("keeps a micro-cap token's cap under a cent, not rounded to $0", async () => {
    const token = sb.market.tokens.filter((x) => !x.hostile && x.chain === "eth" && x.pairs.length > 0)[2] as SandboxToken;
    const extras = createPostExtras({ market: createCachedMarket(client, { now: () => clock }), now: () => clock });
    const { token: listed } = await client.tokenDetail(token.id);
    const [price, cap] = [Number(listed.current_price_usd), Number(listed.market_cap)];
    // A trade at a price that puts the whole cap at a thousandth of a cent.
    const tiny = await extras(token.id, token.chain, String((price * 1e-5) / cap));
    expect(Number(tiny.cap?.usd)).toBeCloseTo(1e-5, 10);
  });

  it("links no explorer for demo data, whose transactions and wallets are made up, and still gives the cap", async () => {
    const token = sb.market.tokens.filter((x) => !x.hostile && x.chain === "eth" && x.pairs.length > 0)[2] as SandboxToken;
    const market = createCachedMarket(client, { now: () => clock });
    const live = await createPostExtras({ market, now: () => clock })(token.id, token.chain, "0.5");
    expect(live.explorer).toBe("https://etherscan.io");
    const demo = await createPostExtras({ market, now: () => clock, demo: true })(token.id, token.chain, "0.5");
    expect(demo).toEqual({ cap: live.cap });
  });
});
