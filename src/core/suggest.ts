/**
 * Token suggestions for autocomplete, from token lists the bot has already fetched (searches,
 * rank lists, trending, main tokens). Answering never waits on the service: Discord gives an
 * autocomplete 3 seconds and no way to defer.
 */
import { LRUCache } from "lru-cache";
import type { CachedMarket } from "../cache/types.js";
import type { TokenV2 } from "../market/schemas.js";
import type { Choice } from "./bot-core.js";
import { DASH, cleanText, formatUsd, shortAddress } from "./format/index.js";
import { entryBound } from "../lru-bound.js";

/** What a choice's label is written from, kept so that each reader gets it in their language. */
type Labelled = Pick<TokenV2, "symbol" | "name" | "chain" | "token" | "main_pair_tvl" | "tvl">;

interface Known {
  id: string;
  symbol: string;
  name: string;
  labelled: Labelled;
  liquidity: number;
}

export interface SuggestionIndex {
  /** Remembers the tokens of a list the bot fetched. */
  note(tokens: readonly TokenV2[]): void;
  /** Up to `limit` tokens whose symbol starts with, or name contains, `query`; most liquid first, labelled in `locale` (default English). */
  suggest(query: string, limit?: number, locale?: string): Choice[];
}

export interface SuggestionOptions {
  /** Tokens remembered; the least recently seen are forgotten. Default 5000. */
  maxTokens?: number;
}

/** Autocomplete answers at most this many choices (Discord's limit). */
const MAX_CHOICES = 25;
/** Longest label of a choice (Discord's limit). */
const LABEL_MAX = 100;

function liquidityOf(t: TokenV2): number {
  const n = Number(t.main_pair_tvl ?? t.tvl ?? "0");
  return Number.isFinite(n) ? n : 0;
}

/**
 * A token as a choice names it: `PEPE · Pepe · eth · $1.2M · 0x6982…1933`. Clones share the
 * symbol, name and chain; the liquidity and the short address tell them apart, as the buttons
 * for the other matches do, so a long name gives way first.
 */
export function tokenLabel(t: Labelled, locale = "en"): string {
  const symbol = cleanText(t.symbol, 20);
  const liquidity = formatUsd(t.main_pair_tvl ?? t.tvl, { locale });
  const tail = [cleanText(t.chain, 16), ...(liquidity === DASH ? [] : [liquidity]), shortAddress(t.token)].join(" · ");
  const name = cleanText(t.name, Math.min(40, LABEL_MAX - symbol.length - tail.length - 6));
  return `${symbol} · ${name} · ${tail}`;
}

export function createSuggestionIndex(opts: SuggestionOptions = {}): SuggestionIndex {
  const known = new LRUCache<string, Known>(entryBound(opts.maxTokens ?? 5000));
  return {
    note(tokens) {
      for (const t of tokens) {
        if (typeof t.token !== "string" || typeof t.chain !== "string") continue;
        const id = `${t.token}-${t.chain}`;
        if (id.length > 100) continue;
        known.set(id, {
          id,
          symbol: cleanText(t.symbol, 20),
          name: cleanText(t.name, 40),
          labelled: { symbol: t.symbol, name: t.name, chain: t.chain, token: t.token, main_pair_tvl: t.main_pair_tvl, tvl: t.tvl },
          liquidity: liquidityOf(t),
        });
      }
    },
    suggest(query, limit = MAX_CHOICES, locale = "en") {
      // Cleaned as the symbols and names were, or `@ev` would never find the ＠ a symbol is kept with.
      const q = cleanText(query.trim(), 200).toLowerCase();
      if (q === "") return [];
      const matches: [number, Known][] = [];
      for (const k of known.values()) {
        const sym = k.symbol.toLowerCase();
        const rank = sym === q ? 0 : sym.startsWith(q) ? 1 : k.name.toLowerCase().includes(q) ? 2 : k.id.toLowerCase().startsWith(q) ? 3 : -1;
        if (rank >= 0) matches.push([rank, k]);
      }
      matches.sort(([ra, a], [rb, b]) => ra - rb || b.liquidity - a.liquidity);
      return matches.slice(0, Math.min(limit, MAX_CHOICES)).map(([, k]) => ({ name: tokenLabel(k.labelled, locale), value: k.id }));
    },
  };
}

/** `market` with every fetched token list also noted in `index`. */
export function noting(market: CachedMarket, index: SuggestionIndex): CachedMarket {
  return {
    ...market,
    search: async (p) => {
      const r = await market.search(p);
      index.note(r.data);
      return r;
    },
    rankList: async (p) => {
      const r = await market.rankList(p);
      index.note(r.data);
      return r;
    },
    trending: async (p) => {
      const r = await market.trending(p);
      index.note(r.data.tokens);
      return r;
    },
    mainTokens: async (chain) => {
      const r = await market.mainTokens(chain);
      index.note(r.data);
      return r;
    },
  };
}
