/**
 * Well-known tokens placed on fixed chains so that demos read naturally (`/price pepe`), with
 * the scam clones of the real world: several tokens with one symbol on one chain, most of
 * them thin and risky.
 */
import type { RiskProfile, Tag } from "./types.js";

export interface FamousDef {
  symbol: string;
  name: string;
  tags: readonly Tag[];
  /** Market cap of the real one, USD. */
  cap: number;
  chains: readonly string[];
  /** Its real address on the EVM chains, where the examples of /help name it. */
  evmAddress?: string;
}

/**
 * Real main pairs by token id, so that examples naming a real pool (`/liquidity`, `/swaps`)
 * answer on demo data as they do on the real service.
 */
export const REAL_MAIN_PAIRS: Readonly<Record<string, string>> = {
  "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth": "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f",
};

export const FAMOUS: readonly FamousDef[] = [
  { symbol: "PEPE", name: "Pepe", tags: ["meme"], cap: 4.2e9, chains: ["eth", "bsc", "base", "solana"], evmAddress: "0x6982508145454ce325ddbe47a25d4ec3d2311933" },
  { symbol: "SHIB", name: "Shiba Inu", tags: ["meme"], cap: 8e9, chains: ["eth", "bsc"] },
  { symbol: "DOGE", name: "Dogecoin (bridged)", tags: ["meme"], cap: 2e8, chains: ["bsc"] },
  { symbol: "FLOKI", name: "Floki", tags: ["meme"], cap: 9e8, chains: ["eth", "bsc"] },
  { symbol: "WIF", name: "dogwifhat", tags: ["meme"], cap: 1.6e9, chains: ["solana"] },
  { symbol: "BONK", name: "Bonk", tags: ["meme"], cap: 1.5e9, chains: ["solana"] },
  { symbol: "TRUMP", name: "OFFICIAL TRUMP", tags: ["meme"], cap: 1.8e9, chains: ["solana"] },
  { symbol: "BRETT", name: "Brett", tags: ["meme"], cap: 5e8, chains: ["base"] },
  { symbol: "DEGEN", name: "Degen", tags: ["meme"], cap: 8e7, chains: ["base"] },
  { symbol: "SUNDOG", name: "Sundog", tags: ["meme"], cap: 6e7, chains: ["tron"] },
  { symbol: "LINK", name: "ChainLink Token", tags: [], cap: 9e9, chains: ["eth", "arbitrum", "polygon", "bsc"] },
  { symbol: "UNI", name: "Uniswap", tags: [], cap: 5e9, chains: ["eth", "arbitrum", "optimism"] },
  { symbol: "AAVE", name: "Aave Token", tags: [], cap: 3e9, chains: ["eth", "polygon", "avalanche"] },
  { symbol: "FET", name: "Fetch.ai", tags: ["ai"], cap: 1.2e9, chains: ["eth"] },
  { symbol: "VIRTUAL", name: "Virtual Protocol", tags: ["ai"], cap: 9e8, chains: ["base"] },
  { symbol: "RENDER", name: "Render Token", tags: ["ai", "depin"], cap: 2e9, chains: ["solana"] },
  { symbol: "HNT", name: "Helium", tags: ["depin"], cap: 5e8, chains: ["solana"] },
  { symbol: "IOTX", name: "IoTeX", tags: ["depin"], cap: 2e8, chains: ["eth"] },
  { symbol: "AXS", name: "Axie Infinity Shard", tags: ["gamefi"], cap: 4e8, chains: ["eth"] },
  { symbol: "GALA", name: "Gala", tags: ["gamefi"], cap: 5e8, chains: ["eth", "bsc"] },
  { symbol: "ONDO", name: "Ondo", tags: ["rwa"], cap: 2.5e9, chains: ["eth"] },
  { symbol: "MNT", name: "Mantle", tags: ["l2"], cap: 2e9, chains: ["eth"] },
  { symbol: "STRK", name: "Starknet Token", tags: ["l2"], cap: 4e8, chains: ["eth"] },
  { symbol: "JOE", name: "JoeToken", tags: [], cap: 9e7, chains: ["avalanche"] },
  { symbol: "QUICK", name: "Quickswap", tags: [], cap: 4e7, chains: ["polygon"] },
  { symbol: "BLAST", name: "Blast", tags: ["l2"], cap: 1.5e8, chains: ["blast"] },
  { symbol: "MP", name: "Merlin's Seal", tags: [], cap: 3e7, chains: ["merlin"] },
];

export interface CloneDef {
  symbol: string;
  chain: string;
  /** USD liquidity: far below the real one's. */
  liquidity: number;
  risk: RiskProfile;
}

/** Same-symbol tokens on one chain (scam clones), next to the real one. */
export const CLONES: readonly CloneDef[] = [
  { symbol: "PEPE", chain: "eth", liquidity: 18_000, risk: "honeypot" },
  { symbol: "PEPE", chain: "eth", liquidity: 2_400, risk: "highTax" },
  { symbol: "PEPE", chain: "eth", liquidity: 650, risk: "concentrated" },
  { symbol: "PEPE", chain: "eth", liquidity: 90, risk: "mintable" },
  { symbol: "PEPE", chain: "bsc", liquidity: 4_000, risk: "honeypot" },
  { symbol: "PEPE", chain: "solana", liquidity: 1_200, risk: "unchecked" },
  { symbol: "WIF", chain: "solana", liquidity: 7_500, risk: "lpUnlocked" },
  { symbol: "TRUMP", chain: "solana", liquidity: 30_000, risk: "concentrated" },
  { symbol: "TRUMP", chain: "solana", liquidity: 800, risk: "noReport" },
  { symbol: "USDT", chain: "bsc", liquidity: 1_500, risk: "honeypot" },
  { symbol: "BRETT", chain: "base", liquidity: 3_300, risk: "proxy" },
  { symbol: "SHIB", chain: "eth", liquidity: 500, risk: "ownerNotRenounced" },
];
