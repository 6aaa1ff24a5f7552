/**
 * One method per endpoint of v2 and v1 (market-api.md), each checking its parameters before
 * anything is sent, then building the request and applying the leniency service-notes.md
 * asks of clients (K-line points trimmed to `limit`, repeated trending rows removed).
 */
import { z } from "zod";
import type {
  BatchPricesParams, MarketApi, PairKlineParams, RankListParams, SearchParams, SwapsParams,
  TokenKlineParams, TopHoldersParams, TrendingParams, V1AmmParams, V1ContractCheckParams,
  V1KlineParams, V1SizeParams,
} from "./api.js";
import {
  AMM_DIRECTION, AMM_SORT, CONTRACT_CHECK_CHAINS, KLINE_CATEGORIES, KLINE_INTERVALS_V1,
  KLINE_INTERVALS_V2, LIMITS, RANK_TOPICS, SEARCH_ORDERBY, SWAP_SORT,
} from "./limits.js";
import { isMarketError, type MarketError } from "./errors.js";
import { ParamCheck } from "./params.js";
import type { Lane } from "./scheduler-lanes.js";
import type { Exchange } from "./transport.js";
import {
  chainRecord, holder, kline, openPayload, priceMap, rankTopic, riskReport, swapTxs, tokenDetail,
  tokenV1, tokenV2, trendingPage, type ChainRecord, type Holder, type Kline, type OpenPayload,
  type PriceMap, type RankTopic, type RiskReport, type SwapTxs, type TokenDetail, type TokenV1,
  type TokenV2, type TrendingPage,
} from "./schemas.js";

/** A request as the endpoints describe it, with the schema of its answer; `Caller` sends it on a lane. */
export interface CallSpec<S extends z.ZodType> extends Omit<Exchange, "lane"> {
  schema: S;
}

/** What the endpoints need from the client: send and decode, and count refusals. */
export interface Caller {
  call<S extends z.ZodType>(spec: CallSpec<S>, lane: Lane): Promise<z.output<S>>;
  refused(error: MarketError, lane: Lane): void;
  /** Most chunks of one batch in flight at once. */
  readonly concurrency: number;
}

const seg = encodeURIComponent;
/** A time bound: unix seconds, or -1 for "from the start" (the service's default `from_time`). */
const TIME = { min: -1 } as const;

/** Runs `fn` over `items` with at most `limit` running at once, results in input order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Keeps the latest `limit` points in ascending time: the service was seen sending one too many. */
function trimKline(k: Kline, limit: number): Kline {
  if (k.points.length <= limit) return k;
  const points = [...k.points].sort((a, b) => a.time - b.time).slice(-limit);
  return { ...k, points };
}

/** Drops repeated rows for the same token and chain (seen on Solana), keeping the first. */
function dedupeTrending(page: TrendingPage): TrendingPage {
  const seen = new Set<string>();
  const tokens = page.tokens.filter((t) => {
    const key = `${t.token}-${t.chain}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return tokens.length === page.tokens.length ? page : { ...page, tokens };
}

/** The endpoints on one lane of a shared client. */
export class MarketEndpoints implements MarketApi {
  constructor(
    private readonly caller: Caller,
    private readonly lane: Lane,
  ) {}

  /** Checks with `build`, then sends what it returns; a refusal is counted like any call. */
  private run<T>(endpoint: string, build: (c: ParamCheck) => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = build(new ParamCheck(endpoint));
    } catch (e) {
      pending = Promise.reject(e);
    }
    return pending.catch((e: unknown) => {
      if (isMarketError(e) && e.kind === "invalid_params") this.caller.refused(e, this.lane);
      throw e;
    });
  }

  private call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    return this.caller.call(spec, this.lane);
  }

  // ------------------------------------------------------------------ v2

  search(p: SearchParams): Promise<TokenV2[]> {
    return this.run("search", (c) => {
      const query = {
        keyword: c.text("keyword", p.keyword),
        chain: c.optionalText("chain", p.chain),
        limit: c.int("limit", p.limit, { min: 1, max: LIMITS.search.max }),
        orderby: c.oneOf("orderby", p.orderby, SEARCH_ORDERBY),
      };
      return this.call({ endpoint: "search", version: "v2", method: "GET", path: "/v2/tokens", query, schema: z.array(tokenV2) });
    });
  }

  batchPrices(p: BatchPricesParams): Promise<PriceMap> {
    return this.run("batchPrices", async (c) => {
      if (!Array.isArray(p.tokenIds)) c.fail("tokenIds is required");
      const ids = [...new Set(p.tokenIds.map((id, i) => c.id(`tokenIds[${i}]`, id)))];
      const tvl_min = c.int("tvlMin", p.tvlMin, { min: 0 });
      const tx_24h_volume_min = c.int("txVolume24hMin", p.txVolume24hMin, { min: 0 });
      const chunks: string[][] = [];
      for (let i = 0; i < ids.length; i += LIMITS.batchPrices.maxIds) chunks.push(ids.slice(i, i + LIMITS.batchPrices.maxIds));
      // A POST, yet retried like the GETs: it only reads prices, so sending it twice is harmless.
      const maps = await mapBounded(chunks, this.caller.concurrency, (token_ids) =>
        this.call({
          endpoint: "batchPrices", version: "v2", method: "POST", path: "/v2/tokens/price",
          body: { token_ids, tvl_min, tx_24h_volume_min }, schema: priceMap,
        }),
      );
      return Object.assign({}, ...maps) as PriceMap;
    });
  }

  rankTopics(): Promise<RankTopic[]> {
    return this.call({ endpoint: "rankTopics", version: "v2", method: "GET", path: "/v2/ranks/topics", schema: z.array(rankTopic) });
  }

  rankList(p: RankListParams): Promise<TokenV2[]> {
    return this.run("rankList", (c) => {
      const query = {
        topic: c.requiredOneOf("topic", p.topic, RANK_TOPICS),
        limit: c.int("limit", p.limit, { min: 1, max: LIMITS.rankList.max }),
      };
      return this.call({ endpoint: "rankList", version: "v2", method: "GET", path: "/v2/ranks", query, schema: z.array(tokenV2) });
    });
  }

  tokenDetail(tokenId: string): Promise<TokenDetail> {
    return this.run("tokenDetail", (c) => {
      const path = `/v2/tokens/${seg(c.id("tokenId", tokenId))}`;
      return this.call({ endpoint: "tokenDetail", version: "v2", method: "GET", path, schema: tokenDetail });
    });
  }

  pairKline(p: PairKlineParams): Promise<Kline> {
    return this.run("pairKline", async (c) => {
      const path = `/v2/klines/pair/${seg(c.id("pairId", p.pairId))}`;
      const limit = c.int("limit", p.limit, { min: 1, max: LIMITS.kline.max });
      const query = {
        interval: c.requiredOneOf("interval", p.interval, KLINE_INTERVALS_V2),
        category: c.oneOf("category", p.category, KLINE_CATEGORIES),
        limit,
        from_time: c.int("fromTime", p.fromTime, TIME),
        to_time: c.int("toTime", p.toTime, TIME),
      };
      const k = await this.call({ endpoint: "pairKline", version: "v2", method: "GET", path, query, schema: kline });
      return trimKline(k, limit ?? LIMITS.kline.default);
    });
  }

  tokenKline(p: TokenKlineParams): Promise<Kline> {
    return this.run("tokenKline", async (c) => {
      const path = `/v2/klines/token/${seg(c.id("tokenId", p.tokenId))}`;
      const limit = c.int("limit", p.limit, { min: 1, max: LIMITS.kline.max });
      const query = {
        interval: c.requiredOneOf("interval", p.interval, KLINE_INTERVALS_V2),
        limit,
        from_time: c.int("fromTime", p.fromTime, TIME),
        to_time: c.int("toTime", p.toTime, TIME),
      };
      const k = await this.call({ endpoint: "tokenKline", version: "v2", method: "GET", path, query, schema: kline });
      return trimKline(k, limit ?? LIMITS.kline.default);
    });
  }

  topHolders(p: TopHoldersParams): Promise<Holder[]> {
    return this.run("topHolders", (c) => {
      const path = `/v2/tokens/top100/${seg(c.id("tokenId", p.tokenId))}`;
      const query = { limit: c.int("limit", p.limit, { min: 1, max: LIMITS.topHolders.max }) };
      return this.call({ endpoint: "topHolders", version: "v2", method: "GET", path, query, schema: z.array(holder) });
    });
  }

  swaps(p: SwapsParams): Promise<SwapTxs> {
    return this.run("swaps", (c) => {
      const path = `/v2/txs/${seg(c.id("pairId", p.pairId))}`;
      const query = {
        limit: c.int("limit", p.limit, { min: 1, max: LIMITS.swaps.max }),
        from_time: c.int("fromTime", p.fromTime, TIME),
        to_time: c.int("toTime", p.toTime, TIME),
        sort: c.oneOf("sort", p.sort, SWAP_SORT),
      };
      return this.call({ endpoint: "swaps", version: "v2", method: "GET", path, query, schema: swapTxs });
    });
  }

  supportedChains(): Promise<ChainRecord[]> {
    return this.call({ endpoint: "supportedChains", version: "v2", method: "GET", path: "/v2/supported_chains", schema: z.array(chainRecord) });
  }

  mainTokens(chain: string): Promise<TokenV2[]> {
    return this.run("mainTokens", (c) => {
      const query = { chain: c.text("chain", chain) };
      return this.call({ endpoint: "mainTokens", version: "v2", method: "GET", path: "/v2/tokens/main", query, schema: z.array(tokenV2) });
    });
  }

  trending(p: TrendingParams): Promise<TrendingPage> {
    return this.run("trending", async (c) => {
      const query = {
        chain: c.text("chain", p.chain),
        current_page: c.int("page", p.page, { min: 0 }),
        page_size: c.int("pageSize", p.pageSize, { min: 1, max: LIMITS.trending.pageSizeMax }),
      };
      const page = await this.call({ endpoint: "trending", version: "v2", method: "GET", path: "/v2/tokens/trending", query, schema: trendingPage });
      return dedupeTrending(page);
    });
  }

  riskReport(tokenId: string): Promise<RiskReport> {
    return this.run("riskReport", (c) => {
      const path = `/v2/contracts/${seg(c.id("tokenId", tokenId))}`;
      return this.call({ endpoint: "riskReport", version: "v2", method: "GET", path, schema: riskReport });
    });
  }

  // ------------------------------------------------------------------ v1

  v1Token(tokenId: string): Promise<TokenV1> {
    return this.run("v1Token", (c) => {
      const path = `/api/v1/tokens/${seg(c.id("tokenId", tokenId))}`;
      return this.call({ endpoint: "v1Token", version: "v1", method: "GET", path, schema: tokenV1 });
    });
  }

  v1Search(keyword: string): Promise<OpenPayload> {
    return this.run("v1Search", (c) => {
      const query = { keyword: c.text("keyword", keyword) };
      return this.call({ endpoint: "v1Search", version: "v1", method: "GET", path: "/api/v1/tokens", query, schema: openPayload });
    });
  }

  v1Pairs(token: string): Promise<OpenPayload> {
    return this.run("v1Pairs", (c) => {
      const path = `/api/v1/tokens/${seg(c.text("token", token))}/pairs`;
      return this.call({ endpoint: "v1Pairs", version: "v1", method: "GET", path, schema: openPayload });
    });
  }

  v1PairKline(p: V1KlineParams): Promise<OpenPayload> {
    return this.run("v1PairKline", (c) => {
      const path = `/api/v1/pairs/${seg(c.text("pair", p.pair))}/kline`;
      const query = {
        interval: c.oneOf("interval", p.interval, KLINE_INTERVALS_V1),
        size: c.int("size", p.size, { min: 1, max: LIMITS.v1Kline.max }),
      };
      return this.call({ endpoint: "v1PairKline", version: "v1", method: "GET", path, query, schema: openPayload });
    });
  }

  v1PairTxs(p: V1SizeParams): Promise<OpenPayload> {
    return this.run("v1PairTxs", (c) => {
      const path = `/api/v1/pairs/${seg(c.text("pair", p.pair))}/tx`;
      const query = { size: c.int("size", p.size, { min: 1, max: LIMITS.v1Txs.max }) };
      return this.call({ endpoint: "v1PairTxs", version: "v1", method: "GET", path, query, schema: openPayload });
    });
  }

  v1PairLiquidity(p: V1SizeParams): Promise<OpenPayload> {
    return this.run("v1PairLiquidity", (c) => {
      const path = `/api/v1/pairs/${seg(c.text("pair", p.pair))}/liq`;
      const query = { size: c.int("size", p.size, { min: 1, max: LIMITS.v1Liquidity.max }) };
      return this.call({ endpoint: "v1PairLiquidity", version: "v1", method: "GET", path, query, schema: openPayload });
    });
  }

  v1AmmPairs(p: V1AmmParams): Promise<OpenPayload> {
    return this.run("v1AmmPairs", (c) => {
      const path = `/api/v1/amm/${seg(c.text("amm", p.amm))}-${seg(c.text("chain", p.chain))}`;
      const query = {
        offset: c.int("offset", p.offset, { min: 0 }),
        limit: c.int("limit", p.limit, { min: 1, max: LIMITS.v1Amm.max }),
        sort: c.oneOf("sort", p.sort, AMM_SORT),
        direction: c.oneOf("direction", p.direction, AMM_DIRECTION),
      };
      return this.call({ endpoint: "v1AmmPairs", version: "v1", method: "GET", path, query, schema: openPayload });
    });
  }

  v1ContractCheck(p: V1ContractCheckParams): Promise<OpenPayload> {
    return this.run("v1ContractCheck", (c) => {
      const chain = c.requiredOneOf("chain", p.chain, CONTRACT_CHECK_CHAINS);
      const path = `/api/v1/contract_check/${seg(chain)}/${seg(c.text("contract", p.contract))}`;
      return this.call({ endpoint: "v1ContractCheck", version: "v1", method: "GET", path, schema: openPayload });
    });
  }
}
