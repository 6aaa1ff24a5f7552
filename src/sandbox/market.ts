/**
 * The synthetic market: tokens and pairs indexed by id, address and symbol, and the one
 * place that turns a token and a time into numbers (memoised per second, so a ranking over
 * every token and the records it lists read the same snapshot).
 */
import { chainFamily } from "../market/ids.js";
import { CHAINS, type ChainDef } from "./chains.js";
import { HOSTILE_TOKENS, type HostileToken } from "./hostile.js";
import { MarketBuilder } from "./build.js";
import { priceAt, range24h, snapshot, type Snapshot } from "./walk.js";
import type { SandboxPair, SandboxToken } from "./types.js";

/** Default number of tokens: the issue asks for at least 2,000. */
export const DEFAULT_TOKEN_COUNT = 2_400;

export interface MarketOptions {
  /** Seed of every generated value; default 1. */
  seed?: number;
  /** Epoch ms the market opens at: token ages count back from the start of its UTC day. */
  openedAt: number;
  /** Number of tokens; default 2,400. */
  count?: number;
}

/** EVM ids match case-insensitively (service-notes.md); others exactly. */
function canonicalId(id: string): string {
  const i = id.lastIndexOf("-");
  if (i <= 0) return id;
  const chain = id.slice(i + 1);
  return chainFamily(chain) === "evm" ? id.toLowerCase() : id;
}

export class Market {
  readonly seed: number;
  /** Epoch seconds token ages count back from. */
  readonly anchor: number;
  readonly tokens: readonly SandboxToken[];
  readonly pairs: readonly SandboxPair[];
  readonly chains: readonly ChainDef[] = CHAINS;
  /** The hostile tokens, all present in `tokens`. */
  readonly hostile: readonly HostileToken[] = HOSTILE_TOKENS;
  private readonly tokenById = new Map<string, SandboxToken>();
  private readonly pairById = new Map<string, SandboxPair>();
  private readonly tokensByAddress = new Map<string, SandboxToken[]>();
  private readonly pairsByAddress = new Map<string, SandboxPair[]>();
  private readonly tokensBySymbol = new Map<string, SandboxToken[]>();
  private readonly tokensByChain = new Map<string, SandboxToken[]>();
  private readonly snapshots = new Map<SandboxToken, Snapshot>();
  private readonly ranges = new Map<SandboxToken, { t: number; low: number; high: number }>();

  constructor(opts: MarketOptions) {
    this.seed = opts.seed ?? 1;
    this.anchor = Math.floor(opts.openedAt / 86_400_000) * 86_400;
    this.tokens = new MarketBuilder({ seed: this.seed, anchor: this.anchor, count: opts.count ?? DEFAULT_TOKEN_COUNT }).build();
    this.pairs = this.tokens.flatMap((t) => t.pairs);
    for (const t of this.tokens) {
      this.tokenById.set(canonicalId(t.id), t);
      push(this.tokensByAddress, t.address, t);
      push(this.tokensBySymbol, t.symbol.toLowerCase(), t);
      push(this.tokensByChain, t.chain, t);
    }
    for (const p of this.pairs) {
      this.pairById.set(canonicalId(p.id), p);
      push(this.pairsByAddress, p.address, p);
    }
    for (const list of this.tokensBySymbol.values()) list.sort((a, b) => b.liquidity - a.liquidity);
  }

  /** The token with id `<address>-<chain>` (EVM addresses in any case). */
  token(id: string): SandboxToken | undefined {
    return this.tokenById.get(canonicalId(id));
  }

  /** The pair with id `<pair>-<chain>`. */
  pair(id: string): SandboxPair | undefined {
    return this.pairById.get(canonicalId(id));
  }

  /** Tokens at `address` on any chain (EVM addresses in any case; they are stored lowercase). */
  tokensAt(address: string): readonly SandboxToken[] {
    return this.tokensByAddress.get(address) ?? this.tokensByAddress.get(address.toLowerCase()) ?? [];
  }

  /** Pairs at `address` on any chain. */
  pairsAt(address: string): readonly SandboxPair[] {
    return this.pairsByAddress.get(address) ?? this.pairsByAddress.get(address.toLowerCase()) ?? [];
  }

  /** Tokens whose symbol is `symbol` (any case), most liquid first. */
  bySymbol(symbol: string): readonly SandboxToken[] {
    return this.tokensBySymbol.get(symbol.toLowerCase()) ?? [];
  }

  onChain(chain: string): readonly SandboxToken[] {
    return this.tokensByChain.get(chain) ?? [];
  }

  mainTokens(chain: string): readonly SandboxToken[] {
    return this.onChain(chain).filter((t) => t.main);
  }

  /** The chain's wrapped native coin (WETH, WBNB, SOL, ...). */
  native(chain: string): SandboxToken | undefined {
    return this.onChain(chain).find((t) => t.main && t.chainDef.main.some((m) => m.native && m.symbol === t.symbol));
  }

  /** USD price of `token` at epoch second `t`. */
  priceAt(token: SandboxToken, t: number): number {
    return priceAt(token, t);
  }

  /** The token's state at epoch second `now`, shared by every record built for that second. */
  snapshot(token: SandboxToken, now: number): Snapshot {
    const cached = this.snapshots.get(token);
    if (cached?.t === now) return cached;
    const fresh = snapshot(token, now);
    this.snapshots.set(token, fresh);
    return fresh;
  }

  /** Lowest and highest price of the 24 hours before epoch second `now`. */
  range24h(token: SandboxToken, now: number): { low: number; high: number } {
    const cached = this.ranges.get(token);
    if (cached?.t === now) return cached;
    const fresh = { t: now, ...range24h(token, now, this.snapshot(token, now).price) };
    this.ranges.set(token, fresh);
    return fresh;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
