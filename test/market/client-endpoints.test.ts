import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deferred, type Deferred } from "../deferred.js";
import { lines } from "../lines.js";
import { startFakeServer, v1ok, v2ok, type Answer, type FakeServer, type Received } from "./fake-server.js";
import { clientFor, ETH_ID, ETH_TOKEN, PAIR_ID, V1_KEY, V2_KEY, type TestClient } from "./helpers.js";

const token = { token: ETH_TOKEN, chain: "eth", symbol: "PEPE", name: "Pepe", current_price_usd: "0.0000123", holders: 301_000, extra_field: "kept" };
const pair = { pair: "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f", chain: "eth", reserve0: "123.5", reserve1: 99, fee: "", is_fake: false };
const point = (time: number) => ({ open: "1", high: "2", low: "0.5", close: "1.5", volume: "10", time });
const holderRow = { address: "0xholder", balance_ratio: 0.12, balance_usd: "1000.5", last_txn_time: "2026-11-01T00:00:00Z", trade_first_at: 0 };
const chain = { chain_id: "1", name: "Ethereum", chain: "eth", case_sensitive: false, only_native_coin: false };
const report = { chain: "eth", token: ETH_TOKEN, is_honeypot: 0, buy_tax: 0.01, err_code: "0", err_msg: "", risk_score: 12 };
const txs = { txs: [{ tx_hash: "0xt1", amount_usd: "12.5", tx_time: 1_795_000_000 }], total_count: 1, limit: 2, pair_id: PAIR_ID };
const trendRow = (t: string) => ({ token: t, chain: "solana", symbol: "S", token_tx_count_5m: 3 });

/** What the fake service answers, by path. */
function route(r: Received): Answer {
  const p = r.path;
  if (p === "/v2/tokens/price") {
    const ids = (JSON.parse(r.body) as { token_ids: string[] }).token_ids;
    return v2ok(Object.fromEntries(ids.map((id) => [id, { token_id: id, current_price_usd: "1.25", updated_at: 1_795_000_000 }])));
  }
  if (p === "/v2/tokens" || p === "/v2/ranks" || p === "/v2/tokens/main") return v2ok([token]);
  if (p === "/v2/ranks/topics") return v2ok([{ id: "hot", name_en: "Hot", name_zh: "热门" }]);
  if (p === "/v2/tokens/trending") return v2ok({ current_page_size: 3, next_page: 1, total: 3, tokens: [trendRow("So1"), trendRow("So1"), trendRow("So2")] });
  if (p.startsWith("/v2/tokens/top100/")) return v2ok([holderRow]);
  if (p.startsWith("/v2/tokens/")) return v2ok({ token, pairs: [pair], is_audited: true });
  if (p.startsWith("/v2/klines/")) return v2ok({ points: [point(100), point(200), point(300), point(400)], total_count: 4, to_time: 1_795_000_000_000, limit: 3, interval: 60 });
  if (p.startsWith("/v2/txs/")) return v2ok(txs);
  if (p === "/v2/supported_chains") return v2ok([chain]);
  if (p.startsWith("/v2/contracts/")) return v2ok(report);
  if (p.startsWith("/api/v1/tokens/") && !p.endsWith("/pairs")) return v1ok({ ...token, price: 1.5, risk_info: null, decimal: 18 });
  if (p.startsWith("/api/v1/")) return v1ok([{ anything: p }]);
  return { status: 404, body: { code: 1, msg: "Not found any matched results", data: {} } };
}

let server: FakeServer;
let t: TestClient;
beforeEach(async () => {
  server = await startFakeServer(route);
  t = clientFor(server);
});
afterEach(async () => {
  await t.client.close();
  await server.close();
});

function only(): Received {
  expect(server.received).toHaveLength(1);
  return server.received[0] as Received;
}

describe("v2 endpoints", () => {
  it("searches tokens with keyword, chain, limit and orderby and keeps unknown fields", async () => {
    const out = await t.client.search({ keyword: "pepe", chain: "eth", limit: 300, orderby: "fdv" });
    const r = only();
    expect(r.method).toBe("GET");
    expect(r.path).toBe("/v2/tokens");
    expect(Object.fromEntries(r.query)).toEqual({ keyword: "pepe", chain: "eth", limit: "300", orderby: "fdv" });
    expect(r.headers["x-api-key"]).toBe(V2_KEY);
    expect(r.headers["svc-auth"]).toBeUndefined();
    expect(out[0]).toMatchObject({ symbol: "PEPE", current_price_usd: "0.0000123", extra_field: "kept" });
  });

  it("posts batch prices as a JSON body with the thresholds given", async () => {
    const out = await t.client.batchPrices({ tokenIds: [ETH_ID], tvlMin: 0, txVolume24hMin: 5000 });
    const r = only();
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/v2/tokens/price");
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual({ token_ids: [ETH_ID], tvl_min: 0, tx_24h_volume_min: 5000 });
    expect(out[ETH_ID]).toMatchObject({ current_price_usd: "1.25", updated_at: 1_795_000_000 });
  });

  it("leaves thresholds out of the batch body when none are given", async () => {
    await t.client.batchPrices({ tokenIds: [ETH_ID] });
    expect(JSON.parse(only().body)).toEqual({ token_ids: [ETH_ID] });
  });

  it("lists rank topics", async () => {
    const out = await t.client.rankTopics();
    expect(only().path).toBe("/v2/ranks/topics");
    expect(out).toEqual([{ id: "hot", name_en: "Hot", name_zh: "热门" }]);
  });

  it("lists the tokens of a rank topic", async () => {
    const out = await t.client.rankList({ topic: "meme", limit: 20 });
    const r = only();
    expect(r.path).toBe("/v2/ranks");
    expect(Object.fromEntries(r.query)).toEqual({ topic: "meme", limit: "20" });
    expect(out[0]?.token).toBe(ETH_TOKEN);
  });

  it("fetches a token's detail with its pairs, turning a numeric reserve into its string", async () => {
    const out = await t.client.tokenDetail(ETH_ID);
    expect(only().path).toBe(`/v2/tokens/${ETH_ID}`);
    expect(out.token.symbol).toBe("PEPE");
    expect(out.pairs[0]).toMatchObject({ reserve0: "123.5", reserve1: "99", fee: "" });
    expect(out.is_audited).toBe(true);
  });

  it("encodes a path segment so an id cannot reach another path", async () => {
    await t.client.tokenDetail("a/b?c#d-eth");
    expect(only().path).toBe("/v2/tokens/a%2Fb%3Fc%23d-eth");
  });

  it("fetches a pair K-line with its query and keeps only the latest `limit` points", async () => {
    const out = await t.client.pairKline({ pairId: PAIR_ID, interval: 60, category: "r", limit: 3, fromTime: -1, toTime: 1_795_000_000 });
    const r = only();
    expect(r.path).toBe(`/v2/klines/pair/${PAIR_ID}`);
    expect(Object.fromEntries(r.query)).toEqual({ interval: "60", category: "r", limit: "3", from_time: "-1", to_time: "1795000000" });
    expect(out.points.map((p) => p.time)).toEqual([200, 300, 400]);
    expect(out.to_time).toBe(1_795_000_000);
  });

  it("fetches a token K-line and trims it to the limit asked", async () => {
    const out = await t.client.tokenKline({ tokenId: ETH_ID, interval: 1440, limit: 2 });
    const r = only();
    expect(r.path).toBe(`/v2/klines/token/${ETH_ID}`);
    expect(Object.fromEntries(r.query)).toEqual({ interval: "1440", limit: "2" });
    expect(out.points.map((p) => p.time)).toEqual([300, 400]);
  });

  it("fetches top holders with numbers parsed", async () => {
    const out = await t.client.topHolders({ tokenId: ETH_ID, limit: 100 });
    const r = only();
    expect(r.path).toBe(`/v2/tokens/top100/${ETH_ID}`);
    expect(r.query.get("limit")).toBe("100");
    expect(out[0]).toMatchObject({ address: "0xholder", balance_ratio: 0.12, balance_usd: 1000.5 });
  });

  it("fetches swaps of a pair with limit, window and sort", async () => {
    const out = await t.client.swaps({ pairId: PAIR_ID, limit: 2, fromTime: 10, toTime: 20, sort: "desc" });
    const r = only();
    expect(r.path).toBe(`/v2/txs/${PAIR_ID}`);
    expect(Object.fromEntries(r.query)).toEqual({ limit: "2", from_time: "10", to_time: "20", sort: "desc" });
    expect(out.txs[0]).toMatchObject({ tx_hash: "0xt1", amount_usd: "12.5" });
  });

  it("lists supported chains", async () => {
    const out = await t.client.supportedChains();
    expect(only().path).toBe("/v2/supported_chains");
    expect(out).toEqual([chain]);
  });

  it("lists the main tokens of a chain", async () => {
    const out = await t.client.mainTokens("bsc");
    const r = only();
    expect(r.path).toBe("/v2/tokens/main");
    expect(r.query.get("chain")).toBe("bsc");
    expect(out).toHaveLength(1);
  });

  it("fetches a trending page and drops a repeated row for the same token", async () => {
    const out = await t.client.trending({ chain: "solana", page: 2, pageSize: 100 });
    const r = only();
    expect(r.path).toBe("/v2/tokens/trending");
    expect(Object.fromEntries(r.query)).toEqual({ chain: "solana", current_page: "2", page_size: "100" });
    expect(out.tokens.map((x) => x.token)).toEqual(["So1", "So2"]);
    expect(out.next_page).toBe(1);
  });

  it("fetches a contract risk report", async () => {
    const out = await t.client.riskReport(ETH_ID);
    expect(only().path).toBe(`/v2/contracts/${ETH_ID}`);
    expect(out).toMatchObject({ is_honeypot: 0, buy_tax: 0.01, err_code: "0", risk_score: 12 });
  });
});

describe("v1 endpoints", () => {
  it("queries a v1 token with the Svc-Auth header and not the v2 one", async () => {
    const out = await t.client.v1Token(ETH_ID);
    const r = only();
    expect(r.path).toBe(`/api/v1/tokens/${ETH_ID}`);
    expect(r.headers["svc-auth"]).toBe(V1_KEY);
    expect(r.headers["x-api-key"]).toBeUndefined();
    expect(out).toMatchObject({ symbol: "PEPE", price: "1.5", risk_info: null, decimal: 18 });
  });

  it("searches v1 tokens by keyword", async () => {
    const out = await t.client.v1Search("pepe");
    const r = only();
    expect(r.path).toBe("/api/v1/tokens");
    expect(r.query.get("keyword")).toBe("pepe");
    expect(out).toEqual([{ anything: "/api/v1/tokens" }]);
  });

  it("lists the v1 pairs of a token", async () => {
    await t.client.v1Pairs(ETH_TOKEN);
    expect(only().path).toBe(`/api/v1/tokens/${ETH_TOKEN}/pairs`);
  });

  it("fetches a v1 pair K-line with interval and size", async () => {
    await t.client.v1PairKline({ pair: "0xpair", interval: 240, size: 1000 });
    const r = only();
    expect(r.path).toBe("/api/v1/pairs/0xpair/kline");
    expect(Object.fromEntries(r.query)).toEqual({ interval: "240", size: "1000" });
  });

  it("fetches v1 transactions and liquidity records of a pair", async () => {
    await t.client.v1PairTxs({ pair: "0xpair", size: 500 });
    await t.client.v1PairLiquidity({ pair: "0xpair" });
    expect(server.received.map((r) => `${r.path}?${r.query.toString()}`)).toEqual(["/api/v1/pairs/0xpair/tx?size=500", "/api/v1/pairs/0xpair/liq?"]);
  });

  it("lists the pairs of an AMM with paging and order", async () => {
    await t.client.v1AmmPairs({ amm: "uniswap v2", chain: "eth", offset: 0, limit: 500, sort: "volume", direction: "desc" });
    const r = only();
    expect(r.path).toBe("/api/v1/amm/uniswap%20v2-eth");
    expect(Object.fromEntries(r.query)).toEqual({ offset: "0", limit: "500", sort: "volume", direction: "desc" });
  });

  it("runs a v1 contract check on a supported chain", async () => {
    await t.client.v1ContractCheck({ chain: "core", contract: ETH_TOKEN });
    const r = only();
    expect(r.path).toBe(`/api/v1/contract_check/core/${ETH_TOKEN}`);
    expect(r.headers["svc-auth"]).toBe(V1_KEY);
  });
});

describe("connections", () => {
  it("reuses kept-alive connections instead of opening one per call", async () => {
    for (let i = 0; i < 3; i++) {
      await t.client.supportedChains();
      await t.client.v1Token(ETH_ID);
    }
    expect(server.received).toHaveLength(6);
    // undici may open a second socket while the first is being released; never one per call.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });
});

describe("batch prices over 200 ids", () => {
  it("sends 450 ids as chunks of 200, 200 and 50 and merges the answers", async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}-bsc`);
    const out = await t.client.batchPrices({ tokenIds: ids, tvlMin: 0 });
    const bodies = server.received.map((r) => JSON.parse(r.body) as { token_ids: string[]; tvl_min: number });
    expect(bodies.map((b) => b.token_ids.length).sort((a, b) => b - a)).toEqual([200, 200, 50]);
    expect(bodies.flatMap((b) => b.token_ids).sort()).toEqual([...ids].sort());
    expect(bodies.every((b) => b.tvl_min === 0)).toBe(true);
    expect(Object.keys(out)).toHaveLength(450);
  });

  it("keeps at most `concurrency` chunks in flight at once", async () => {
    // Each chunk is held at the service until the test answers it, so the chunks in flight are counted, not raced.
    const held: Deferred<void>[] = [];
    const arrived = lines();
    let inFlight = 0;
    let most = 0;
    const gated = await startFakeServer(async (r) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const answer = deferred();
      held.push(answer);
      arrived.push(r.path);
      await answer.promise;
      inFlight--;
      return route(r);
    });
    let sent = 0;
    const c = clientFor(gated, { concurrency: 2, onDispatch: () => void sent++ });
    const ids = Array.from({ length: 1000 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}-eth`);
    const prices = c.client.batchPrices({ tokenIds: ids });
    await arrived.until((all) => all.length === 2);
    expect(sent).toBe(2);
    // Each answer lets exactly one more chunk leave.
    for (let n = 3; n <= 5; n++) {
      held[n - 3]?.resolve();
      await arrived.until((all) => all.length === n);
      expect(sent).toBe(n);
    }
    for (const answer of held.slice(3)) answer.resolve();
    expect(Object.keys(await prices)).toHaveLength(1000);
    await c.client.close();
    await gated.close();
    expect(gated.received).toHaveLength(5);
    expect(most).toBe(2);
  });

  it("sends nothing for an empty list and answers with no prices", async () => {
    expect(await t.client.batchPrices({ tokenIds: [] })).toEqual({});
    expect(server.received).toHaveLength(0);
  });
});
