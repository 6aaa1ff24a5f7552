import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { TIME, dataOf, expectFailure, ordinary, prices, v1, v2 } from "./helpers.js";

describe("answers at the edges as service-notes.md says", () => {
  let sb: Sandbox;
  let token: SandboxToken;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME });
    token = ordinary(sb, "bsc");
  });
  afterAll(() => sb.close());

  it("refuses a missing or wrong key with 401 Permission denied before looking at parameters", async () => {
    expectFailure(await v2(sb, "/v2/tokens?keyword=", null), 401, "Permission denied");
    expectFailure(await v2(sb, "/v2/tokens/nope-nochain", "wrong"), 401, "Permission denied");
    expectFailure(await v1(sb, `/api/v1/tokens/${token.id}`, null), 401, "Permission denied");
  });

  it("refuses a v1 key on v2 and a v2 key on v1", async () => {
    expectFailure(await v2(sb, `/v2/tokens/${token.id}`, sb.v1Key), 401, "Permission denied");
    expectFailure(await v1(sb, `/api/v1/tokens/${token.id}`, sb.v2Key), 401, "Permission denied");
    dataOf(await v2(sb, `/v2/tokens/${token.id}`));
  });

  it("answers an unknown token or pair with 404 Not found any matched results", async () => {
    const unknown = `0x${"ab".repeat(20)}-bsc`;
    for (const path of [`/v2/tokens/${unknown}`, `/v2/contracts/${unknown}`, `/v2/klines/pair/${unknown}?interval=1`, `/v2/txs/${unknown}`, `/v2/tokens/top100/${unknown}`]) {
      expectFailure(await v2(sb, path), 404, "Not found any matched results");
    }
    expectFailure(await v1(sb, `/api/v1/tokens/${unknown}`), 404, "Not found any matched results");
  });

  it("answers an unsupported chain with 400, in query parameters and in id suffixes", async () => {
    expectFailure(await v2(sb, "/v2/tokens/trending?chain=dogechain"), 400, "unsupported chain");
    expectFailure(await v2(sb, "/v2/tokens/main?chain=ETH"), 400, "unsupported chain");
    expectFailure(await v2(sb, `/v2/tokens?keyword=pepe&chain=fantom`), 400, "unsupported chain");
    expectFailure(await v2(sb, `/v2/tokens/${token.address}-fantom`), 400, "unsupported chain");
    expectFailure(await v1(sb, `/api/v1/contract_check/solana/${token.address}`), 400, "unsupported chain");
  });

  it("rejects rather than clamps limits above the maximum, below 1 or not integers", async () => {
    const pair = token.pairs[0]?.id;
    const cases = [
      `/v2/tokens?keyword=pepe&limit=301`, `/v2/ranks?topic=hot&limit=301`, `/v2/ranks?topic=hot&limit=0`,
      `/v2/klines/token/${token.id}?interval=1&limit=1001`, `/v2/klines/token/${token.id}?interval=1&limit=2.5`,
      `/v2/txs/${pair}?limit=301`, `/v2/tokens/top100/${token.id}?limit=101`, `/v2/tokens/trending?chain=bsc&page_size=101`,
      `/v2/tokens/trending?chain=bsc&current_page=-1`,
    ];
    for (const path of cases) expectFailure(await v2(sb, path), 400, /invalid parameter/);
    expectFailure(await v1(sb, `/api/v1/pairs/${token.pairs[0]?.address}/kline?size=1001`), 400, /size/);
    expectFailure(await v1(sb, `/api/v1/pairs/${token.pairs[0]?.address}/tx?size=501`), 400, /size/);
    expectFailure(await v1(sb, `/api/v1/amm/pancakev2-bsc?limit=501`), 400, /limit/);
  });

  it("rejects values outside their sets and missing required parameters", async () => {
    const cases = [
      `/v2/klines/token/${token.id}`, `/v2/klines/token/${token.id}?interval=2`, `/v2/klines/pair/${token.pairs[0]?.id}?interval=1&category=x`,
      `/v2/txs/${token.pairs[0]?.id}?sort=up`, `/v2/ranks?topic=frogs`, `/v2/ranks`, `/v2/tokens?keyword=pepe&orderby=price`,
      `/v2/tokens?keyword=`, `/v2/tokens?keyword=%20%20`, `/v2/tokens`, `/v2/tokens/trending`, `/v2/tokens/main`, `/v2/tokens/nohyphen`,
    ];
    for (const path of cases) expectFailure(await v2(sb, path), 400, /invalid parameter/);
    expectFailure(await v1(sb, "/api/v1/tokens?keyword="), 400, /keyword/);
    expectFailure(await v1(sb, `/api/v1/pairs/${token.pairs[0]?.address}/kline?interval=30`), 400, /interval/);
    expectFailure(await v1(sb, `/api/v1/amm/pancakev2-bsc?sort=size`), 400, /sort/);
    expectFailure(await v1(sb, `/api/v1/amm/pancakev2-bsc?direction=up`), 400, /direction/);
  });

  it("answers a search without matches with an empty list", async () => {
    expect(dataOf(await v2(sb, "/v2/tokens?keyword=zzzqqqxxx"))).toEqual([]);
  });

  it("sorts search results descending by orderby, exact symbol matches first without it", async () => {
    const byCap = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/tokens?keyword=pe&orderby=market_cap&limit=50")));
    const caps = byCap.map((t) => Number(t.market_cap)).filter((c) => Number.isFinite(c));
    expect(caps).toEqual([...caps].sort((a, b) => b - a));
    const plain = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/tokens?keyword=pepe&limit=300")));
    const exact = plain.map((t) => t.symbol === "PEPE");
    expect(exact.indexOf(false)).toBeGreaterThan(exact.lastIndexOf(true));
  });

  it("prices a batch: thin pools below tvl_min and unknown ids are absent, EVM ids match in any case", async () => {
    const thin = sb.market.tokens.find((t) => t.chain === "bsc" && t.liquidity > 0 && t.liquidity < 1_000 && !t.hostile);
    if (!thin) throw new Error("no thin token");
    const unknown = `0x${"cd".repeat(20)}-bsc`;
    const upper = `0x${token.address.slice(2).toUpperCase()}-bsc`;
    const byDefault = dataOf(await prices(sb, { token_ids: [upper, thin.id, unknown] })) as Record<string, unknown>;
    expect(Object.keys(byDefault)).toEqual([token.id]);
    const noThreshold = dataOf(await prices(sb, { token_ids: [token.id, thin.id, unknown], tvl_min: 0 })) as Record<string, unknown>;
    expect(Object.keys(noThreshold).sort()).toEqual([token.id, thin.id].sort());
    const volume = Number(sb.market.snapshot(token, TIME / 1000).windows["24h"].volume);
    const above = dataOf(await prices(sb, { token_ids: [token.id], tx_24h_volume_min: Math.ceil(volume) + 1 })) as Record<string, unknown>;
    expect(above).toEqual({});
  });

  it("matches Solana ids exactly in a batch", async () => {
    const sol = ordinary(sb, "solana");
    const swapped = sol.id.replace(/[a-z]/, (c) => c.toUpperCase());
    const data = dataOf(await prices(sb, { token_ids: [sol.id, swapped], tvl_min: 0 })) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual([sol.id]);
  });

  it("refuses more than 200 ids, thresholds sent as strings and a body that is not JSON", async () => {
    const ids = Array.from({ length: 201 }, () => token.id);
    expectFailure(await prices(sb, { token_ids: ids }), 400, /token_ids/);
    expectFailure(await prices(sb, { token_ids: [token.id], tvl_min: "1000" }), 400, /tvl_min/);
    expectFailure(await prices(sb, { token_ids: [token.id], tx_24h_volume_min: "0" }), 400, /tx_24h_volume_min/);
    expectFailure(await prices(sb, "token_ids=1"), 400, /JSON/);
    expectFailure(await prices(sb, { token_ids: [`${token.address}-fantom`] }), 400, "unsupported chain");
  });

  it("pages trending up to 100 a page, with an empty page past the end", async () => {
    const first = S.trendingPage.parse(dataOf(await v2(sb, "/v2/tokens/trending?chain=bsc&page_size=100")));
    expect(first).toMatchObject({ current_page_size: 100, next_page: 1 });
    const total = first.total ?? 0;
    expect(total).toBeGreaterThan(100);
    const last = Math.floor((total - 1) / 100);
    const tail = S.trendingPage.parse(dataOf(await v2(sb, `/v2/tokens/trending?chain=bsc&page_size=100&current_page=${last}`)));
    expect(tail.tokens).toHaveLength(total - last * 100);
    const past = dataOf(await v2(sb, `/v2/tokens/trending?chain=bsc&page_size=100&current_page=${last + 1}`));
    expect(past).toEqual({ current_page_size: 0, next_page: last + 2, tokens: [], total });
  });

  it("defaults the K-line limit to 300 and serves up to 1000, ignoring size", async () => {
    const byDefault = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=1&size=5`)));
    expect(byDefault.points).toHaveLength(300);
    expect(byDefault.limit).toBe(300);
    const max = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=1&limit=1000`)));
    expect(max.points).toHaveLength(1000);
  });

  it("defaults swaps to the latest 100 ascending and serves up to 300", async () => {
    const pair = token.pairs[0]?.id;
    const asc = S.swapTxs.parse(dataOf(await v2(sb, `/v2/txs/${pair}`)));
    expect(asc.txs).toHaveLength(100);
    const times = asc.txs.map((t) => t.tx_time ?? 0);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const desc = S.swapTxs.parse(dataOf(await v2(sb, `/v2/txs/${pair}?sort=desc`)));
    expect(desc.txs.map((t) => t.tx_hash)).toEqual(asc.txs.map((t) => t.tx_hash).reverse());
    expect(S.swapTxs.parse(dataOf(await v2(sb, `/v2/txs/${pair}?limit=300`))).txs).toHaveLength(300);
  });

  it("always answers 100 holders on bsc and solana, and the asked limit elsewhere", async () => {
    const onBsc = dataOf(await v2(sb, `/v2/tokens/top100/${token.id}?limit=5`)) as unknown[];
    expect(onBsc).toHaveLength(Math.min(100, token.holders));
    const eth = ordinary(sb, "eth");
    expect(dataOf(await v2(sb, `/v2/tokens/top100/${eth.id}?limit=5`))).toHaveLength(5);
  });

  it("answers large tokens with an empty holders list, as observed", async () => {
    const weth = sb.market.native("eth");
    expect(weth?.holdersHidden).toBe(true);
    expect(dataOf(await v2(sb, `/v2/tokens/top100/${weth?.id}`))).toEqual([]);
  });

  it("answers unknown paths with 404 in the failure shape", async () => {
    expectFailure(await v2(sb, "/v2/nothing/here"), 404, "Not found any matched results");
    expectFailure(await v2(sb, "/elsewhere"), 404, "Not found any matched results");
  });
});
