/**
 * The synthetic market: tokens and pairs indexed by id, address and symbol, and the one
 * place that turns a token and a time into numbers (memoised per second, so a ranking over
 * every token and the records it lists read the same snapshot). It grows with its clock:
 * fresh launches are added as time reaches them, the same ones a market started later holds.
 */
import { CHAINS, type ChainDef } from "./chains.js";
import { HOSTILE_TOKENS, type HostileToken } from "./hostile.js";
import { TokenCopies } from "./blueprint.js";
import { freshLaunchAt } from "./build.js";
import { Extremes, pathOf } from "./extremes.js";
import type { MarketIndex } from "./market-index.js";
import { PlacedSwaps } from "./placed-swaps.js";
import { priceAt, snapshot, type Snapshot } from "./walk.js";
import type { PriceMove, SandboxPair, SandboxToken } from "./types.js";

/** Default number of tokens: the issue asks for at least 2,000. */
export const DEFAULT_TOKEN_COUNT = 2_400;

export interface MarketOptions {
  /** Seed of every generated value; default 1. */
  seed?: number;
  /** Epoch ms the market opens at: it holds every launch up to then. */
  openedAt: number;
  /** Number of established tokens; default 2,400 (fresh launches come on top). */
  count?: number;
}

export class Market {
  readonly seed: number;
  /** Exact highs and lows of any price path, shared by K-lines and the 24h range. */
  readonly extremes = new Extremes();
  private readonly copies: TokenCopies;
  /** Shared with every market of the seed and count: this one sees the positions below its own counts. */
  private readonly index: MarketIndex;
  private readonly allTokens: SandboxToken[];
  private readonly allPairs: SandboxPair[] = [];
  /** The next fresh launch not yet built. */
  private nextFresh = 0;
  readonly chains: readonly ChainDef[] = CHAINS;
  /** Swaps tests placed on pairs, and the pairs they made quiet: empty unless a test asks. */
  readonly placed = new PlacedSwaps();
  /** The hostile tokens, all present in `tokens`. */
  readonly hostile: readonly HostileToken[] = HOSTILE_TOKENS;
  /** Each chain's tokens as of the count built when asked. */
  private readonly chainTokens = new Map<string, { built: number; tokens: readonly SandboxToken[] }>();
  private readonly snapshots = new Map<SandboxToken, Snapshot>();
  private readonly ranges = new Map<SandboxToken, { t: number; low: number; high: number }>();

  constructor(opts: MarketOptions) {
    this.seed = opts.seed ?? 1;
    this.copies = new TokenCopies(this.seed, opts.count ?? DEFAULT_TOKEN_COUNT);
    this.index = this.copies.index;
    this.allTokens = [];
    for (const t of this.copies.established()) this.add(t);
    this.reach(Math.floor(opts.openedAt / 1000));
  }

  /** Every token built so far, launched or not: a token is visible from its `launchAt` on. */
  get tokens(): readonly SandboxToken[] {
    return this.allTokens;
  }

  get pairs(): readonly SandboxPair[] {
    return this.allPairs;
  }

  /** Builds the fresh launches up to epoch second `now`; a clock that goes back keeps them, hidden. */
  reach(now: number): void {
    while (freshLaunchAt(this.seed, this.nextFresh) <= now) this.add(this.copies.fresh(this.nextFresh++));
  }

  /** Copies arrive in the index's build order, so a copy's position is its blueprint's. */
  private add(t: SandboxToken): void {
    this.allTokens.push(t);
    for (const p of t.pairs) this.allPairs.push(p);
  }

  private tokensOf(positions: readonly number[]): SandboxToken[] {
    const out: SandboxToken[] = [];
    for (const p of positions) if (p < this.allTokens.length) out.push(this.allTokens[p] as SandboxToken);
    return out;
  }

  private pairsOf(positions: readonly number[]): SandboxPair[] {
    const out: SandboxPair[] = [];
    for (const p of positions) if (p < this.allPairs.length) out.push(this.allPairs[p] as SandboxPair);
    return out;
  }

  /** The token with id `<address>-<chain>` (EVM addresses in any case). */
  token(id: string): SandboxToken | undefined {
    const at = this.index.token(id);
    return at === undefined ? undefined : this.allTokens[at];
  }

  /** The pair with id `<pair>-<chain>`. */
  pair(id: string): SandboxPair | undefined {
    const at = this.index.pair(id);
    return at === undefined ? undefined : this.allPairs[at];
  }

  /** Tokens at `address` on any chain (EVM addresses in any case; they are stored lowercase). */
  tokensAt(address: string): readonly SandboxToken[] {
    return this.tokensOf(this.index.tokensAt(address));
  }

  /** Pairs at `address` on any chain. */
  pairsAt(address: string): readonly SandboxPair[] {
    return this.pairsOf(this.index.pairsAt(address));
  }

  /** Tokens whose symbol is `symbol` (any case), most liquid first. */
  bySymbol(symbol: string): readonly SandboxToken[] {
    return this.tokensOf(this.index.bySymbol(symbol));
  }

  onChain(chain: string): readonly SandboxToken[] {
    const known = this.chainTokens.get(chain);
    if (known?.built === this.allTokens.length) return known.tokens;
    const tokens = this.tokensOf(this.index.onChain(chain));
    this.chainTokens.set(chain, { built: this.allTokens.length, tokens });
    return tokens;
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

  /**
   * Moves the token's price by `factor` over the whole minutes `fromMinute`…`toMinute` (a wick
   * of one minute, or a lasting rise): every record, price and K-line built after reads it.
   */
  movePrice(token: SandboxToken, move: PriceMove): void {
    token.moves = [...(token.moves ?? []), move];
    this.snapshots.delete(token);
    this.ranges.delete(token);
  }

  /** The token's state at epoch second `now`, shared by every record built for that second. */
  snapshot(token: SandboxToken, now: number): Snapshot {
    const cached = this.snapshots.get(token);
    if (cached?.t === now) return cached;
    const fresh = snapshot(token, now);
    this.snapshots.set(token, fresh);
    return fresh;
  }

  /** Lowest and highest USD price of the 24 hours up to epoch second `now`, exactly. */
  range24h(token: SandboxToken, now: number): { low: number; high: number } {
    const cached = this.ranges.get(token);
    if (cached?.t === now) return cached;
    const fresh = { t: now, ...this.extremes.range(pathOf(token, undefined, "u", undefined), now - 86_400, now) };
    this.ranges.set(token, fresh);
    return fresh;
  }
}
