/**
 * The tokens a seed and a count build, built once per process and handed to each market as
 * copies. Tests and benchmarks start hundreds of sandboxes in one process: building 2,400 tokens
 * and a year of fresh launches took 85–190 ms of CPU each time, a copy a fraction of that. A
 * market gets its own objects because it changes them (a test's price moves), and the build is
 * a pure function of the seed and the count, so a copy is the same market.
 */
import { LRUCache } from "lru-cache";
import { MarketBuilder } from "./build.js";
import { MarketIndex } from "./market-index.js";
import type { SandboxPair, SandboxToken } from "./types.js";

class Blueprint {
  readonly established: readonly SandboxToken[];
  /** Fresh launches built so far, token k at index k. */
  private readonly fresh: SandboxToken[] = [];
  private readonly builder: MarketBuilder;
  /** Every token built so far, in build order: the order each market holds its copies in. */
  readonly index = new MarketIndex();

  constructor(seed: number, count: number) {
    this.builder = new MarketBuilder({ seed, count });
    this.established = this.builder.build();
    for (const t of this.established) this.index.add(t);
  }

  /** Fresh token `k`, built on first ask. */
  freshToken(k: number): SandboxToken {
    while (this.fresh.length <= k) {
      const t = this.builder.fresh(this.fresh.length);
      this.fresh.push(t);
      this.index.add(t);
    }
    return this.fresh[k] as SandboxToken;
  }
}

/** A handful of seeds and counts are in use at once; a blueprint is a few MiB. */
const blueprints = new LRUCache<string, Blueprint>({ max: 4 });

function blueprintOf(seed: number, count: number): Blueprint {
  const key = `${seed}:${count}`;
  let found = blueprints.get(key);
  if (found === undefined) {
    found = new Blueprint(seed, count);
    blueprints.set(key, found);
  }
  return found;
}

/**
 * One market's own copies of a blueprint's tokens and pairs. A pair's quote is an established
 * main token, so established copies are made before any pair is.
 */
export class TokenCopies {
  private readonly blueprint: Blueprint;
  private readonly copies = new Map<SandboxToken, SandboxToken>();

  constructor(seed: number, count: number) {
    this.blueprint = blueprintOf(seed, count);
  }

  /** The lookups of the blueprint, by position in the order `established` then `fresh(0)`, `fresh(1)`, … hand out. */
  get index(): MarketIndex {
    return this.blueprint.index;
  }

  /** The established tokens, with their pairs. */
  established(): SandboxToken[] {
    const tokens = this.blueprint.established.map((t) => this.copyToken(t));
    for (const t of tokens) this.copyPairs(t);
    return tokens;
  }

  /** Fresh token `k`, with its pairs. */
  fresh(k: number): SandboxToken {
    const copy = this.copyToken(this.blueprint.freshToken(k));
    this.copyPairs(copy);
    return copy;
  }

  /**
   * Field by field, as the builder makes them: V8 gives an object copied by rest and spread slow
   * (dictionary) properties. A blueprint's token has no moves: only a market's copies are moved.
   */
  private copyToken(t: SandboxToken): SandboxToken {
    const c: SandboxToken = {
      id: t.id, address: t.address, chain: t.chain, chainDef: t.chainDef, symbol: t.symbol, name: t.name,
      decimals: t.decimals, supply: t.supply, circulating: t.circulating, basePrice: t.basePrice,
      volatility: t.volatility, volumeRate: t.volumeRate, tradeSize: t.tradeSize, liquidity: t.liquidity,
      launchAt: t.launchAt, key: t.key, priceKey: t.priceKey, main: t.main, stable: t.stable, tags: t.tags, risk: t.risk,
      listed: t.listed, holders: t.holders, holdersHidden: t.holdersHidden, topShare: t.topShare, pairs: t.pairs,
    };
    if (t.hostile) c.hostile = t.hostile;
    this.copies.set(t, c);
    return c;
  }

  /** Replaces the copy's pairs (still the blueprint's) by copies that point at this market's tokens. */
  private copyPairs(c: SandboxToken): void {
    c.pairs = c.pairs.map((p): SandboxPair => ({
      id: p.id, address: p.address, chain: p.chain, amm: p.amm, target: c, quote: this.own(p.quote),
      liquidity: p.liquidity, share: p.share, spread: p.spread, createdAt: p.createdAt, fee: p.fee, isFake: p.isFake, key: p.key,
    }));
  }

  private own(t: SandboxToken): SandboxToken {
    const c = this.copies.get(t);
    if (c === undefined) throw new Error(`sandbox: ${t.id} quoted before it was copied`);
    return c;
  }
}
