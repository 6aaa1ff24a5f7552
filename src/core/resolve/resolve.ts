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
import { canonicalId } from "./canonical.js";
import { rankByLiquidity } from "./rank.js";
import type { Resolution, TokenInput } from "./types.js";
import { userError } from "../../i18n/index.js";

/** Options of `resolveToken`. */
export interface ResolveOptions {
  /** The chat's default chain: searches for a symbol look there first, then everywhere. Default none. */
  defaultChain?: string;
  /** Rows asked of the search endpoint. Default 50, at most 300 (the endpoint's limit). */
  searchLimit?: number;
}

const ALTERNATIVES = 5;

/**
 * Resolves what was typed to one token id: an id as is (after checking its chain and address
 * format), an address by searching for it (the most liquid chain wins when it lives on several),
 * a symbol or name by searching: a famous symbol's own contract first (canonical.ts), then
 * exact symbol/name matches by main-pair TVL, then 24h volume. Throws `UserError` with one sentence naming what was typed when nothing fits;
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
      throw new UserError(input.said.key, input.said.args);
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
    throw userError("resolve-wrong-family", { address: shortAddress(address), family: chainFamily(chain), chain });
  }
  if (!opts.isPair) return { ...single(address, chain), chainGiven: true };
  // A pool link may name the token itself (dexscreener takes both): look for the token first.
  const found = await searchAddress(market, address, [chainFamily(chain)], { chain, limit: opts.limit });
  if (found.length > 0) return { ...pick(found, found.length, { picked: "liquidity", matched: "address" }), chainGiven: true };
  const target = await pairTarget(market, address, chain);
  if (target === undefined) {
    throw userError("resolve-nothing-at-on", { address: shortAddress(address), chain });
  }
  return { ...target, chainGiven: true };
}

async function knownChainOrThrow(market: CachedMarket, chain: string): Promise<string> {
  const names = (await market.supportedChains()).data.map((c) => c.chain);
  const known = names.find((n) => n.toLowerCase() === chain.toLowerCase());
  if (known !== undefined) return known;
  const list = names.slice(0, 12).join(", ");
  throw userError("resolve-unknown-chain", { chain: cleanText(chain, 32), list });
}

function single(address: string, chain: string): Resolution {
  const normalized = normalizeAddress(address, chain);
  return { tokenId: joinId(normalized, chain), chain, address: normalized, alternatives: [], totalMatches: 1, picked: "liquidity", matched: "address" };
}

function pick(ranked: TokenV2[], totalMatches: number, how: Pick<Resolution, "picked" | "matched" | "keyword">): Resolution {
  const [best, ...rest] = ranked as [TokenV2, ...TokenV2[]];
  const address = normalizeAddress(best.token, best.chain);
  return {
    tokenId: joinId(address, best.chain),
    chain: best.chain,
    address,
    token: best,
    alternatives: rest.slice(0, ALTERNATIVES),
    totalMatches,
    ...how,
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
  if (found.length > 0) return pick(found, found.length, { picked: "liquidity", matched: "address" });
  // Not a token anywhere: perhaps a pool, on the one chain its format allows or the chat's default.
  const chain = families.includes("solana") ? "solana"
    : families.includes("tron") ? "tron"
    : opts.defaultChain !== undefined && isAddressFor(address, opts.defaultChain) ? opts.defaultChain
    : undefined;
  const target = chain === undefined ? undefined : await pairTarget(market, address, chain);
  if (target === undefined) throw userError("resolve-nothing-at", { address: shortAddress(address) });
  return target;
}

async function resolveQuery(
  market: CachedMarket,
  text: string,
  opts: { chain?: string; defaultChain?: string; limit: number },
): Promise<Resolution> {
  const keyword = text.trim();
  const shown = cleanText(keyword, 40);
  if (keyword === "") throw userError("resolve-empty");
  const chain = opts.chain === undefined ? undefined : await knownChainOrThrow(market, opts.chain);
  const search = async (on: string | undefined) =>
    usable((await market.search({ keyword, chain: on, limit: opts.limit })).data);
  const choose = (rows: TokenV2[], on: string | undefined) => chooseAmong(market, keyword, rows, canonicalId(keyword, on), opts.limit);
  if (chain !== undefined) {
    const found = await choose(await search(chain), chain);
    if (found === undefined) throw userError("resolve-no-match-on", { keyword: shown, chain });
    return found;
  }
  // The chat's default chain is a preference, not a filter: its own contract of a famous
  // symbol, or an exact match there, wins; otherwise every chain is searched.
  if (opts.defaultChain !== undefined) {
    const rows = await search(opts.defaultChain);
    const isExact = exactMatch(keyword);
    if (canonicalId(keyword, opts.defaultChain) !== undefined || rows.some(isExact)) {
      const found = await choose(rows, opts.defaultChain);
      if (found !== undefined) return found;
    }
  }
  const found = await choose(await search(undefined), undefined);
  if (found === undefined) throw userError("resolve-no-match", { keyword: shown });
  return found;
}

const symbolKey = (t: TokenV2): string | undefined => t.symbol?.trim().toLowerCase();

function exactMatch(keyword: string): (t: TokenV2) => boolean {
  const wanted = keyword.toLowerCase();
  return (t) => symbolKey(t) === wanted || t.name?.trim().toLowerCase() === wanted;
}

/**
 * The token `keyword` means among search rows: the famous symbol's own contract when there is
 * one (asked for by address if the search left it out), else the most liquid exact match,
 * else the most liquid row, marked `partial`. Undefined when nothing fits.
 */
async function chooseAmong(
  market: CachedMarket,
  keyword: string,
  rows: TokenV2[],
  canonical: string | undefined,
  limit: number,
): Promise<Resolution | undefined> {
  const isExact = exactMatch(keyword);
  const official = canonical === undefined ? undefined : await canonicalRow(market, rows, canonical, limit);
  if (official !== undefined) {
    // Clones carry the same symbol: they are the alternatives, the famous one is not ranked against them.
    const symbol = symbolKey(official);
    const same = rows.filter((t) => joinId(t.token, t.chain) !== canonical && (isExact(t) || symbolKey(t) === symbol));
    return pick([official, ...rankByLiquidity(same)], same.length + 1, { picked: "canonical", matched: sharedBy([official, ...same]), keyword });
  }
  if (rows.length === 0) return undefined;
  // Tokens that merely contain the word (LODRAPEPE for pepe) are no alternative to an exact match,
  // and without one they are only the nearest the search found, never "called" what was typed.
  const exact = rows.filter(isExact);
  if (exact.length === 0) return pick(rankByLiquidity(rows), rows.length, { picked: "liquidity", matched: "partial", keyword });
  return pick(rankByLiquidity(exact), exact.length, { picked: "liquidity", matched: sharedBy(exact), keyword });
}

/** "symbol" when every match carries one symbol, so "N tokens are called X" is true; else "keyword". */
function sharedBy(matches: readonly TokenV2[]): "symbol" | "keyword" {
  const symbol = matches[0] === undefined ? undefined : symbolKey(matches[0]);
  return symbol !== undefined && symbol !== "" && matches.every((t) => symbolKey(t) === symbol) ? "symbol" : "keyword";
}

/** The search row of a famous token: from `rows`, else from a search for its address on its chain. */
async function canonicalRow(market: CachedMarket, rows: TokenV2[], id: string, limit: number): Promise<TokenV2 | undefined> {
  const inRows = rows.find((t) => joinId(t.token, t.chain) === id);
  if (inRows !== undefined) return inRows;
  const split = splitId(id);
  if (split === null) return undefined;
  const found = await searchAddress(market, split.address, [chainFamily(split.chain)], { chain: split.chain, limit });
  return found.find((t) => t.chain === split.chain);
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
