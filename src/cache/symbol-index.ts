/**
 * Token symbols by token id, learnt from the answers that pass through the cache (a detail's
 * token, a list's records, a risk report's argument), so that a resolution can name a token
 * without a call of its own: a symbol is a near-constant fact. Bounded; the oldest learnt goes first.
 */
import type { MarketApi } from "../market/api.js";
import type { RiskReport, TokenDetail } from "../market/schemas.js";
import { canonicalId, cacheKey } from "./keys.js";
import { recordsOf } from "./records.js";
import type { CacheStore } from "./store.js";

/** Token symbols remembered from the records that pass through, at most: about 1 MB of short strings. */
const SYMBOLS_MAX = 20_000;

export interface SymbolIndex {
  /** Learns the symbols of one answer of `method` to `args`. */
  note(method: keyof MarketApi, args: readonly unknown[], data: unknown): void;
  /** A token's symbol from a record seen lately, else from its detail in the store, of any age the store keeps. */
  known(tokenId: string): Promise<string | undefined>;
}

/** The token symbols an answer carries, by token id: a detail's token, a list's records, a risk report's token. */
function symbolsOf(method: keyof MarketApi, args: readonly unknown[], data: unknown): [string, string][] {
  const out: [string, string][] = [];
  const add = (token: unknown, chain: unknown, symbol: unknown) => {
    if (typeof token === "string" && typeof chain === "string" && typeof symbol === "string" && symbol.trim() !== "") out.push([canonicalId(`${token}-${chain}`), symbol]);
  };
  for (const r of recordsOf(method, data)) add(r.token, r.chain, r.symbol);
  if (method === "tokenDetail") {
    const t = (data as TokenDetail | null)?.token;
    add(t?.token, t?.chain, t?.symbol);
  }
  // A report does not name its token: its argument does.
  if (method === "riskReport" && typeof args[0] === "string") {
    const symbol = (data as RiskReport | null)?.token_symbol;
    if (typeof symbol === "string" && symbol.trim() !== "") out.push([args[0], symbol]);
  }
  return out;
}

export function createSymbolIndex(store: CacheStore): SymbolIndex {
  // Newest last, so the first is the one to let go.
  const symbols = new Map<string, string>();
  return {
    note(method, args, data) {
      for (const [tokenId, symbol] of symbolsOf(method, args, data)) {
        symbols.delete(tokenId);
        symbols.set(tokenId, symbol);
        if (symbols.size > SYMBOLS_MAX) symbols.delete(symbols.keys().next().value as string);
      }
    },
    async known(tokenId) {
      const id = canonicalId(tokenId);
      const seen = symbols.get(id);
      if (seen !== undefined) return seen;
      const card = await store.get(cacheKey("tokenDetail", [id]));
      const symbol = (card?.data as TokenDetail | null | undefined)?.token.symbol;
      return typeof symbol === "string" && symbol.trim() !== "" ? symbol : undefined;
    },
  };
}
