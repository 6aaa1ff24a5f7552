/**
 * Chain names as people, DEX screeners and explorers write them, mapped to the service's chain
 * names (`eth`, `bsc`, `solana`, …; service-notes.md, Identifiers).
 */

/**
 * Most used chains first: `KNOWN_CHAINS` keeps this order. A Map, as every table keyed by what
 * people type: `constructor` or `__proto__` is no chain, not a property of an object.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["eth", "eth"], ["ether", "eth"], ["ethereum", "eth"], ["erc20", "eth"], ["mainnet", "eth"],
  ["bsc", "bsc"], ["bnb", "bsc"], ["bep20", "bsc"], ["bnbchain", "bsc"], ["binance", "bsc"], ["bnb-chain", "bsc"],
  ["solana", "solana"], ["sol", "solana"], ["spl", "solana"],
  ["base", "base"],
  ["arbitrum", "arbitrum"], ["arb", "arbitrum"], ["arbitrum_one", "arbitrum"], ["arbitrum-one", "arbitrum"],
  ["polygon", "polygon"], ["matic", "polygon"], ["pol", "polygon"], ["polygon_pos", "polygon"], ["polygon-pos", "polygon"],
  ["tron", "tron"], ["trx", "tron"], ["trc20", "tron"],
  ["avalanche", "avalanche"], ["avax", "avalanche"], ["avalanche-c", "avalanche"],
  ["optimism", "optimism"], ["op", "optimism"],
  ["blast", "blast"],
  ["merlin", "merlin"], ["merlinchain", "merlin"], ["merlin-chain", "merlin"],
  ["core", "core"], ["coredao", "core"],
]);

/** The service's names of the chains this table knows, most used first. */
export const KNOWN_CHAINS: readonly string[] = [...new Set(ALIASES.values())];

/** The service's name for a chain alias (`ethereum` → `eth`, `bnb` → `bsc`); undefined when unknown. */
export function knownChain(name: string): string | undefined {
  return ALIASES.get(name.normalize("NFKC").toLowerCase());
}

/** A chain word as the service would spell it: a known alias mapped, anything else lowercased. */
export function toServiceChain(name: string): string {
  return knownChain(name) ?? name.toLowerCase();
}

/** Could `word` be a chain name at all (letters, digits, `_`, `-`; 2–30 characters)? */
export function isChainWord(word: string): boolean {
  return /^[a-z][a-z0-9_-]{1,29}$/i.test(word);
}
