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
  /** Its price in USD, near the real one's order of magnitude; copies on other chains stay within a small spread of it. */
  price: number;
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

/**
 * The real contracts of the chains' main tokens and of famous tokens, by `<chain>:<SYMBOL>`, so
 * that the demo resolves `/price eth usdt pepe` to the ids the real service would (the core's
 * curated list names these) and an explorer link pasted from the real world works.
 */
export const REAL_ADDRESSES: ReadonlyMap<string, string> = new Map([
  ["eth:WETH", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"],
  ["eth:WBTC", "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599"],
  ["eth:USDC", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"],
  ["eth:USDT", "0xdac17f958d2ee523a2206206994597c13d831ec7"],
  ["eth:DAI", "0x6b175474e89094c44da98b954eedeac495271d0f"],
  ["eth:SHIB", "0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce"],
  ["eth:LINK", "0x514910771af9ca656af840dff83e8264ecf986ca"],
  ["eth:UNI", "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984"],
  ["eth:AAVE", "0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9"],
  ["bsc:WBNB", "0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c"],
  ["bsc:USDT", "0x55d398326f99059ff775485246999027b3197955"],
  ["bsc:USDC", "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d"],
  ["bsc:CAKE", "0x0e09fabb73bd3ade0a17ecc321fd13a19e81ce82"],
  ["solana:SOL", "So11111111111111111111111111111111111111112"],
  ["solana:USDC", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"],
  ["solana:USDT", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"],
  ["solana:WIF", "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm"],
  ["solana:BONK", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"],
  ["solana:TRUMP", "6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN"],
  ["tron:USDT", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
  ["base:WETH", "0x4200000000000000000000000000000000000006"],
  ["base:USDC", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"],
  ["arbitrum:WETH", "0x82af49447d8a07e3bd95bd0d56f35241523fbab1"],
  ["arbitrum:USDC", "0xaf88d065e77c8cc2239327c5edb3a432268e5831"],
  ["optimism:WETH", "0x4200000000000000000000000000000000000006"],
  ["polygon:WETH", "0x7ceb23fd6bc0add59e62ac25578270cff1b9f619"],
  ["blast:WETH", "0x4300000000000000000000000000000000000004"],
]);

export const FAMOUS: readonly FamousDef[] = [
  { symbol: "PEPE", name: "Pepe", tags: ["meme"], cap: 4.2e9, price: 1e-05, chains: ["eth", "bsc", "base", "solana"], evmAddress: "0x6982508145454ce325ddbe47a25d4ec3d2311933" },
  { symbol: "SHIB", name: "Shiba Inu", tags: ["meme"], cap: 8e9, price: 1.4e-05, chains: ["eth", "bsc"] },
  { symbol: "DOGE", name: "Dogecoin (bridged)", tags: ["meme"], cap: 2e8, price: 0.18, chains: ["bsc"] },
  { symbol: "FLOKI", name: "Floki", tags: ["meme"], cap: 9e8, price: 0.0001, chains: ["eth", "bsc"] },
  { symbol: "WIF", name: "dogwifhat", tags: ["meme"], cap: 1.6e9, price: 0.6, chains: ["solana"] },
  { symbol: "BONK", name: "Bonk", tags: ["meme"], cap: 1.5e9, price: 2e-05, chains: ["solana"] },
  { symbol: "TRUMP", name: "OFFICIAL TRUMP", tags: ["meme"], cap: 1.8e9, price: 8, chains: ["solana"] },
  { symbol: "BRETT", name: "Brett", tags: ["meme"], cap: 5e8, price: 0.05, chains: ["base"] },
  { symbol: "DEGEN", name: "Degen", tags: ["meme"], cap: 8e7, price: 0.003, chains: ["base"] },
  { symbol: "SUNDOG", name: "Sundog", tags: ["meme"], cap: 6e7, price: 0.08, chains: ["tron"] },
  { symbol: "LINK", name: "ChainLink Token", tags: [], cap: 9e9, price: 14, chains: ["eth", "arbitrum", "polygon", "bsc"] },
  { symbol: "UNI", name: "Uniswap", tags: [], cap: 5e9, price: 7, chains: ["eth", "arbitrum", "optimism"] },
  { symbol: "AAVE", name: "Aave Token", tags: [], cap: 3e9, price: 200, chains: ["eth", "polygon", "avalanche"] },
  { symbol: "FET", name: "Fetch.ai", tags: ["ai"], cap: 1.2e9, price: 0.4, chains: ["eth"] },
  { symbol: "VIRTUAL", name: "Virtual Protocol", tags: ["ai"], cap: 9e8, price: 1.2, chains: ["base"] },
  { symbol: "RENDER", name: "Render Token", tags: ["ai", "depin"], cap: 2e9, price: 2.5, chains: ["solana"] },
  { symbol: "HNT", name: "Helium", tags: ["depin"], cap: 5e8, price: 2.5, chains: ["solana"] },
  { symbol: "IOTX", name: "IoTeX", tags: ["depin"], cap: 2e8, price: 0.02, chains: ["eth"] },
  { symbol: "AXS", name: "Axie Infinity Shard", tags: ["gamefi"], cap: 4e8, price: 1.5, chains: ["eth"] },
  { symbol: "GALA", name: "Gala", tags: ["gamefi"], cap: 5e8, price: 0.012, chains: ["eth", "bsc"] },
  { symbol: "ONDO", name: "Ondo", tags: ["rwa"], cap: 2.5e9, price: 0.6, chains: ["eth"] },
  { symbol: "MNT", name: "Mantle", tags: ["l2"], cap: 2e9, price: 1.2, chains: ["eth"] },
  { symbol: "STRK", name: "Starknet Token", tags: ["l2"], cap: 4e8, price: 0.15, chains: ["eth"] },
  { symbol: "JOE", name: "JoeToken", tags: [], cap: 9e7, price: 0.15, chains: ["avalanche"] },
  { symbol: "QUICK", name: "Quickswap", tags: [], cap: 4e7, price: 0.02, chains: ["polygon"] },
  { symbol: "BLAST", name: "Blast", tags: ["l2"], cap: 1.5e8, price: 0.002, chains: ["blast"] },
  { symbol: "MP", name: "Merlin's Seal", tags: [], cap: 3e7, price: 0.1, chains: ["merlin"] },
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
