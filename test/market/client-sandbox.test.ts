import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketClient, type MarketClientOptions } from "../../src/market/client.js";
import { RANK_TOPICS } from "../../src/market/limits.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { fakeClock, rejection } from "./helpers.js";

// The client against the project's own stand-in for the service: every endpoint, both versions,
// with and without the service's type quirks, and through the sandbox's injected faults.
const TIME = Date.UTC(2026, 10, 22, 12);

function clientOn(sandbox: Sandbox, overrides: Partial<MarketClientOptions> = {}): { client: MarketClient; slept: number[] } {
  const clock = fakeClock(TIME);
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    timeoutMs: 2_000,
    retry: { maxAttempts: 3, baseDelayMs: 10 },
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0,
    ...overrides,
  });
  return { client, slept: clock.slept };
}

/** An ordinary token (not hostile, trading, with pairs and visible holders) on `chain`. */
function ordinary(sandbox: Sandbox, chain: string): SandboxToken {
  const t = sandbox.market.tokens.find(
    (x) => x.chain === chain && x.hostile === undefined && !x.main && !x.holdersHidden && x.pairs.length > 0 && x.launchAt * 1000 < TIME - 86_400_000,
  );
  if (t === undefined) throw new Error(`the sandbox has no ordinary token on ${chain}`);
  return t;
}

for (const quirks of [false, true]) {
  describe(`every endpoint on the sandbox${quirks ? " with the service's quirks" : ""}`, () => {
    let sandbox: Sandbox;
    let client: MarketClient;
    let token: SandboxToken;
    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 7, time: TIME, tokenCount: 400, quirks });
      client = clientOn(sandbox).client;
      token = ordinary(sandbox, "bsc");
    });
    afterAll(async () => {
      await client.close();
      await sandbox.close();
    });

    it("finds a token by its symbol in both versions", async () => {
      const v2 = await client.search({ keyword: token.symbol, limit: 50 });
      expect(v2.map((t) => `${t.token}-${t.chain}`)).toContain(token.id);
      const v1 = await client.v1Search(token.symbol);
      expect(JSON.stringify(v1)).toContain(token.address);
    });

    it("prices 250 tokens through two batch calls", async () => {
      const ids = sandbox.market.tokens.filter((t) => t.hostile === undefined).slice(0, 250).map((t) => t.id);
      sandbox.resetStats();
      const prices = await client.batchPrices({ tokenIds: ids, tvlMin: 0 });
      expect(Object.keys(prices).length).toBeGreaterThan(200);
      expect(prices[token.id]?.current_price_usd).toMatch(/\d/);
      expect(sandbox.stats().byEndpoint).toEqual({ batchPrices: 2 });
    });

    it("lists rank topics and a topic's tokens", async () => {
      expect((await client.rankTopics()).map((t) => t.id).sort()).toEqual([...RANK_TOPICS].sort());
      expect((await client.rankList({ topic: "hot", limit: 10 })).length).toBeLessThanOrEqual(10);
    });

    it("reads a token's detail, risk report and v1 record", async () => {
      const detail = await client.tokenDetail(token.id);
      expect(detail.token).toMatchObject({ token: token.address, chain: "bsc", symbol: token.symbol });
      expect(detail.pairs.length).toBe(token.pairs.length);
      const report = await client.riskReport(token.id);
      expect(report.err_code).toBeDefined();
      expect(await client.v1Token(token.id)).toMatchObject({ token: token.address, symbol: token.symbol });
    });

    it("reads K-lines of a pair and of a token, never more points than asked", async () => {
      const pair = token.pairs[0];
      const byPair = await client.pairKline({ pairId: pair?.id ?? "", interval: 60, limit: 24 });
      expect(byPair.points.length).toBeGreaterThan(0);
      expect(byPair.points.length).toBeLessThanOrEqual(24);
      const byToken = await client.tokenKline({ tokenId: token.id, interval: 1440, limit: 7 });
      expect(byToken.points.length).toBeLessThanOrEqual(7);
      const times = byToken.points.map((p) => p.time);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it("reads holders, swaps, chains, main tokens and a trending page", async () => {
      expect((await client.topHolders({ tokenId: token.id, limit: 20 })).length).toBeGreaterThan(0);
      const swaps = await client.swaps({ pairId: token.pairs[0]?.id ?? "", limit: 10, sort: "desc" });
      expect(swaps.txs.length).toBeLessThanOrEqual(10);
      expect((await client.supportedChains()).map((c) => c.chain)).toEqual(expect.arrayContaining(["eth", "bsc", "solana"]));
      expect((await client.mainTokens("eth")).length).toBeGreaterThan(0);
      const page = await client.trending({ chain: "solana", pageSize: 100 });
      const keys = page.tokens.map((t) => `${t.token}-${t.chain}`);
      expect(new Set(keys).size).toBe(keys.length);
    });

    it("reads every hostile token's detail and price without a shape error", async () => {
      const hostile = sandbox.market.hostile;
      expect(hostile.some((h) => h.noMarket === true)).toBe(true);
      for (const h of hostile) {
        const detail = await client.tokenDetail(h.id);
        expect(detail.token.token).toBe(h.address);
      }
      const prices = await client.batchPrices({ tokenIds: hostile.map((h) => h.id), tvlMin: 0 });
      expect(Object.keys(prices).length).toBeGreaterThan(0);
    });

    it("reads the v1 pair, liquidity, AMM and contract check endpoints", async () => {
      const pair = token.pairs[0];
      if (pair === undefined) throw new Error("token without pairs");
      expect(JSON.stringify(await client.v1Pairs(token.address))).toContain(pair.address);
      const kline = (await client.v1PairKline({ pair: pair.address, interval: 60, size: 10 })) as { points: unknown[]; pair_id: string };
      expect(kline.points.length).toBeGreaterThan(0);
      expect(kline.points.length).toBeLessThanOrEqual(10);
      expect(kline.pair_id).toContain(pair.address);
      const txs = (await client.v1PairTxs({ pair: pair.address, size: 10 })) as unknown[];
      expect(txs.length).toBeGreaterThan(0);
      expect(txs.length).toBeLessThanOrEqual(10);
      const liquidity = (await client.v1PairLiquidity({ pair: pair.address, size: 10 })) as unknown[];
      expect(liquidity.length).toBeGreaterThan(0);
      expect(liquidity.length).toBeLessThanOrEqual(10);
      expect(JSON.stringify(await client.v1AmmPairs({ amm: pair.amm, chain: pair.chain, limit: 20 }))).toContain('"pair"');
      expect(JSON.stringify(await client.v1ContractCheck({ chain: "bsc", contract: token.address }))).toContain(token.address);
    });
  });
}

describe("the client through the sandbox's faults", () => {
  let sandbox: Sandbox;
  let token: SandboxToken;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 7, time: TIME, tokenCount: 400 });
    token = ordinary(sandbox, "eth");
  });
  afterAll(async () => {
    await sandbox.close();
  });

  async function withFault(fault: Parameters<Sandbox["setFaults"]>[0][number], overrides: Partial<MarketClientOptions> = {}) {
    sandbox.setFaults([fault]);
    const c = clientOn(sandbox, overrides);
    const outcome = await c.client.tokenDetail(token.id).then((v) => v, (e: unknown) => e);
    await c.client.close();
    sandbox.clearFaults();
    return { outcome, slept: c.slept };
  }

  it("retries past one HTML 503 page", async () => {
    const { outcome } = await withFault({ kind: "http5xx", status: 503, times: 1 });
    expect(outcome).toMatchObject({ token: { token: token.address } });
  });

  it("waits the sandbox's Retry-After of one second after a 429", async () => {
    const { outcome, slept } = await withFault({ kind: "rate429", times: 1 });
    expect(outcome).toMatchObject({ token: { token: token.address } });
    expect(slept).toEqual([1000]);
  });

  it("times out a hanging answer", async () => {
    const { outcome } = await withFault({ kind: "hang" }, { timeoutMs: 100, retry: { maxAttempts: 1 } });
    expect(outcome).toMatchObject({ kind: "timeout" });
  });

  it.each([
    ["envelope", "envelope"],
    ["malformed", "malformed"],
    ["truncated", "malformed"],
    ["wrongType", "shape"],
  ] as const)("reports a %s fault as kind %s", async (kind, expected) => {
    const { outcome } = await withFault({ kind });
    expect(outcome).toMatchObject({ kind: expected, endpoint: "tokenDetail" });
    if (expected === "shape") expect((outcome as { path: string }).path).toMatch(/^data\./);
  });

  it("reports the v1 key sent to v2 as unauthorized", async () => {
    const c = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v1Key } });
    const e = await rejection(c.tokenDetail(token.id));
    await c.close();
    expect(e).toMatchObject({ kind: "unauthorized", status: 401 });
  });

  it("keeps the service's msg for an unsupported chain", async () => {
    const c = clientOn(sandbox).client;
    const e = await rejection(c.tokenDetail(`${token.address}-dogechain`));
    await c.close();
    expect(e).toMatchObject({ kind: "bad_request", status: 400, msg: "unsupported chain" });
  });
});
