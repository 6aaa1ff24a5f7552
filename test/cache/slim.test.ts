/**
 * What a slimmed entry holds (src/cache/slim.ts): nothing outside the kept fields, still a valid
 * record of its kind, plain JSON that comes back the same from either store. That the kept
 * fields are all the replies read is test/cache/slim-replies.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createMemoryStore } from "../../src/cache/memory-store.js";
import {
  CARD_PAIR_FIELDS, CARD_TOKEN_FIELDS, HOLDER_FIELDS, HOLDERS_KEPT, PRICE_FIELDS, RANKED_HOLDER_FIELDS, RISK_FIELDS, V1_TOKEN_FIELDS,
  slimDetail, slimHolders, slimPrice, slimRiskReport, slimV1Token,
} from "../../src/cache/slim.js";
import type { CacheEntry, CacheStore } from "../../src/cache/store.js";
import { MarketClient } from "../../src/market/client.js";
import {
  holder, priceEntry, riskReport, tokenDetail, tokenV1, type Holder, type PriceEntry, type RiskReport, type TokenDetail, type TokenV1,
} from "../../src/market/schemas.js";
import { createRedisCacheStore } from "../../src/redis/cache-store.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { useRedis } from "../engines/redis.js";
import { deferred } from "../deferred.js";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
/** A field the spec does not name, as the service may add any day (the schemas keep unknown fields). */
const SURPRISE = { surprise: { nested: Array.from({ length: 50 }, (_, i) => i) } };

interface Full {
  detail: TokenDetail;
  risk: RiskReport;
  holders: Holder[];
  v1: TokenV1;
  price: PriceEntry;
}

let sandbox: Sandbox;
let client: MarketClient;
const records: Full[] = [];
const { link } = useRedis();

beforeAll(async () => {
  sandbox = await startSandbox({ time: T0, seed: 1 });
  client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key }, retry: { maxAttempts: 1 } });
  for (const t of sandbox.market.tokens.slice(0, 8)) {
    const [detail, risk, holders, v1, prices] = await Promise.all([
      client.tokenDetail(t.id), client.riskReport(t.id), client.topHolders({ tokenId: t.id, limit: 100 }), client.v1Token(t.id),
      client.batchPrices({ tokenIds: [t.id], tvlMin: 0 }),
    ]);
    const price = Object.values(prices)[0];
    if (price === undefined) throw new Error(`the sandbox has no price of ${t.id}`);
    records.push({
      detail: { ...detail, ...SURPRISE, token: { ...detail.token, ...SURPRISE }, pairs: detail.pairs.map((p) => ({ ...p, ...SURPRISE })) },
      risk: { ...risk, ...SURPRISE, token_holders_rank: risk.token_holders_rank?.map((h) => ({ ...h, ...SURPRISE })) },
      holders: holders.map((h) => ({ ...h, ...SURPRISE })),
      v1: { ...v1, ...SURPRISE },
      price: { ...price, ...SURPRISE },
    });
  }
});

afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const keysOf = (o: object): string[] => Object.keys(o);
const within = (allowed: readonly string[]) => (o: object) => expect(keysOf(o).filter((k) => !allowed.includes(k))).toEqual([]);

describe("a slimmed entry", () => {
  it("holds no field outside the kept ones, at any level", () => {
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      const detail = slimDetail(r.detail);
      within(["token", "pairs", "is_audited"])(detail);
      within(CARD_TOKEN_FIELDS)(detail.token);
      expect(detail.pairs).toHaveLength(r.detail.pairs.length);
      for (const p of detail.pairs) within(CARD_PAIR_FIELDS)(p);

      const risk = slimRiskReport(r.risk);
      within(RISK_FIELDS)(risk);
      expect(risk.token_holders_rank).toHaveLength(r.risk.token_holders_rank?.length ?? 0);
      for (const h of risk.token_holders_rank ?? []) within(RANKED_HOLDER_FIELDS)(h);

      const holders = slimHolders(r.holders);
      expect(holders).toHaveLength(Math.min(HOLDERS_KEPT, r.holders.length));
      for (const h of holders) within(HOLDER_FIELDS)(h);

      within(V1_TOKEN_FIELDS)(slimV1Token(r.v1));
      within(PRICE_FIELDS)(slimPrice(r.price) ?? {});
    }
    expect(slimPrice(null)).toBeNull();
  });

  it("keeps the kept fields as the service sent them, fallbacks only when their first choice is missing", () => {
    for (const r of records) {
      const t = slimDetail(r.detail).token;
      for (const k of ["token", "chain", "symbol", "name", "current_price_usd", "holders", "price_change_24h", "risk_info", "risk_score"] as const) {
        expect(t[k]).toEqual(r.detail.token[k]);
      }
      expect(t.main_pair_tvl).toBe(r.detail.token.tvl === undefined ? r.detail.token.main_pair_tvl : undefined);
      expect(t.created_at).toBe(r.detail.token.launch_at === undefined ? r.detail.token.created_at : undefined);
      const risk = slimRiskReport(r.risk);
      for (const k of RISK_FIELDS.filter((f) => f !== "token_holders_rank")) expect(risk[k]).toEqual(r.risk[k]);
      expect(slimPrice(r.price)?.current_price_usd).toBe(r.price.current_price_usd);
      expect(slimHolders(r.holders).map((h) => h.address ?? h.holder)).toEqual(r.holders.slice(0, HOLDERS_KEPT).map((h) => h.address ?? h.holder));
    }
  });

  it("keeps of the appendix only the entries that could be links, in their order", () => {
    const base = records[0]?.detail;
    expect(base).toBeDefined();
    if (base === undefined) return;
    const withAppendix = (appendix: string | undefined): TokenDetail => ({ ...base, token: { ...base.token, appendix } });
    const appendix = JSON.stringify({ name: "Pepe", twitter: "https://x.com/pepe", email: "a@b.c", website: " HTTP://pepe.example ", divisor: "18", blog: "" });
    expect(slimDetail(withAppendix(appendix)).token.appendix).toBe(JSON.stringify({ twitter: "https://x.com/pepe", website: " HTTP://pepe.example " }));
    expect(slimDetail(withAppendix(JSON.stringify({ name: "Pepe" }))).token).not.toHaveProperty("appendix");
    expect(slimDetail(withAppendix("not json")).token).not.toHaveProperty("appendix");
    expect(slimDetail(withAppendix(undefined)).token).not.toHaveProperty("appendix");
  });

  it("is still a valid record of its kind", () => {
    for (const r of records) {
      expect(tokenDetail.safeParse(slimDetail(r.detail)).success).toBe(true);
      expect(riskReport.safeParse(slimRiskReport(r.risk)).success).toBe(true);
      for (const h of slimHolders(r.holders)) expect(holder.safeParse(h).success).toBe(true);
      expect(tokenV1.safeParse(slimV1Token(r.v1)).success).toBe(true);
      expect(priceEntry.safeParse(slimPrice(r.price)).success).toBe(true);
    }
  });

  it("stays slim when a list's full record brings its card up to date", async () => {
    let t = T0;
    const stored: CacheEntry[] = [];
    const secondWrite = deferred();
    const inner = createMemoryStore({ maxBytes: 16 * 1024 ** 2, now: () => t });
    const store: CacheStore = {
      get: (k) => inner.get(k),
      set: (k, e, keep) => {
        if (k.startsWith("tokenDetail:") && stored.push(e) === 2) secondWrite.resolve();
        return inner.set(k, e, keep);
      },
    };
    const market = createCachedMarket(client, { now: () => t, store });
    const token = sandbox.market.tokens[0];
    expect(token).toBeDefined();
    if (token === undefined) return;
    await market.tokenDetail(token.id);
    t += 1_000;
    const found = await client.search({ keyword: token.symbol, chain: token.chain });
    expect(found.some((r) => `${r.token}-${r.chain}` === token.id)).toBe(true);
    await market.search({ keyword: token.symbol, chain: token.chain });
    // The refresh runs after the list is answered: wait for the card's second write.
    await secondWrite.promise;
    expect(stored).toHaveLength(2);
    const refreshed = stored[1]?.data as TokenDetail;
    expect(refreshed.token.current_price_usd).toBe(found.find((r) => `${r.token}-${r.chain}` === token.id)?.current_price_usd);
    within(CARD_TOKEN_FIELDS)(refreshed.token);
    expect(refreshed).toEqual(slimDetail(refreshed));
  });

  it.each([
    ["in process", async (): Promise<CacheStore> => createMemoryStore({ maxBytes: 1024 ** 2, now: () => T0 })],
    ["on Redis", async (): Promise<CacheStore> => createRedisCacheStore({ redis: await link(), local: createMemoryStore({ maxBytes: 1, now: () => T0 }) })],
  ])("comes back from the store %s as it went in, and as the cache serves it", async (_where, storeFor) => {
    const store = await storeFor();
    const r = records[0];
    expect(r).toBeDefined();
    if (r === undefined) return;
    const entries: Record<string, unknown> = {
      detail: slimDetail(r.detail), risk: slimRiskReport(r.risk), holders: slimHolders(r.holders), v1: slimV1Token(r.v1), price: slimPrice(r.price),
    };
    for (const [key, data] of Object.entries(entries)) {
      const entry: CacheEntry = { data, fetchedAt: T0, freshMs: 60_000 };
      await store.set(`slim-test:${key}`, entry, 60_000);
      expect(await store.get(`slim-test:${key}`)).toEqual(entry);
    }
    const market = createCachedMarket(client, { now: () => T0, store });
    const id = sandbox.market.tokens[0]?.id ?? "";
    await market.tokenDetail(id);
    expect((await market.tokenDetail(id)).data).toEqual(slimDetail(await client.tokenDetail(id)));
  });
});
