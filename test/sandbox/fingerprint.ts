/**
 * A digest of everything a market holds and of a sample of what the sandbox serves, so that
 * work on how the market is built (for speed) can prove it changed no byte of the market.
 */
import { createHash } from "node:crypto";
import type { Sandbox, SandboxPair, SandboxToken } from "../../src/sandbox/index.js";

/** Every field of a token in a fixed order, objects it points to by id. */
function tokenFields(t: SandboxToken): unknown[] {
  return [
    t.id, t.address, t.chain, t.chainDef.chain, t.symbol, t.name, t.decimals, t.supply, t.circulating, t.basePrice,
    t.volatility, t.volumeRate, t.tradeSize, t.liquidity, t.launchAt, t.key, t.priceKey, t.main, t.stable, t.tags,
    t.risk, t.listed, t.holders, t.holdersHidden, t.topShare, t.pairs.map((p) => p.id), t.hostile?.id ?? null,
  ];
}

function pairFields(p: SandboxPair): unknown[] {
  return [p.id, p.address, p.chain, p.amm, p.target.id, p.quote.id, p.liquidity, p.share, p.spread, p.createdAt, p.fee, p.isFake, p.key];
}

/** SHA-256 of every token and pair of `sb`'s market, in build order. */
export function marketDigest(sb: Sandbox): string {
  const hash = createHash("sha256");
  for (const t of sb.market.tokens) hash.update(JSON.stringify(tokenFields(t)));
  for (const p of sb.market.pairs) hash.update(JSON.stringify(pairFields(p)));
  return hash.digest("hex");
}

/** SHA-256 of the bodies the sandbox serves for a spread of endpoints and tokens. */
export async function servedDigest(sb: Sandbox): Promise<string> {
  const tokens = sb.market.tokens;
  const sample = [0, 7, 40, 300, 1_000, 2_399, tokens.length - 1].map((i) => tokens[i] as SandboxToken);
  const paths = ["/v2/ranks?topic=hot", "/v2/tokens?keyword=inu&limit=300", "/v2/tokens/trending?chain=solana&page_size=100"];
  for (const t of sample) {
    paths.push(`/v2/tokens/${t.id}`, `/v2/klines/token/${t.id}?interval=60&limit=200`, `/v2/tokens/top100/${t.id}`, `/v2/contracts/${t.id}`);
    const pair = t.pairs[0];
    if (pair) paths.push(`/v2/txs/${pair.id}?limit=100`);
  }
  const hash = createHash("sha256");
  for (const path of paths) {
    const res = await fetch(sb.url + path, { headers: { "X-API-KEY": sb.v2Key } });
    hash.update(`${path}\n${res.status}\n${await res.text()}\n`);
  }
  return hash.digest("hex");
}
