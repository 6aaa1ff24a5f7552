/**
 * How far a trade would move a pool's price, estimated from its reserves as a constant-product
 * pool (x·y = k, no fee). An estimate only: the service does not say which curve a pool uses,
 * and routers split trades across pools.
 */
import type { PairV2 } from "../../market/schemas.js";
import { pairLiquidity } from "./token.js";

/** Above this share of the main pair's liquidity a conversion shows its estimated impact. */
export const IMPACT_FROM_SHARE = 0.01;

/** One side of a trade through a token's main pair. */
export interface ImpactLeg {
  pair: PairV2;
  /** The share of the pool's price the trade gives up: 0.032 is 3.2 %. */
  impact: number;
}

function positive(v: string | undefined): number | undefined {
  const n = v === undefined || v.trim() === "" ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * The average-price impact of putting `amountIn` of a token into a constant-product pool whose
 * reserve of that token is `reserveIn`: the trade receives `reserveOut·a/(reserveIn+a)`, so its
 * average price is `reserveIn/(reserveIn+a)` of the mid price, and it gives up `a/(reserveIn+a)`.
 */
export function constantProductImpact(amountIn: number, reserveIn: number): number {
  return amountIn / (reserveIn + amountIn);
}

/** Which side of `pair` holds `token` (addresses compared case-insensitively, as EVM ids are). */
function sideOf(pair: PairV2, token: string): 0 | 1 | undefined {
  const t = token.toLowerCase();
  if (pair.token0_address?.toLowerCase() === t) return 0;
  if (pair.token1_address?.toLowerCase() === t) return 1;
  return undefined;
}

/**
 * The estimated impact of a trade worth `usd` through `token`'s main `pair`, when it is worth
 * more than 1 % of the pair's liquidity: `selling` puts the token in (its own reserve takes the
 * trade), buying puts the other token in. Undefined below that share, or when the pair's
 * reserves, prices or sides are missing: the data then cannot tell.
 */
export function impactOf(pair: PairV2 | undefined, token: string, usd: number, selling: boolean): ImpactLeg | undefined {
  if (pair === undefined) return undefined;
  const liquidity = positive(pairLiquidity(pair));
  if (liquidity === undefined || usd <= liquidity * IMPACT_FROM_SHARE) return undefined;
  const side = sideOf(pair, token);
  if (side === undefined) return undefined;
  const inSide = selling ? side : side === 0 ? 1 : 0;
  const reserveIn = positive(inSide === 0 ? pair.reserve0 : pair.reserve1);
  const priceIn = positive(inSide === 0 ? pair.token0_price_usd : pair.token1_price_usd);
  if (reserveIn === undefined || priceIn === undefined) return undefined;
  return { pair, impact: constantProductImpact(usd / priceIn, reserveIn) };
}
