/**
 * Parameter sets and limits from market-api.md and service-notes.md, shared by the client
 * (checks before a request leaves) and the sandbox (refuses what the service refuses).
 */

/** v2 K-line intervals, minutes. */
export const KLINE_INTERVALS_V2 = [1, 5, 15, 30, 60, 120, 240, 1440, 4320, 10080, 43200, 525600, 2628000] as const;
/** v1 K-line intervals, minutes. */
export const KLINE_INTERVALS_V1 = [1, 5, 15, 60, 240, 1440, 10080] as const;
/** v2 K-line `category`: u = USD, r = relative to base token, m = relative to main token. */
export const KLINE_CATEGORIES = ["u", "r", "m"] as const;
export const SEARCH_ORDERBY = ["tx_volume_u_24h", "main_pair_tvl", "fdv", "market_cap"] as const;
export const SWAP_SORT = ["asc", "desc"] as const;
export const AMM_SORT = ["pool_size", "time", "txcount", "volume"] as const;
export const AMM_DIRECTION = ["asc", "desc"] as const;
/** The 20 rank topic ids of the spec. */
export const RANK_TOPICS = [
  "hot", "meme", "gainer", "solana", "new", "bsc", "loser", "eth", "base", "depin",
  "ai", "l2", "gamefi", "rwa", "arbitrum", "blast", "polygon", "optimism", "avalanche", "merlin",
] as const;
/** Chains the v1 contract check supports. */
export const CONTRACT_CHECK_CHAINS = ["bsc", "eth", "arbitrum", "core"] as const;

export type KlineIntervalV2 = (typeof KLINE_INTERVALS_V2)[number];
export type KlineIntervalV1 = (typeof KLINE_INTERVALS_V1)[number];
export type KlineCategory = (typeof KLINE_CATEGORIES)[number];
export type SearchOrderBy = (typeof SEARCH_ORDERBY)[number];
export type SortDirection = (typeof SWAP_SORT)[number];
export type AmmSort = (typeof AMM_SORT)[number];
export type RankTopicId = (typeof RANK_TOPICS)[number];
export type ContractCheckChain = (typeof CONTRACT_CHECK_CHAINS)[number];

/** Defaults and maxima. `max` of 0 means the spec gives none. */
export const LIMITS = {
  search: { default: 100, max: 300 },
  batchPrices: { maxIds: 200, tvlMinDefault: 1000, txVolumeMinDefault: 0 },
  rankList: { default: 200, max: 300 },
  kline: { default: 300, max: 1000 },
  topHolders: { default: 100, max: 100 },
  swaps: { default: 100, max: 300 },
  trending: { pageSizeDefault: 50, pageSizeMax: 100 },
  v1Kline: { default: 600, max: 1000, intervalDefault: 1 },
  v1Txs: { default: 200, max: 500 },
  v1Liquidity: { default: 200, max: 500 },
  v1Amm: { default: 200, max: 500 },
  v1PairsOfToken: { max: 10 },
} as const;

/** Compute units a call costs (service-notes.md: documented for K-line, reported for the rest). */
export const COMPUTE_UNITS: Record<string, number> = {
  search: 5,
  tokenDetail: 5,
  trending: 5,
  topHolders: 10,
  riskReport: 10,
  batchPrices: 100,
  swaps: 50,
  pairKline: 10,
  tokenKline: 10,
};
