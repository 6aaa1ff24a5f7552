import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { KLINE_INTERVALS_V2, RANK_TOPICS } from "../../src/market/limits.js";
import { isEvmAddress, isSolanaAddress, isTronAddress } from "../../src/market/ids.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { TIME, dataOf, expectRecord, ordinary, prices, v1, v2 } from "./helpers.js";

describe("every endpoint answers with the spec's envelopes, fields and types", () => {
  let sb: Sandbox;
  let token: SandboxToken;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME });
    token = ordinary(sb, "eth");
  });
  afterAll(() => sb.close());

  it("serves a market of at least 2,000 tokens on at least 8 chains with their address formats", () => {
    expect(sb.market.tokens.length).toBeGreaterThanOrEqual(2_000);
    const chains = new Set(sb.market.tokens.map((t) => t.chain));
    for (const c of ["eth", "bsc", "base", "arbitrum", "polygon", "solana", "tron", "avalanche"]) expect(chains).toContain(c);
    for (const t of sb.market.tokens) {
      const ok = t.chain === "solana" ? isSolanaAddress(t.address) : t.chain === "tron" ? isTronAddress(t.address) : isEvmAddress(t.address) && t.address === t.address.toLowerCase();
      expect(ok, t.id).toBe(true);
    }
  });

  it("searches by symbol and by address prefix", async () => {
    const bySymbol = expectRecord(S.tokenV2.array(), dataOf(await v2(sb, "/v2/tokens?keyword=pepe")));
    expect(bySymbol.length).toBeGreaterThan(5);
    expect(bySymbol.every((t) => (t.symbol ?? "").toLowerCase().includes("pepe"))).toBe(true);
    const byAddress = expectRecord(S.tokenV2.array(), dataOf(await v2(sb, `/v2/tokens?keyword=${token.address.slice(0, 12).toUpperCase()}`)));
    expect(byAddress.map((t) => `${t.token}-${t.chain}`)).toContain(token.id);
  });

  it("prices a batch with the price entry fields", async () => {
    const data = expectRecord(S.priceMap, dataOf(await prices(sb, { token_ids: [token.id] })));
    expect(Object.keys(data)).toEqual([token.id]);
    expect(data[token.id]?.token_id).toBe(token.id);
  });

  it("lists the 20 rank topics and a list for each", async () => {
    const topics = expectRecord(S.rankTopic.array(), dataOf(await v2(sb, "/v2/ranks/topics")));
    expect(topics.map((t) => t.id)).toEqual([...RANK_TOPICS]);
    for (const topic of RANK_TOPICS) {
      const list = expectRecord(S.tokenV2.array(), dataOf(await v2(sb, `/v2/ranks?topic=${topic}&limit=20`)));
      expect(list.length, topic).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(20);
    }
  });

  it("gives a token's detail with its pairs on several venues", async () => {
    const d = expectRecord(S.tokenDetail, dataOf(await v2(sb, `/v2/tokens/${token.id}`)));
    expect(d.token.token).toBe(token.address);
    expect(d.pairs.length).toBe(token.pairs.length);
    expect(new Set(d.pairs.map((p) => p.amm)).size).toBe(token.pairs.length);
    expect(d.token.svc_risk_level).toBe(0);
  });

  it("answers K-lines by pair and by token for every allowed interval", async () => {
    for (const interval of KLINE_INTERVALS_V2) {
      const k = expectRecord(S.kline, dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=${interval}&limit=5`)));
      expect(k.points.length, String(interval)).toBeGreaterThan(0);
      expect(k).toMatchObject({ interval, limit: 5, target_token_id: token.id, pair_id: token.pairs[0]?.id });
    }
    const pair = token.pairs[1];
    if (!pair) throw new Error("test token has one pair");
    for (const category of ["u", "r", "m"]) {
      const k = expectRecord(S.kline, dataOf(await v2(sb, `/v2/klines/pair/${pair.id}?interval=15&limit=10&category=${category}`)));
      expect(k.points).toHaveLength(10);
      expect(k.pair_id).toBe(pair.id);
    }
  });

  it("lists top holders, swaps, chains, main tokens, trending and the risk report", async () => {
    const holders = expectRecord(S.holder.array(), dataOf(await v2(sb, `/v2/tokens/top100/${token.id}?limit=20`)));
    expect(holders.length).toBe(Math.min(20, token.holders));
    const txs = expectRecord(S.swapTxs, dataOf(await v2(sb, `/v2/txs/${token.pairs[0]?.id}`)));
    expect(txs.txs).toHaveLength(100);
    const chains = expectRecord(S.chainRecord.array(), dataOf(await v2(sb, "/v2/supported_chains")));
    expect(chains.find((c) => c.chain === "bsc")).toMatchObject({ chain_id: "56", case_sensitive: false });
    expect(chains.find((c) => c.chain === "solana")).toMatchObject({ chain_id: "solana", case_sensitive: true });
    const main = expectRecord(S.tokenV2.array(), dataOf(await v2(sb, "/v2/tokens/main?chain=eth")));
    expect(main.map((t) => t.symbol)).toEqual(expect.arrayContaining(["WETH", "USDC", "USDT"]));
    const trending = expectRecord(S.trendingPage, dataOf(await v2(sb, "/v2/tokens/trending?chain=bsc")));
    expect(trending.tokens).toHaveLength(50);
    expect(trending.tokens[0]).not.toHaveProperty("risk_level");
    const report = expectRecord(S.riskReport, dataOf(await v2(sb, `/v2/contracts/${token.id}`)));
    expect(report.err_code).toBe("0");
  });

  it("serves every v1 endpoint in the v1 envelope, the token record with its exact types", async () => {
    const rec = expectRecord(S.tokenV1, dataOf(await v1(sb, `/api/v1/tokens/${token.id}`)));
    expect(rec.token).toBe(token.address);
    const found = expectRecord(S.tokenV1.array(), dataOf(await v1(sb, `/api/v1/tokens?keyword=${token.symbol}`)));
    expect(found.map((t) => t.token)).toContain(token.address);
    const pairs = expectRecord(S.pairV2.array(), dataOf(await v1(sb, `/api/v1/tokens/${token.address}/pairs`)));
    expect(pairs.length).toBe(token.pairs.length);
    const pair = token.pairs[0]?.address;
    const k = expectRecord(S.kline, dataOf(await v1(sb, `/api/v1/pairs/${pair}/kline`)));
    expect(k).toMatchObject({ interval: 1, limit: 600 });
    expect(k.points).toHaveLength(600);
    expect(expectRecord(S.swapTx.array(), dataOf(await v1(sb, `/api/v1/pairs/${pair}/tx`)))).toHaveLength(200);
    expect(expectRecord(S.swapTx.array(), dataOf(await v1(sb, `/api/v1/pairs/${pair}/liq?size=5`)))).toHaveLength(5);
    const amm = expectRecord(S.pairV2.array(), dataOf(await v1(sb, `/api/v1/amm/${token.pairs[0]?.amm}-eth?limit=7`)));
    expect(amm).toHaveLength(7);
    expect(expectRecord(S.riskReport, dataOf(await v1(sb, `/api/v1/contract_check/eth/${token.address}`))).token).toBe(token.address);
  });

  it("keeps v1 pairs of a token to at most 10 when one address trades on several chains", async () => {
    const link = sb.market.bySymbol("LINK");
    const address = link[0]?.address ?? "";
    const onAddress = sb.market.tokensAt(address);
    expect(new Set(onAddress.map((t) => t.chain)).size).toBeGreaterThan(2);
    expect(onAddress.flatMap((t) => t.pairs).length).toBeGreaterThan(10);
    const pairs = dataOf(await v1(sb, `/api/v1/tokens/${address}/pairs`)) as unknown[];
    expect(pairs).toHaveLength(10);
  });
});
