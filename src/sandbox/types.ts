/**
 * The synthetic market's records: built once at start, small, and read-only. Everything
 * that moves with time (prices, volumes, trades, holders' values) is computed from these on
 * demand.
 */
import type { ChainDef } from "./chains.js";
import type { HostileToken } from "./hostile.js";

/** Contract risk profiles of service-notes.md (Risk semantics, Fixtures). */
export type RiskProfile =
  | "clean"
  | "highTax"
  | "honeypot"
  | "mintable"
  | "proxy"
  | "ownerNotRenounced"
  | "lpUnlocked"
  | "concentrated"
  | "unchecked"
  | "noReport";

export const RISK_PROFILES: readonly RiskProfile[] = [
  "clean", "highTax", "honeypot", "mintable", "proxy", "ownerNotRenounced", "lpUnlocked",
  "concentrated", "unchecked", "noReport",
];

/** Rank-topic categories a token may carry besides its chain. */
export type Tag = "meme" | "ai" | "depin" | "gamefi" | "rwa" | "l2";

/**
 * A move tests place on a token's walk (`Market.movePrice`): its price times `factor` at the
 * whole minutes `fromMinute`…`toMinute` (epoch minutes), blending linearly in log price into the
 * neighbouring minutes, so extremes still sit on minute knots and every K-line agrees.
 */
export interface PriceMove {
  fromMinute: number;
  toMinute: number;
  factor: number;
}

export interface SandboxToken {
  /** `<address>-<chain>`, address lowercase on EVM chains. */
  id: string;
  address: string;
  chain: string;
  chainDef: ChainDef;
  symbol: string;
  name: string;
  decimals: number;
  /** Total supply in whole tokens. */
  supply: number;
  /** Circulating share of the supply, 0–1. */
  circulating: number;
  /** Level the price wanders around, USD. */
  basePrice: number;
  /** Log-price volatility per day; 0 pins the price. */
  volatility: number;
  /** Mean traded USD per second. */
  volumeRate: number;
  /** Mean USD per trade. */
  tradeSize: number;
  /** Total liquidity over its pairs, USD. */
  liquidity: number;
  /** Epoch seconds of the first trade; no K-line bucket or swap exists before it. */
  launchAt: number;
  /** Hash seed of everything computed on demand for this token. */
  key: number;
  /** Moves placed on the walk by tests; absent: none. */
  moves?: PriceMove[];
  /**
   * Hash seed of the price walk: the token's own key, or one shared by the copies of one asset
   * on several chains (WETH, USDC, PEPE), so that they move together and differ only by their
   * fixed spread, as arbitrage keeps them.
   */
  priceKey: number;
  /** The chain's main tokens (WETH, USDC, ...). */
  main: boolean;
  stable: boolean;
  tags: readonly Tag[];
  risk: RiskProfile;
  /** Listed by the service: risk_level 1. */
  listed: boolean;
  /** Holder count. */
  holders: number;
  /** Served with an empty top-holders list (as observed for large tokens). */
  holdersHidden: boolean;
  /** Share of the supply held by the top 100, 0–0.95. */
  topShare: number;
  pairs: SandboxPair[];
  hostile?: HostileToken;
}

export interface SandboxPair {
  /** `<pair>-<chain>`. */
  id: string;
  address: string;
  chain: string;
  amm: string;
  /** The token this pair prices. */
  target: SandboxToken;
  /** The other side: the chain's native coin or a stablecoin. */
  quote: SandboxToken;
  /** USD locked in the pool. */
  liquidity: number;
  /** Share of the target token's volume traded here. */
  share: number;
  /** Price offset from the token's price: 0 on the main pair. */
  spread: number;
  createdAt: number;
  /** Fee as a fraction; empty on venues that do not report it. */
  fee: string;
  isFake: boolean;
  key: number;
}
