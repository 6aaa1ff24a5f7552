/**
 * What the adapter tests of /convert check their figures against: the sandbox service's own
 * answer for the token (the sandbox's clock stands still, so it is the answer the core read),
 * and the constant-product impact worked out here from that answer's reserves, independently
 * of the core's code.
 */
import { MarketClient } from "../../src/market/client.js";
import type { PairV2, TokenDetail } from "../../src/market/schemas.js";
import type { Sandbox, SandboxToken } from "../../src/sandbox/index.js";

export interface ServiceAnswer {
  price: number;
  /** The token's main pair, as the card and /convert pick it. */
  pair: PairV2;
  /** The pair's liquidity in USD: both reserves at their prices. */
  liquidity: number;
  /** The pair's reserve of the token, and of the token it trades against with its price. */
  ownReserve: number;
  otherReserve: number;
  otherPrice: number;
}

/** The token detail the sandbox serves for `id`, asked outside the core (it costs the sandbox 5 units). */
export async function serviceAnswer(sandbox: Sandbox, token: SandboxToken): Promise<ServiceAnswer> {
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 },
    timeoutMs: 20_000,
  });
  try {
    const d: TokenDetail = await client.tokenDetail(token.id);
    const pair = (d.pairs.find((p) => p.pair === d.token.main_pair) ?? d.pairs.find((p) => p.is_fake !== true)) as PairV2;
    const own = pair.token0_address?.toLowerCase() === token.address.toLowerCase() ? 0 : 1;
    const r = [Number(pair.reserve0), Number(pair.reserve1)];
    const p = [Number(pair.token0_price_usd), Number(pair.token1_price_usd)];
    return {
      price: Number(d.token.current_price_usd),
      pair,
      liquidity: (r[0] as number) * (p[0] as number) + (r[1] as number) * (p[1] as number),
      ownReserve: r[own] as number,
      otherReserve: r[1 - own] as number,
      otherPrice: p[1 - own] as number,
    };
  } finally {
    await client.close();
  }
}

/** An established eth token whose pools are thin, so that a few thousand dollars move its price. */
export function thinToken(sandbox: Sandbox, nowMs: number): SandboxToken {
  const found = sandbox.market.tokens.find(
    (t) => t.chain === "eth" && !t.main && t.hostile === undefined && t.launchAt < nowMs / 1000 - 86_400 && t.liquidity > 20_000 && t.liquidity < 200_000,
  );
  if (found === undefined) throw new Error("the sandbox has no thin token on eth");
  return found;
}

/** x·y = k without fees: putting `a` into a reserve `x` gets an average price `a/(x+a)` below the mid. */
export function expectedImpact(amountIn: number, reserveIn: number): number {
  return amountIn / (reserveIn + amountIn);
}
