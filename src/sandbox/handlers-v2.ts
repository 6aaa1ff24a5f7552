/** The v2 endpoints (market-api.md, Version 2) with the edge answers of service-notes.md. */
import {
  KLINE_CATEGORIES, KLINE_INTERVALS_V2, LIMITS, RANK_TOPICS, SEARCH_ORDERBY, SWAP_SORT,
} from "../market/limits.js";
import { CHAINS } from "./chains.js";
import { topHolders } from "./holders.js";
import { badParam, chainParam, choiceParam, idParam, intParam, notFound } from "./params.js";
import { rankTopics } from "./ranks.js";
import { chainRecord, pairRecord, priceEntry, tokenRecord } from "./records.js";
import { riskReport } from "./risk.js";
import { klinePoints, swapTxs } from "./series.js";
import type { Endpoint, RequestCtx } from "./endpoint.js";
import type { SandboxPair, SandboxToken } from "./types.js";

function tokenOf(ctx: RequestCtx, id: string): SandboxToken {
  idParam(id, "token_id");
  const token = ctx.market.token(id);
  if (!token || token.launchAt > ctx.now) throw notFound();
  return token;
}

function pairOf(ctx: RequestCtx, id: string): SandboxPair {
  idParam(id, "pair_id");
  const pair = ctx.market.pair(id);
  if (!pair || pair.createdAt > ctx.now) throw notFound();
  return pair;
}

function timeParams(ctx: RequestCtx): { fromTime: number; toTime: number } {
  return {
    fromTime: intParam(ctx.query, "from_time", { default: -1, min: -1 }),
    toTime: intParam(ctx.query, "to_time", { default: ctx.now, min: 0 }),
  };
}

/** The asked limit, and how many points to send: the service was seen sending one more (quirks). */
function klineLimit(ctx: RequestCtx): { limit: number; points: number } {
  const limit = intParam(ctx.query, "limit", { default: LIMITS.kline.default, min: 1, max: LIMITS.kline.max });
  return { limit, points: ctx.quirks ? limit + 1 : limit };
}

function klineInterval(ctx: RequestCtx): number {
  const interval = intParam(ctx.query, "interval", { min: 1 });
  if (!(KLINE_INTERVALS_V2 as readonly number[]).includes(interval)) throw badParam("interval");
  return interval;
}

function batchBody(body: unknown): { ids: string[]; tvlMin: number; volMin: number } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badParam("body");
  const b = body as Record<string, unknown>;
  const ids = b.token_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x): x is string => typeof x === "string")) throw badParam("token_ids");
  if (ids.length > LIMITS.batchPrices.maxIds) throw badParam("token_ids");
  const threshold = (name: string, fallback: number): number => {
    const v = b[name];
    if (v === undefined) return fallback;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw badParam(name);
    return v;
  };
  return {
    ids,
    tvlMin: threshold("tvl_min", LIMITS.batchPrices.tvlMinDefault),
    volMin: threshold("tx_24h_volume_min", LIMITS.batchPrices.txVolumeMinDefault),
  };
}

/** Every v2 endpoint, static paths before parameterised ones. */
export const V2_ENDPOINTS: readonly Endpoint[] = [
  {
    name: "search", method: "GET", version: 2, path: "/v2/tokens",
    handle(ctx) {
      const keyword = (ctx.query.get("keyword") ?? "").trim();
      if (keyword === "") throw badParam("keyword");
      const chain = chainParam(ctx.query, "chain", { optional: true });
      const limit = intParam(ctx.query, "limit", { default: LIMITS.search.default, min: 1, max: LIMITS.search.max });
      const orderby = ctx.query.has("orderby") ? choiceParam(ctx.query, "orderby", SEARCH_ORDERBY) : undefined;
      return ctx.rankings
        .search(keyword, ctx.now, { chain, orderby })
        .slice(0, limit)
        .map((t) => tokenRecord(ctx.market, t, ctx.now, "list", ctx.quirks));
    },
  },
  {
    name: "batchPrices", method: "POST", version: 2, path: "/v2/tokens/price",
    handle(ctx) {
      const { ids, tvlMin, volMin } = batchBody(ctx.body);
      for (const id of ids) idParam(id, "token_ids");
      const out: Record<string, unknown> = {};
      for (const id of ids) {
        const token = ctx.market.token(id);
        if (!token || token.launchAt > ctx.now) continue;
        const s = ctx.market.snapshot(token, ctx.now);
        if ((tvlMin > 0 && token.liquidity < tvlMin) || (volMin > 0 && s.windows["24h"].volume < volMin)) continue;
        out[token.id] = priceEntry(ctx.market, token, ctx.now, ctx.quirks);
      }
      return out;
    },
  },
  { name: "rankTopics", method: "GET", version: 2, path: "/v2/ranks/topics", handle: () => rankTopics() },
  {
    name: "rankList", method: "GET", version: 2, path: "/v2/ranks",
    handle(ctx) {
      const topic = choiceParam(ctx.query, "topic", RANK_TOPICS);
      const limit = intParam(ctx.query, "limit", { default: LIMITS.rankList.default, min: 1, max: LIMITS.rankList.max });
      return ctx.rankings.rankList(topic, ctx.now).slice(0, limit).map((t) => tokenRecord(ctx.market, t, ctx.now, "list", ctx.quirks));
    },
  },
  {
    name: "mainTokens", method: "GET", version: 2, path: "/v2/tokens/main",
    handle(ctx) {
      const chain = chainParam(ctx.query, "chain");
      return ctx.market.mainTokens(chain).map((t) => tokenRecord(ctx.market, t, ctx.now, "list", ctx.quirks));
    },
  },
  {
    name: "trending", method: "GET", version: 2, path: "/v2/tokens/trending",
    handle(ctx) {
      const chain = chainParam(ctx.query, "chain");
      const page = intParam(ctx.query, "current_page", { default: 0, min: 0 });
      const size = intParam(ctx.query, "page_size", { default: LIMITS.trending.pageSizeDefault, min: 1, max: LIMITS.trending.pageSizeMax });
      const all = ctx.rankings.trending(chain, ctx.now);
      const tokens = all.slice(page * size, page * size + size).map((t) => tokenRecord(ctx.market, t, ctx.now, "trending", ctx.quirks));
      return { current_page_size: tokens.length, next_page: page + 1, tokens, total: all.length };
    },
  },
  {
    name: "topHolders", method: "GET", version: 2, path: "/v2/tokens/top100/:id",
    handle(ctx) {
      const token = tokenOf(ctx, ctx.params.id ?? "");
      const limit = intParam(ctx.query, "limit", { default: LIMITS.topHolders.default, min: 1, max: LIMITS.topHolders.max });
      // The service always answers 100 on bsc and solana, whatever the limit.
      const n = token.chain === "bsc" || token.chain === "solana" ? LIMITS.topHolders.max : limit;
      return topHolders(ctx.market, token, n, ctx.now);
    },
  },
  {
    name: "tokenDetail", method: "GET", version: 2, path: "/v2/tokens/:id",
    handle(ctx) {
      const token = tokenOf(ctx, ctx.params.id ?? "");
      return {
        token: tokenRecord(ctx.market, token, ctx.now, "detail", ctx.quirks),
        pairs: token.pairs.filter((p) => p.createdAt <= ctx.now).map((p) => pairRecord(ctx.market, p, ctx.now, ctx.quirks)),
        is_audited: token.listed,
      };
    },
  },
  {
    name: "pairKline", method: "GET", version: 2, path: "/v2/klines/pair/:id",
    handle(ctx) {
      const pair = pairOf(ctx, ctx.params.id ?? "");
      const category = choiceParam(ctx.query, "category", KLINE_CATEGORIES, "u");
      const interval = klineInterval(ctx);
      const { limit, points: count } = klineLimit(ctx);
      const { fromTime, toTime } = timeParams(ctx);
      const points = klinePoints(ctx.market, pair.target, pair, { interval, limit: count, fromTime, toTime, category }, ctx.now);
      return { points, total_count: points.length, to_time: toTime, limit, interval, pair_id: pair.id, target_token_id: pair.target.id };
    },
  },
  {
    name: "tokenKline", method: "GET", version: 2, path: "/v2/klines/token/:id",
    handle(ctx) {
      const token = tokenOf(ctx, ctx.params.id ?? "");
      const interval = klineInterval(ctx);
      const { limit, points: count } = klineLimit(ctx);
      const { fromTime, toTime } = timeParams(ctx);
      const points = klinePoints(ctx.market, token, undefined, { interval, limit: count, fromTime, toTime, category: "u" }, ctx.now);
      return { points, total_count: points.length, to_time: toTime, limit, interval, pair_id: token.pairs[0]?.id ?? "", target_token_id: token.id };
    },
  },
  {
    name: "swaps", method: "GET", version: 2, path: "/v2/txs/:id",
    handle(ctx) {
      const pair = pairOf(ctx, ctx.params.id ?? "");
      const limit = intParam(ctx.query, "limit", { default: LIMITS.swaps.default, min: 1, max: LIMITS.swaps.max });
      const sort = choiceParam(ctx.query, "sort", SWAP_SORT, "asc");
      const { fromTime, toTime } = timeParams(ctx);
      const txs = swapTxs(pair, { limit, fromTime, toTime, sort }, ctx.now, ctx.market.placed);
      return { txs, total_count: txs.length, limit, to_time: toTime, pair_id: pair.id };
    },
  },
  { name: "supportedChains", method: "GET", version: 2, path: "/v2/supported_chains", handle: () => CHAINS.map(chainRecord) },
  {
    name: "riskReport", method: "GET", version: 2, path: "/v2/contracts/:id",
    handle(ctx) {
      return riskReport(tokenOf(ctx, ctx.params.id ?? ""));
    },
  },
];
