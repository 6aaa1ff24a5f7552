import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketApi } from "../../src/market/api.js";
import { MarketError } from "../../src/market/errors.js";
import { startFakeServer, v2ok, type FakeServer } from "./fake-server.js";
import { clientFor, ETH_ID, PAIR_ID, rejection, type TestClient } from "./helpers.js";

let server: FakeServer;
let t: TestClient;
beforeAll(async () => {
  server = await startFakeServer((r) => v2ok(r.path === "/v2/tokens/trending" ? { tokens: [] } : []));
  t = clientFor(server);
});
afterAll(async () => {
  await t.client.close();
  await server.close();
});

// Each case breaks one documented rule; the call must fail before anything is sent.
const cases: [string, (m: MarketApi) => Promise<unknown>, RegExp][] = [
  ["search without a keyword", (m) => m.search({} as never), /keyword is required/],
  ["search with a blank keyword", (m) => m.search({ keyword: "   " }), /keyword must not be empty/],
  ["search with a limit over 300", (m) => m.search({ keyword: "x", limit: 301 }), /limit must be at most 300/],
  ["search with a limit of 0", (m) => m.search({ keyword: "x", limit: 0 }), /limit must be at least 1/],
  ["search with a fractional limit", (m) => m.search({ keyword: "x", limit: 2.5 }), /limit must be an integer/],
  ["search with an unknown orderby", (m) => m.search({ keyword: "x", orderby: "price" as never }), /orderby must be one of/],
  ["search with a blank chain", (m) => m.search({ keyword: "x", chain: "" }), /chain must not be empty/],
  ["batch prices with an id lacking its chain", (m) => m.batchPrices({ tokenIds: [ETH_ID, "0xabc"] }), /tokenIds\[1\] must look like <address>-<chain>/],
  ["batch prices with a negative tvl minimum", (m) => m.batchPrices({ tokenIds: [ETH_ID], tvlMin: -1 }), /tvlMin must be at least 0/],
  ["rank list with an unknown topic", (m) => m.rankList({ topic: "dogs" as never }), /topic must be one of hot, meme/],
  ["rank list without a topic", (m) => m.rankList({} as never), /topic is required/],
  ["rank list with a limit over 300", (m) => m.rankList({ topic: "hot", limit: 500 }), /limit must be at most 300/],
  ["token detail with an id ending in a hyphen", (m) => m.tokenDetail("0xabc-"), /tokenId must look like/],
  ["token detail with an empty id", (m) => m.tokenDetail(""), /tokenId must not be empty/],
  ["pair K-line without an interval", (m) => m.pairKline({ pairId: PAIR_ID } as never), /interval is required/],
  ["pair K-line with an interval outside the set", (m) => m.pairKline({ pairId: PAIR_ID, interval: 7 as never }), /interval must be one of 1, 5, 15/],
  ["pair K-line with an unknown category", (m) => m.pairKline({ pairId: PAIR_ID, interval: 5, category: "x" as never }), /category must be one of u, r, m/],
  ["pair K-line with a limit over 1000", (m) => m.pairKline({ pairId: PAIR_ID, interval: 5, limit: 1001 }), /limit must be at most 1000/],
  ["token K-line with a pair-less id", (m) => m.tokenKline({ tokenId: "-eth", interval: 5 }), /tokenId must look like/],
  ["token K-line with a fractional to_time", (m) => m.tokenKline({ tokenId: ETH_ID, interval: 5, toTime: 1.5 }), /toTime must be an integer/],
  ["top holders over 100", (m) => m.topHolders({ tokenId: ETH_ID, limit: 101 }), /limit must be at most 100/],
  ["swaps with a limit over 300", (m) => m.swaps({ pairId: PAIR_ID, limit: 301 }), /limit must be at most 300/],
  ["swaps with an unknown sort", (m) => m.swaps({ pairId: PAIR_ID, sort: "up" as never }), /sort must be one of asc, desc/],
  ["main tokens without a chain", (m) => m.mainTokens(" "), /chain must not be empty/],
  ["trending without a chain", (m) => m.trending({} as never), /chain is required/],
  ["trending with a page size over 100", (m) => m.trending({ chain: "bsc", pageSize: 101 }), /pageSize must be at most 100/],
  ["trending with a negative page", (m) => m.trending({ chain: "bsc", page: -1 }), /page must be at least 0/],
  ["risk report with a non-string id", (m) => m.riskReport(42 as never), /tokenId is required/],
  ["v1 token with an id lacking its chain", (m) => m.v1Token("0xabc"), /tokenId must look like/],
  ["v1 search with an empty keyword", (m) => m.v1Search(""), /keyword must not be empty/],
  ["v1 pairs without a token", (m) => m.v1Pairs(undefined as never), /token is required/],
  ["v1 K-line with a v2-only interval", (m) => m.v1PairKline({ pair: "0xp", interval: 30 as never }), /interval must be one of 1, 5, 15, 60/],
  ["v1 K-line with a size over 1000", (m) => m.v1PairKline({ pair: "0xp", size: 1001 }), /size must be at most 1000/],
  ["v1 transactions with a size over 500", (m) => m.v1PairTxs({ pair: "0xp", size: 501 }), /size must be at most 500/],
  ["v1 liquidity with a size of 0", (m) => m.v1PairLiquidity({ pair: "0xp", size: 0 }), /size must be at least 1/],
  ["v1 AMM list with an unknown sort", (m) => m.v1AmmPairs({ amm: "uni", chain: "eth", sort: "name" as never }), /sort must be one of pool_size, time, txcount, volume/],
  ["v1 AMM list with an unknown direction", (m) => m.v1AmmPairs({ amm: "uni", chain: "eth", direction: "up" as never }), /direction must be one of asc, desc/],
  ["v1 AMM list with a limit over 500", (m) => m.v1AmmPairs({ amm: "uni", chain: "eth", limit: 501 }), /limit must be at most 500/],
  ["v1 contract check on solana", (m) => m.v1ContractCheck({ chain: "solana" as never, contract: "So1" }), /chain must be one of bsc, eth, arbitrum, core/],
  ["v1 contract check without a contract", (m) => m.v1ContractCheck({ chain: "bsc", contract: "" }), /contract must not be empty/],
];

describe("parameter checks before sending", () => {
  it.each(cases)("refuses %s without sending a request", async (_name, call, message) => {
    const before = server.received.length;
    const e = await rejection(call(t.client));
    expect(e).toBeInstanceOf(MarketError);
    expect(e).toMatchObject({ kind: "invalid_params", retryable: false });
    expect((e as MarketError).message).toMatch(message);
    expect(server.received.length).toBe(before);
  });

  it("names the method in a refusal and reports it to the metrics hook", async () => {
    const e = (await rejection(t.client.topHolders({ tokenId: ETH_ID, limit: 500 }))) as MarketError;
    expect(e.endpoint).toBe("topHolders");
    expect(e.message).toBe("topHolders: limit must be at most 100, got 500");
    expect(t.events.at(-1)).toMatchObject({ endpoint: "topHolders", outcome: "invalid_params", attempts: 0 });
  });

  it("accepts every documented maximum", async () => {
    const before = server.received.length;
    await t.client.search({ keyword: "x", limit: 300 });
    await t.client.rankList({ topic: "merlin", limit: 300 });
    await t.client.trending({ chain: "bsc", pageSize: 100, page: 0 });
    expect(server.received.length).toBe(before + 3);
  });
});
