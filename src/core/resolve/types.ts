import type { ChainFamily } from "../../market/ids.js";
import type { TokenV2 } from "../../market/schemas.js";
import type { LocalMessage } from "../../i18n/index.js";

/** What a person typed, read without asking the service. */
export type TokenInput =
  /**
   * An address with its chain (`0x…-bsc`, `0x… bsc`, an explorer link). `isPair`: it came from
   * a pool link and may name a pair rather than a token; the resolver finds the pair's token.
   */
  | { kind: "id"; address: string; chain: string; isPair?: true }
  /** An address without a chain; `families` are the address formats it fits. */
  | { kind: "address"; address: string; families: ChainFamily[] }
  /** A symbol or name, with a chain when one was named (`pepe bsc`). */
  | { kind: "query"; text: string; chain?: string }
  /** Almost an address, or nothing usable: `said` is why, written in the reader's language when shown. */
  | { kind: "malformed"; said: LocalMessage };

/** A token id chosen from what was typed, with the runners-up to offer as buttons. */
export interface Resolution {
  /** `<address>-<chain>`, address normalised for its chain. */
  tokenId: string;
  chain: string;
  address: string;
  /** The chosen token's record when a search found it. */
  token?: TokenV2;
  /** The next most liquid matches, at most 5, best first. */
  alternatives: TokenV2[];
  /** How many tokens matched (exact symbol or name matches when there are any, else every row the search gave). */
  totalMatches: number;
  /** Why this one: the famous symbol's own contract, or the most liquid match. */
  picked: "canonical" | "liquidity";
  /**
   * What the matches share: one symbol (every match carries the chosen token's symbol), what was
   * typed as a symbol or name without one symbol in common (`keyword`), only part of a symbol or
   * name (`partial`: nothing is called what was typed, these are the search's nearest), or an
   * address that lives on several chains.
   */
  matched: "symbol" | "keyword" | "partial" | "address";
  /** The symbol or name typed, for a match by symbol, keyword or part of one. */
  keyword?: string;
  /** The chain came with the address (`0x…-base`, `0x… base`, a button): one address may be a token on several chains. */
  chainGiven?: true;
}
