/**
 * The v1 endpoints (market-api.md, Version 1). Only the token record is specified; the other
 * payloads mirror the v2 shapes as service-notes.md says (v1 and keys).
 */
import {
  AMM_DIRECTION, AMM_SORT, CONTRACT_CHECK_CHAINS, KLINE_INTERVALS_V1, LIMITS,
} from "../market/limits.js";
import { normalizeAddress } from "../market/ids.js";
import { chainDef } from "./chains.js";
import { badParam, choiceParam, idParam, intParam, notFound, unsupportedChain } from "./params.js";
import { pairRecord, tokenRecordV1 } from "./records.js";
import { riskReport } from "./risk.js";
import { klinePoints, liquidityEvents, swapTxs } from "./series.js";
import type { Endpoint, RequestCtx } from "./endpoint.js";
import type { SandboxPair } from "./types.js";

/** v1 search answers at most this many records (the spec gives no limit). */
const V1_SEARCH_MAX = 100;

/** v1 pair paths carry the address alone: the pair at that address on any chain. */
function pairAt(ctx: RequestCtx): SandboxPair {
  const pair = ctx.market.pairsAt(ctx.params.pair ?? "").find((p) => p.createdAt <= ctx.now);
  if (!pair) throw notFound();
  return pair;
}

/** Every v1 endpoint, static paths before parameterised ones. */
export const V1_ENDPOINTS: readonly Endpoint[] = [
  {
    name: "v1Search", method: "GET", version: 1, path: "/api/v1/tokens",
    handle(ctx) {
      const keyword = (ctx.query.get("keyword") ?? "").trim();
      if (keyword === "") throw badParam("keyword");
      return ctx.rankings.search(keyword, ctx.now, {}).slice(0, V1_SEARCH_MAX).map((t) => tokenRecordV1(ctx.market, t, ctx.now, ctx.quirks));
    },
  },
  {
    name: "v1Pairs", method: "GET", version: 1, path: "/api/v1/tokens/:token/pairs",
    handle(ctx) {
      const tokens = ctx.market.tokensAt(ctx.params.token ?? "").filter((t) => t.launchAt <= ctx.now);
      if (tokens.length === 0) throw notFound();
      return tokens
        .flatMap((t) => t.pairs)
        .filter((p) => p.createdAt <= ctx.now)
        .slice(0, LIMITS.v1PairsOfToken.max)
        .map((p) => pairRecord(ctx.market, p, ctx.now, ctx.quirks));
    },
  },
  {
    name: "v1Token", method: "GET", version: 1, path: "/api/v1/tokens/:id",
    handle(ctx) {
      const id = ctx.params.id ?? "";
      idParam(id, "token");
      const token = ctx.market.token(id);
      if (!token || token.launchAt > ctx.now) throw notFound();
      return tokenRecordV1(ctx.market, token, ctx.now, ctx.quirks);
    },
  },
  {
    name: "v1PairKline", method: "GET", version: 1, path: "/api/v1/pairs/:pair/kline",
    handle(ctx) {
      const pair = pairAt(ctx);
      const interval = intParam(ctx.query, "interval", { default: LIMITS.v1Kline.intervalDefault, min: 1 });
      if (!(KLINE_INTERVALS_V1 as readonly number[]).includes(interval)) throw badParam("interval");
      const size = intParam(ctx.query, "size", { default: LIMITS.v1Kline.default, min: 1, max: LIMITS.v1Kline.max });
      const points = klinePoints(ctx.market, pair.target, pair, { interval, limit: size, fromTime: -1, toTime: ctx.now, category: "u" }, ctx.now);
      return { points, total_count: points.length, to_time: ctx.now, limit: size, interval, pair_id: pair.id, target_token_id: pair.target.id };
    },
  },
  {
    name: "v1PairTxs", method: "GET", version: 1, path: "/api/v1/pairs/:pair/tx",
    handle(ctx) {
      const pair = pairAt(ctx);
      const size = intParam(ctx.query, "size", { default: LIMITS.v1Txs.default, min: 1, max: LIMITS.v1Txs.max });
      return swapTxs(pair, { limit: size, fromTime: -1, toTime: ctx.now, sort: "desc" }, ctx.now, ctx.market.placed);
    },
  },
  {
    name: "v1PairLiquidity", method: "GET", version: 1, path: "/api/v1/pairs/:pair/liq",
    handle(ctx) {
      const pair = pairAt(ctx);
      const size = intParam(ctx.query, "size", { default: LIMITS.v1Liquidity.default, min: 1, max: LIMITS.v1Liquidity.max });
      return liquidityEvents(pair, size, ctx.now);
    },
  },
  {
    name: "v1AmmPairs", method: "GET", version: 1, path: "/api/v1/amm/:id",
    handle(ctx) {
      const { address: amm, chain } = idParam(ctx.params.id ?? "", "amm");
      const offset = intParam(ctx.query, "offset", { default: 0, min: 0 });
      const limit = intParam(ctx.query, "limit", { default: LIMITS.v1Amm.default, min: 1, max: LIMITS.v1Amm.max });
      const sort = choiceParam(ctx.query, "sort", AMM_SORT, "volume");
      const direction = choiceParam(ctx.query, "direction", AMM_DIRECTION, "desc");
      if (!chainDef(chain)?.amms.includes(amm)) throw notFound();
      const m = ctx.market;
      const key = (p: SandboxPair): number => {
        if (sort === "pool_size") return p.liquidity;
        if (sort === "time") return p.createdAt;
        const day = m.snapshot(p.target, ctx.now).windows["24h"];
        return sort === "txcount" ? day.txCount * p.share : day.volume * p.share;
      };
      const sign = direction === "asc" ? 1 : -1;
      return m.onChain(chain)
        .flatMap((t) => t.pairs)
        .filter((p) => p.amm === amm && p.createdAt <= ctx.now)
        .sort((a, b) => sign * (key(a) - key(b)))
        .slice(offset, offset + limit)
        .map((p) => pairRecord(m, p, ctx.now, ctx.quirks));
    },
  },
  {
    name: "v1ContractCheck", method: "GET", version: 1, path: "/api/v1/contract_check/:chain/:contract",
    handle(ctx) {
      const chain = ctx.params.chain ?? "";
      if (!(CONTRACT_CHECK_CHAINS as readonly string[]).includes(chain)) throw unsupportedChain();
      const token = ctx.market.token(`${normalizeAddress(ctx.params.contract ?? "", chain)}-${chain}`);
      if (!token || token.launchAt > ctx.now) throw notFound();
      return riskReport(token);
    },
  },
];
