/**
 * The one place that turns a `TokenInput` into a token id `<address>-<chain>`, asking the
 * (cached) market where the input alone cannot say: which chain an address lives on, which
 * token a symbol means, which token a pool trades.
 */
import type { CachedMarket } from "../../cache/types.js";
import { isMarketError } from "../../market/errors.js";
import {
  type ChainFamily, chainFamily, isAddressFor, joinId, normalizeAddress, splitId,
} from "../../market/ids.js";
import type { TokenV2 } from "../../market/schemas.js";
import { UserError } from "../errors.js";
import { cleanText, shortAddress } from "../format/text.js";
import { rankByLiquidity } from "./rank.js";
import type { Resolution, TokenInput } from "./types.js";

/** Options of `resolveToken`. */
export interface ResolveOptions {
  /** The chat's default chain: searches for a symbol look there first, then everywhere. Default none. */
  defaultChain?: string;
  /** Rows asked of the search endpoint. Default 50, at most 300 (the endpoint's limit). */
  searchLimit?: number;
}

const ALTERNATIVES = 5;
const FAMILY_NAMES: Readonly<Record<ChainFamily, string>> = { evm: "an EVM", solana: "a Solana", tron: "a Tron" };

/**
 * Resolves what was typed to one token id: an id as is (after checking its chain and address
 * format), an address by searching for it (the most liquid chain wins when it lives on several),
 * a symbol or name by searching (exact symbol/name matches first, then main-pair TVL, then 24h
 * volume). Throws `UserError` with one sentence naming what was typed when nothing fits;
 * market failures reject as `MarketError`.
 */
export async function resolveToken(
  market: CachedMarket,
  input: TokenInput,
  opts: ResolveOptions = {},
): Promise<Resolution> {
  const limit = Math.min(Math.max(1, opts.searchLimit ?? 50), 300);
  switch (input.kind) {
    case "malformed":
      throw new UserError(input.reason);
    case "id":
      return resolveId(market, input.address, input.chain, { isPair: input.isPair === true, limit });
    case "address":
      return resolveAddress(market, input.address, input.families, { defaultChain: opts.defaultChain, limit });
    case "query":
      return resolveQuery(market, input.text, { chain: input.chain, defaultChain: opts.defaultChain, limit });
  }
}

async function resolveId(
  market: CachedMarket,
  address: string,
  typedChain: string,
  opts: { isPair: boolean; limit: number },
): Promise<Resolution> {
  const chain = await knownChainOrThrow(market, typedChain);
  if (!isAddressFor(address, chain)) {
    throw new UserError(`${shortAddress(address)} is not ${FAMILY_NAMES[chainFamily(chain)]} address, so it can't be on ${chain}.`);
  }
  if (!opts.isPair) return single(address, chain);
  // A pool link may name the token itself (dexscreener takes both): look for the token first.
  const found = await searchAddress(market, address, [chainFamily(chain)], { chain, limit: opts.limit });
  if (found.length > 0) return pick(found, found.length);
  const target = await pairTarget(market, address, chain);
  if (target === undefined) {
    throw new UserError(`No token or pair found at ${shortAddress(address)} on ${chain}.`);
  }
  return target;
}

async function knownChainOrThrow(market: CachedMarket, chain: string): Promise<string> {
  const names = (await market.supportedChains()).data.map((c) => c.chain);
  const known = names.find((n) => n.toLowerCase() === chain.toLowerCase());
  if (known !== undefined) return known;
  const list = names.slice(0, 12).join(", ");
  throw new UserError(`"${cleanText(chain, 32)}" is not a chain I know. Try one of: ${list}.`);
}

function single(address: string, chain: string): Resolution {
  const normalized = normalizeAddress(address, chain);
  return { tokenId: joinId(normalized, chain), chain, address: normalized, alternatives: [], totalMatches: 1 };
}

function pick(ranked: TokenV2[], totalMatches: number): Resolution {
  const [best, ...rest] = ranked as [TokenV2, ...TokenV2[]];
  const address = normalizeAddress(best.token, best.chain);
  return {
    tokenId: joinId(address, best.chain),
    chain: best.chain,
    address,
    token: best,
    alternatives: rest.slice(0, ALTERNATIVES),
    totalMatches,
  };
}

/** Search rows whose address is `address` on a chain of one of `families`, most liquid first. */
async function searchAddress(
  market: CachedMarket,
  address: string,
  families: readonly ChainFamily[],
  opts: { chain?: string; limit: number },
): Promise<TokenV2[]> {
  const rows = (await market.search({ keyword: address, chain: opts.chain, limit: opts.limit })).data;
  const matches = usable(rows).filter(
    (t) =>
      families.includes(chainFamily(t.chain)) &&
      normalizeAddress(t.token, t.chain) === normalizeAddress(address, t.chain),
  );
  return rankByLiquidity(matches);
}

/** The token a pool trades, from its K-line's `target_token_id`; undefined when there is no such pool. */
export async function pairTarget(market: CachedMarket, pair: string, chain: string): Promise<Resolution | undefined> {
  try {
    const kline = await market.pairKline({ pairId: joinId(pair, chain), interval: 1440, limit: 1 });
    const target = splitId(kline.data.target_token_id ?? "");
    if (target === null || !isAddressFor(target.address, target.chain)) return undefined;
    return single(target.address, target.chain);
  } catch (e) {
    if (isMarketError(e) && (e.kind === "not_found" || e.kind === "bad_request")) return undefined;
    throw e;
  }
}

async function resolveAddress(
  market: CachedMarket,
  address: string,
  families: readonly ChainFamily[],
  opts: { defaultChain?: string; limit: number },
): Promise<Resolution> {
  const found = await searchAddress(market, address, families, { limit: opts.limit });
  if (found.length > 0) return pick(found, found.length);
  // Not a token anywhere: perhaps a pool, on the one chain its format allows or the chat's default.
  const chain = families.includes("solana") ? "solana"
    : families.includes("tron") ? "tron"
    : opts.defaultChain !== undefined && isAddressFor(address, opts.defaultChain) ? opts.defaultChain
    : undefined;
  const target = chain === undefined ? undefined : await pairTarget(market, address, chain);
  if (target === undefined) throw new UserError(`No token found at ${shortAddress(address)}.`);
  return target;
}

async function resolveQuery(
  market: CachedMarket,
  text: string,
  opts: { chain?: string; defaultChain?: string; limit: number },
): Promise<Resolution> {
  const keyword = text.trim();
  const shown = cleanText(keyword, 40);
  if (keyword === "") throw new UserError("Send a token symbol, name, address or link.");
  const chain = opts.chain === undefined ? undefined : await knownChainOrThrow(market, opts.chain);
  const wanted = keyword.toLowerCase();
  const isExact = (t: TokenV2) => t.symbol?.trim().toLowerCase() === wanted || t.name?.trim().toLowerCase() === wanted;
  const search = async (on: string | undefined) =>
    usable((await market.search({ keyword, chain: on, limit: opts.limit })).data);
  let rows = await search(chain ?? opts.defaultChain);
  // The chat's default chain is a preference, not a filter: an exact match elsewhere beats a
  // partial one there.
  if (chain === undefined && opts.defaultChain !== undefined && !rows.some(isExact)) {
    const everywhere = await search(undefined);
    if (rows.length === 0 || everywhere.some(isExact)) rows = everywhere;
  }
  if (rows.length === 0) {
    throw new UserError(`No token matches "${shown}"${chain === undefined ? "" : ` on ${chain}`}.`);
  }
  // Tokens that merely contain the word (LODRAPEPE for pepe) are no alternative to an exact match.
  const exact = rows.filter(isExact);
  const candidates = exact.length > 0 ? exact : rows;
  return pick(rankByLiquidity(candidates), candidates.length);
}

/**
 * Rows that can become a button: an address that fits its chain (hostile records carry
 * anything), each token once (repeated rows happen).
 */
function usable(rows: readonly TokenV2[]): TokenV2[] {
  const seen = new Set<string>();
  return rows.filter((t) => {
    if (t.chain === "" || !isAddressFor(t.token, t.chain)) return false;
    const id = joinId(t.token, t.chain);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
