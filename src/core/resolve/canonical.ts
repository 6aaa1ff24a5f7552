/**
 * The tokens people mean by a famous symbol. Liquidity cannot decide these: every chain has a
 * bridged WETH, a scam USDT or a clone PEPE, and a thin pool's reported TVL is easy to inflate.
 * So a short, curated list names each famous symbol's contracts — the home one first, then
 * the official deployments on other chains — and liquidity ranks only the long tail. The list
 * is small on purpose: it covers the symbols people type bare (`/price btc eth sol`), and each
 * id is the contract the issuer or the chain itself publishes.
 */
import { joinId } from "../../market/ids.js";

/** A famous token's contract on one chain. */
export interface CanonicalId {
  chain: string;
  /** As the chain writes it; EVM addresses are matched lowercase. */
  address: string;
}

const WETH = {
  eth: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2",
  base: "0x4200000000000000000000000000000000000006",
  arbitrum: "0x82af49447d8a07e3bd95bd0d56f35241523fbab1",
  optimism: "0x4200000000000000000000000000000000000006",
  polygon: "0x7ceb23fd6bc0add59e62ac25578270cff1b9f619",
  blast: "0x4300000000000000000000000000000000000004",
};
const WBTC = { eth: "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599" };
const WSOL = { solana: "So11111111111111111111111111111111111111112" };
const WBNB = { bsc: "0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c" };
const USDT = {
  eth: "0xdac17f958d2ee523a2206206994597c13d831ec7",
  bsc: "0x55d398326f99059ff775485246999027b3197955",
  solana: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
  tron: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
};
const USDC = {
  eth: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
  bsc: "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d",
  solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  base: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
  arbitrum: "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
};

/** Home chain first: its order is the order of preference when no chain says otherwise. */
function ids(byChain: Readonly<Record<string, string>>): readonly CanonicalId[] {
  return Object.entries(byChain).map(([chain, address]) => ({ chain, address }));
}

/**
 * Symbols as typed (lowercase) → their contracts. `btc`, `eth`, `sol` and `bnb` name the coin,
 * which trades on-chain as its wrapped token.
 */
const CANONICAL: ReadonlyMap<string, readonly CanonicalId[]> = new Map([
  ["btc", ids(WBTC)], ["wbtc", ids(WBTC)],
  ["eth", ids(WETH)], ["weth", ids(WETH)],
  ["sol", ids(WSOL)], ["wsol", ids(WSOL)],
  ["bnb", ids(WBNB)], ["wbnb", ids(WBNB)],
  ["usdt", ids(USDT)],
  ["usdc", ids(USDC)],
  ["dai", ids({ eth: "0x6b175474e89094c44da98b954eedeac495271d0f" })],
  ["pepe", ids({ eth: "0x6982508145454ce325ddbe47a25d4ec3d2311933" })],
  ["shib", ids({ eth: "0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce" })],
  ["link", ids({ eth: "0x514910771af9ca656af840dff83e8264ecf986ca" })],
  ["uni", ids({ eth: "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984" })],
  ["aave", ids({ eth: "0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9" })],
  ["cake", ids({ bsc: "0x0e09fabb73bd3ade0a17ecc321fd13a19e81ce82" })],
  ["wif", ids({ solana: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm" })],
  ["bonk", ids({ solana: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263" })],
  ["trump", ids({ solana: "6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN" })],
]);

/**
 * The token id a famous symbol means on `chain` (or, without a chain, on its home chain);
 * undefined when the symbol is not famous or has no official contract there.
 */
export function canonicalId(symbol: string, chain?: string): string | undefined {
  const list = CANONICAL.get(symbol.trim().toLowerCase());
  const hit = chain === undefined ? list?.[0] : list?.find((c) => c.chain === chain);
  return hit === undefined ? undefined : joinId(hit.address, hit.chain);
}
