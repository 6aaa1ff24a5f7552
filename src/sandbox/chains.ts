/**
 * The chains the sandbox serves, with their ids, address family, swap venues and main
 * tokens. Names and ids are those the service uses (service-notes.md, Identifiers).
 */
import type { ChainFamily } from "../market/ids.js";

export interface MainTokenDef {
  symbol: string;
  name: string;
  /** Price the walk wanders around, USD. */
  price: number;
  decimals: number;
  /** A stablecoin barely moves. */
  stable?: boolean;
  /** The chain's wrapped native coin: the quote of most pairs and the base of category `m`. */
  native?: boolean;
}

export interface ChainDef {
  chain: string;
  chainId: string;
  name: string;
  family: ChainFamily;
  /** Seconds per block, for block numbers of synthetic swaps. */
  blockTime: number;
  explorer: string;
  rpc: string;
  amms: readonly string[];
  main: readonly MainTokenDef[];
  /** Share of the generated tokens that live on this chain. */
  weight: number;
}

const usdc = (decimals = 6): MainTokenDef => ({ symbol: "USDC", name: "USD Coin", price: 1, decimals, stable: true });
const usdt = (decimals = 6): MainTokenDef => ({ symbol: "USDT", name: "Tether USD", price: 1, decimals, stable: true });
const weth: MainTokenDef = { symbol: "WETH", name: "Wrapped Ether", price: 3200, decimals: 18, native: true };

/** The sandbox's chains: eight the issue asks for, the other rank-topic chains, and core (checked by v1). */
export const CHAINS: readonly ChainDef[] = [
  {
    chain: "eth", chainId: "1", name: "Ethereum", family: "evm", blockTime: 12,
    explorer: "https://etherscan.io", rpc: "https://rpc.ankr.com/eth",
    amms: ["uniswapv2", "uniswapv3", "sushiswap"], weight: 0.2,
    main: [weth, usdc(), usdt(), { symbol: "WBTC", name: "Wrapped BTC", price: 92000, decimals: 8 }, { symbol: "DAI", name: "Dai Stablecoin", price: 1, decimals: 18, stable: true }],
  },
  {
    chain: "bsc", chainId: "56", name: "BNB Chain", family: "evm", blockTime: 3,
    explorer: "https://bscscan.com", rpc: "https://bsc-dataseed.binance.org",
    amms: ["pancakev2", "pancakev3", "biswap"], weight: 0.2,
    main: [{ symbol: "WBNB", name: "Wrapped BNB", price: 610, decimals: 18, native: true }, usdt(18), usdc(18), { symbol: "CAKE", name: "PancakeSwap Token", price: 2.4, decimals: 18 }],
  },
  {
    chain: "solana", chainId: "solana", name: "Solana", family: "solana", blockTime: 0.4,
    explorer: "https://solscan.io", rpc: "https://api.mainnet-beta.solana.com",
    amms: ["raydium", "orca", "meteora", "pumpswap"], weight: 0.2,
    main: [{ symbol: "SOL", name: "Wrapped SOL", price: 145, decimals: 9, native: true }, usdc(), usdt()],
  },
  {
    chain: "base", chainId: "8453", name: "Base", family: "evm", blockTime: 2,
    explorer: "https://basescan.org", rpc: "https://mainnet.base.org",
    amms: ["uniswapv3", "aerodrome", "baseswap"], weight: 0.12,
    main: [weth, usdc()],
  },
  {
    chain: "arbitrum", chainId: "42161", name: "Arbitrum One", family: "evm", blockTime: 0.25,
    explorer: "https://arbiscan.io", rpc: "https://arb1.arbitrum.io/rpc",
    amms: ["uniswapv3", "camelot", "sushiswap"], weight: 0.06,
    main: [weth, usdc(), { symbol: "ARB", name: "Arbitrum", price: 0.42, decimals: 18 }],
  },
  {
    chain: "polygon", chainId: "137", name: "Polygon", family: "evm", blockTime: 2,
    explorer: "https://polygonscan.com", rpc: "https://polygon-rpc.com",
    amms: ["quickswap", "uniswapv3"], weight: 0.05,
    main: [{ symbol: "WPOL", name: "Wrapped POL", price: 0.38, decimals: 18, native: true }, usdc(), weth],
  },
  {
    chain: "tron", chainId: "tron", name: "Tron", family: "tron", blockTime: 3,
    explorer: "https://tronscan.org", rpc: "https://api.trongrid.io",
    amms: ["sunswapv2", "sunswapv3"], weight: 0.05,
    main: [{ symbol: "WTRX", name: "Wrapped TRX", price: 0.24, decimals: 6, native: true }, usdt()],
  },
  {
    chain: "avalanche", chainId: "43114", name: "Avalanche C-Chain", family: "evm", blockTime: 2,
    explorer: "https://snowtrace.io", rpc: "https://api.avax.network/ext/bc/C/rpc",
    amms: ["traderjoe", "pangolin"], weight: 0.04,
    main: [{ symbol: "WAVAX", name: "Wrapped AVAX", price: 27, decimals: 18, native: true }, usdc()],
  },
  {
    chain: "optimism", chainId: "10", name: "OP Mainnet", family: "evm", blockTime: 2,
    explorer: "https://optimistic.etherscan.io", rpc: "https://mainnet.optimism.io",
    amms: ["velodrome", "uniswapv3"], weight: 0.03,
    main: [weth, usdc(), { symbol: "OP", name: "Optimism", price: 1.6, decimals: 18 }],
  },
  {
    chain: "blast", chainId: "81457", name: "Blast", family: "evm", blockTime: 2,
    explorer: "https://blastscan.io", rpc: "https://rpc.blast.io",
    amms: ["thruster", "blasterswap"], weight: 0.03,
    main: [weth, { symbol: "USDB", name: "USDB", price: 1, decimals: 18, stable: true }],
  },
  {
    chain: "merlin", chainId: "4200", name: "Merlin", family: "evm", blockTime: 3,
    explorer: "https://scan.merlinchain.io", rpc: "https://rpc.merlinchain.io",
    amms: ["merlinswap"], weight: 0.02,
    main: [{ symbol: "WBTC", name: "Wrapped BTC", price: 92000, decimals: 18, native: true }, usdt(18)],
  },
  {
    // One of the four chains of the v1 contract check, so /check core has something to check.
    chain: "core", chainId: "1116", name: "Core", family: "evm", blockTime: 3,
    explorer: "https://scan.coredao.org", rpc: "https://rpc.coredao.org",
    amms: ["glyph", "archerswap"], weight: 0.02,
    main: [{ symbol: "WCORE", name: "Wrapped CORE", price: 0.6, decimals: 18, native: true }, usdt(6)],
  },
];

const byName = new Map(CHAINS.map((c) => [c.chain, c]));

/** The chain named `chain` (as the service spells it), or undefined when unsupported. */
export function chainDef(chain: string): ChainDef | undefined {
  return byName.get(chain);
}
