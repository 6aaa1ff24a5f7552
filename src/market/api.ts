/**
 * The data service seen from the bot: one method per endpoint of both versions. Implemented
 * by `MarketClient` (HTTP) and wrapped by the cache. Every method rejects only with
 * `MarketError`.
 */
import type {
  ChainRecord, Holder, Kline, OpenPayload, PriceMap, RankTopic, RiskReport, SwapTxs,
  TokenDetail, TokenV1, TokenV2, TrendingPage,
} from "./schemas.js";
import type {
  AmmSort, ContractCheckChain, KlineCategory, KlineIntervalV1, KlineIntervalV2, RankTopicId,
  SearchOrderBy, SortDirection,
} from "./limits.js";

export interface SearchParams { keyword: string; chain?: string; limit?: number; orderby?: SearchOrderBy }
export interface BatchPricesParams { tokenIds: readonly string[]; tvlMin?: number; txVolume24hMin?: number }
export interface RankListParams { topic: RankTopicId; limit?: number }
export interface PairKlineParams {
  pairId: string; interval: KlineIntervalV2; category?: KlineCategory; limit?: number; fromTime?: number; toTime?: number;
}
export interface TokenKlineParams { tokenId: string; interval: KlineIntervalV2; limit?: number; fromTime?: number; toTime?: number }
export interface TopHoldersParams { tokenId: string; limit?: number }
export interface SwapsParams { pairId: string; limit?: number; fromTime?: number; toTime?: number; sort?: SortDirection }
export interface TrendingParams { chain: string; page?: number; pageSize?: number }
export interface V1KlineParams { pair: string; interval?: KlineIntervalV1; size?: number }
export interface V1SizeParams { pair: string; size?: number }
export interface V1AmmParams {
  amm: string; chain: string; offset?: number; limit?: number; sort?: AmmSort; direction?: SortDirection;
}
export interface V1ContractCheckParams { chain: ContractCheckChain; contract: string }

export interface MarketApi {
  // v2
  /** GET /v2/tokens — limit ≤ 300; keyword not empty. */
  search(p: SearchParams): Promise<TokenV2[]>;
  /** POST /v2/tokens/price — any number of ids, sent in chunks of ≤ 200 and merged. */
  batchPrices(p: BatchPricesParams): Promise<PriceMap>;
  /** GET /v2/ranks/topics */
  rankTopics(): Promise<RankTopic[]>;
  /** GET /v2/ranks — limit ≤ 300. */
  rankList(p: RankListParams): Promise<TokenV2[]>;
  /** GET /v2/tokens/{token_id} */
  tokenDetail(tokenId: string): Promise<TokenDetail>;
  /** GET /v2/klines/pair/{pair_id} — limit ≤ 1000; points trimmed to `limit`. */
  pairKline(p: PairKlineParams): Promise<Kline>;
  /** GET /v2/klines/token/{token_id} */
  tokenKline(p: TokenKlineParams): Promise<Kline>;
  /** GET /v2/tokens/top100/{token_id} — limit ≤ 100. */
  topHolders(p: TopHoldersParams): Promise<Holder[]>;
  /** GET /v2/txs/{pair_id} — limit ≤ 300. */
  swaps(p: SwapsParams): Promise<SwapTxs>;
  /** GET /v2/supported_chains */
  supportedChains(): Promise<ChainRecord[]>;
  /** GET /v2/tokens/main?chain= */
  mainTokens(chain: string): Promise<TokenV2[]>;
  /** GET /v2/tokens/trending — page_size ≤ 100; repeated rows removed. */
  trending(p: TrendingParams): Promise<TrendingPage>;
  /** GET /v2/contracts/{token_id} */
  riskReport(tokenId: string): Promise<RiskReport>;
  // v1
  /** GET /api/v1/tokens/{token}-{chain} */
  v1Token(tokenId: string): Promise<TokenV1>;
  /** GET /api/v1/tokens?keyword= */
  v1Search(keyword: string): Promise<OpenPayload>;
  /** GET /api/v1/tokens/{token}/pairs — at most 10. */
  v1Pairs(token: string): Promise<OpenPayload>;
  /** GET /api/v1/pairs/{pair}/kline — size ≤ 1000. */
  v1PairKline(p: V1KlineParams): Promise<OpenPayload>;
  /** GET /api/v1/pairs/{pair}/tx — size ≤ 500. */
  v1PairTxs(p: V1SizeParams): Promise<OpenPayload>;
  /** GET /api/v1/pairs/{pair}/liq — size ≤ 500. */
  v1PairLiquidity(p: V1SizeParams): Promise<OpenPayload>;
  /** GET /api/v1/amm/{amm}-{chain} — limit ≤ 500. */
  v1AmmPairs(p: V1AmmParams): Promise<OpenPayload>;
  /** GET /api/v1/contract_check/{chain}/{contract} — bsc, eth, arbitrum, core only. */
  v1ContractCheck(p: V1ContractCheckParams): Promise<OpenPayload>;
}
