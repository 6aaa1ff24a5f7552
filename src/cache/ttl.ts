import type { MarketApi } from "../market/api.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * How long each kind of lookup stays fresh, in ms: prices seconds, detail and lists tens of
 * seconds, risk and holders minutes, chains and topics hours. Prices move fastest and cost
 * the most compute units (100 a batch), so their TTL is the one to tune first; a card's
 * market cap, pairs and holders barely move in a minute, and it says when it is from.
 */
export const DEFAULT_TTL: Readonly<Record<keyof MarketApi, number>> = {
  batchPrices: 10 * SECOND,
  swaps: 15 * SECOND,
  v1PairTxs: 15 * SECOND,
  tokenDetail: 60 * SECOND,
  v1Token: 60 * SECOND,
  search: 60 * SECOND,
  v1Search: 60 * SECOND,
  trending: 60 * SECOND,
  rankList: 60 * SECOND,
  pairKline: 60 * SECOND,
  tokenKline: 60 * SECOND,
  v1PairKline: 60 * SECOND,
  v1PairLiquidity: 60 * SECOND,
  topHolders: 5 * MINUTE,
  v1Pairs: 5 * MINUTE,
  v1AmmPairs: 5 * MINUTE,
  riskReport: 10 * MINUTE,
  v1ContractCheck: 10 * MINUTE,
  mainTokens: HOUR,
  rankTopics: 6 * HOUR,
  supportedChains: 6 * HOUR,
};

/** Candles at least this long (minutes) change little in a minute: their K-line stays fresh longer. */
export const LONG_CANDLE_MINUTES = 15;
/** How long a K-line of long candles stays fresh: the token card's 24 h chart (15-minute candles) reads it. */
export const LONG_CANDLE_TTL_MS = 2 * MINUTE;

/**
 * How long an answer of `method` stays fresh: its TTL, or for a K-line of candles of 15 minutes
 * or more (the payload says its interval) at least `LONG_CANDLE_TTL_MS`.
 */
export function freshMsOf(method: keyof MarketApi, data: unknown, ttl: number): number {
  if (method !== "tokenKline" && method !== "pairKline") return ttl;
  const interval = (data as { interval?: unknown } | null)?.interval;
  return typeof interval === "number" && interval >= LONG_CANDLE_MINUTES ? Math.max(ttl, LONG_CANDLE_TTL_MS) : ttl;
}

/** How long a "not found" answer is remembered, so garbage input cannot hammer the service. */
export const DEFAULT_NOT_FOUND_TTL_MS = 30 * SECOND;

/**
 * The oldest answer of each kind still worth showing, labelled with its age, when the service
 * is slow, busy or out of quota: prices minutes, lists an hour, details and risk hours, chains
 * and topics days. Past it, the person reads one sentence instead.
 */
export const MAX_STALE: Readonly<Record<keyof MarketApi, number>> = {
  batchPrices: 15 * MINUTE,
  swaps: 15 * MINUTE,
  v1PairTxs: 15 * MINUTE,
  pairKline: 30 * MINUTE,
  tokenKline: 30 * MINUTE,
  v1PairKline: 30 * MINUTE,
  trending: HOUR,
  rankList: HOUR,
  v1PairLiquidity: HOUR,
  tokenDetail: 6 * HOUR,
  v1Token: 6 * HOUR,
  search: 6 * HOUR,
  v1Search: 6 * HOUR,
  topHolders: 6 * HOUR,
  v1Pairs: 6 * HOUR,
  v1AmmPairs: 6 * HOUR,
  riskReport: 24 * HOUR,
  v1ContractCheck: 24 * HOUR,
  mainTokens: 24 * HOUR,
  rankTopics: 7 * 24 * HOUR,
  supportedChains: 7 * 24 * HOUR,
};
