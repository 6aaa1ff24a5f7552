/**
 * Builds the synthetic market from a seed: in one pass the established tokens (main tokens
 * per chain, well-known tokens and their clones, the hostile set and generated tokens to fill
 * the count), then on demand the fresh launches, one every few hours from GENESIS on, each
 * from its own generator so that token k is the same whenever it is built. Every token gets
 * pairs on the chain's swap venues. Seed-independent addresses for the named tokens keep demos
 * and hostile ids stable; the rest follows the seed.
 */
import { CHAINS, type ChainDef } from "./chains.js";
import { CLONES, FAMOUS, REAL_ADDRESSES, REAL_MAIN_PAIRS } from "./famous.js";
import { HOSTILE_TOKENS, type HostileToken } from "./hostile.js";
import { Rng, evmAddress, hash32, hashString, solanaAddress, tronAddress } from "./rng.js";
import { RISK_PROFILES, type RiskProfile, type SandboxPair, type SandboxToken, type Tag } from "./types.js";

const DAY = 86_400;

/**
 * Epoch seconds (2026-01-01 UTC) the established tokens' ages count back from and the fresh
 * launches start at: fixed, so a market's history does not depend on the day it was started.
 */
export const GENESIS = 1_767_225_600;
/** One fresh launch in each slot of this many seconds from GENESIS on. */
export const LAUNCH_GAP = 6 * 3_600;

/** Epoch seconds fresh token `k` launches at: somewhere in its slot, so launches come in order. */
export function freshLaunchAt(seed: number, k: number): number {
  return GENESIS + k * LAUNCH_GAP + (hash32(seed, 0x1a0c, k) % LAUNCH_GAP);
}

export interface BuildOptions {
  seed: number;
  /** Established tokens, at least the named ones. */
  count: number;
}

/** `asset`: the copies of one asset on several chains share its price walk (see `priceKey`). */
type TokenSeed = Omit<SandboxToken, "id" | "key" | "priceKey" | "pairs" | "chainDef" | "hostile"> & { hostile?: HostileToken; asset?: string };

/** Most a copy of an asset on another chain sits from its price: bridges and arbitrage keep it close. */
const COPY_SPREAD = 0.004;

/** A fixed offset of `chain`'s copy of `asset` from the asset's price, within ±COPY_SPREAD (a tenth of it for stablecoins). */
function copySpread(chain: string, asset: string, stable: boolean): number {
  const unit = hashString(`spread:${chain}:${asset}`) / 4294967296;
  return (unit * 2 - 1) * COPY_SPREAD * (stable ? 0.1 : 1);
}

function addressFor(chain: ChainDef, ...key: number[]): string {
  if (chain.family === "solana") return solanaAddress(...key);
  if (chain.family === "tron") return tronAddress(...key);
  return evmAddress(...key);
}

const SYLLABLES = ["ba", "zo", "ki", "mu", "ra", "te", "lo", "ny", "qu", "vex", "dra", "pi", "so", "fu", "gle", "mo", "ta", "xi", "ze", "hop", "cat", "dog", "sun", "moo", "neo", "zen"];
const SUFFIX: Record<Tag | "none", readonly string[]> = {
  meme: ["INU", "DOG", "CAT", "PEPE", "MOON", "FROG"],
  ai: ["AI", "GPT", "BOT"],
  depin: ["NET", "NODE"],
  gamefi: ["GAME", "QUEST"],
  rwa: ["RWA", "GOLD"],
  l2: ["L2", "ROLL"],
  none: ["", "", "X", "FI", "SWAP"],
};
const NAME_TAIL: Record<Tag | "none", string> = {
  meme: "Inu", ai: "AI", depin: "Network", gamefi: "Games", rwa: "Real Assets", l2: "Layer 2", none: "Protocol",
};

export class MarketBuilder {
  private readonly rng: Rng;
  private readonly tokens: SandboxToken[] = [];
  private readonly usedSymbols: string[] = [];
  /** Tokens listed on every venue of their chain (main and well-known ones). */
  private readonly everyVenue = new Set<string>();
  private readonly quotes = new Map<string, { native?: SandboxToken; stable?: SandboxToken }>();
  /** Chains weighted by their share of generated tokens. */
  private readonly weightedChains = CHAINS.flatMap((c) => Array<ChainDef>(Math.round(c.weight * 100)).fill(c));

  constructor(private readonly opts: BuildOptions) {
    this.rng = new Rng(opts.seed);
  }

  /** The established tokens, all launched before GENESIS. */
  build(): SandboxToken[] {
    for (const chain of CHAINS) this.addMainTokens(chain);
    this.addFamous();
    for (const h of HOSTILE_TOKENS) this.addHostile(h);
    for (let i = 0; this.tokens.length < this.opts.count; i++) this.add(this.generated(this.rng, this.rng.pick(this.weightedChains), [this.opts.seed, i, 7], undefined));
    for (const t of this.tokens) {
      if (!t.main) continue;
      const q = this.quotes.get(t.chain) ?? {};
      if (t.chainDef.main.find((m) => m.symbol === t.symbol)?.native) q.native = t;
      else if (t.stable) q.stable ??= t;
      this.quotes.set(t.chain, q);
    }
    for (const t of this.tokens) this.attachPairs(t, this.rng);
    return this.tokens;
  }

  /** Fresh token `k` (0, 1, ... from GENESIS on), with its pairs; call after build(). */
  fresh(k: number): SandboxToken {
    const r = new Rng(hash32(this.opts.seed, 0xf2e5, k));
    const token = this.make(this.generated(r, r.pick(this.weightedChains), [this.opts.seed, k, 8], freshLaunchAt(this.opts.seed, k)));
    this.attachPairs(token, r);
    return token;
  }

  private attachPairs(t: SandboxToken, r: Rng): void {
    const q = this.quotes.get(t.chain);
    if (t.liquidity > 0 && q?.native && q.stable) t.pairs = this.pairsFor(t, q.native, q.stable, r);
  }

  private addMainTokens(chain: ChainDef): void {
    for (const m of chain.main) {
      // Deeper on the big chains: WETH on polygon is not deeper than WETH on eth.
      const depth = chain.weight / 0.2;
      const liquidity = (m.native || m.stable ? this.rng.logUniform(2e8, 2e9) : this.rng.logUniform(2e7, 2e8)) * depth;
      const supply = m.stable ? this.rng.logUniform(5e8, 5e10) : this.rng.logUniform(1e6, 5e8);
      this.add({
        address: REAL_ADDRESSES.get(`${chain.chain}:${m.symbol}`) ?? addressFor(chain, hashString(`main:${chain.chain}:${m.symbol}`)),
        chain: chain.chain, asset: m.symbol,
        symbol: m.symbol, name: m.name, decimals: m.decimals, supply, circulating: 1,
        basePrice: m.price * (1 + copySpread(chain.chain, m.symbol, m.stable === true)), volatility: m.stable ? 0.0008 : 0.035,
        volumeRate: (liquidity * this.rng.logUniform(0.3, 2)) / DAY, tradeSize: 5_000, liquidity,
        launchAt: GENESIS - this.rng.int(900, 2_500) * DAY, main: true, stable: m.stable === true,
        tags: [], risk: "clean", listed: true, holders: this.rng.int(300_000, 5_000_000),
        holdersHidden: m.native === true || m.stable === true, topShare: this.rng.next() * 0.3 + 0.3,
      });
    }
  }

  private addFamous(): void {
    for (const f of FAMOUS) {
      for (const [n, chain] of f.chains.entries()) {
        const def = CHAINS.find((c) => c.chain === chain);
        if (!def) continue;
        // One address on every EVM chain, as CREATE2 deployments have: an address alone is ambiguous.
        const evmHome = f.evmAddress ?? REAL_ADDRESSES.get(`${f.chains[0]}:${f.symbol}`);
        const address =
          REAL_ADDRESSES.get(`${chain}:${f.symbol}`) ??
          (def.family === "evm" && evmHome !== undefined
            ? evmHome
            : addressFor(def, hashString(`famous:${def.family === "evm" ? "evm" : chain}:${f.symbol}`)));
        this.everyVenue.add(`${address}-${chain}`);
        // Copies on other chains: a sliver of the supply bridged over, at the same price.
        const cap = n === 0 ? f.cap : f.cap * this.rng.logUniform(0.005, 0.05);
        const meme = f.tags.includes("meme");
        const circulating = this.rng.next() * 0.4 + 0.6;
        const supply = cap / f.price / circulating;
        const liquidity = cap * this.rng.logUniform(0.005, 0.03);
        this.add({
          address, chain, symbol: f.symbol, name: f.name, asset: f.symbol,
          decimals: def.family === "evm" ? 18 : 9, supply, circulating,
          basePrice: f.price * (1 + copySpread(chain, f.symbol, false)), volatility: meme ? 0.09 : 0.045,
          volumeRate: (liquidity * this.rng.logUniform(0.5, 4)) / DAY, tradeSize: 800, liquidity,
          launchAt: GENESIS - this.rng.int(200, 1_500) * DAY, main: false, stable: false,
          tags: f.tags, risk: "clean", listed: n === 0, holders: this.rng.int(20_000, 900_000),
          holdersHidden: false, topShare: this.rng.next() * 0.3 + 0.2,
        });
      }
    }
    for (const [n, c] of CLONES.entries()) {
      const def = CHAINS.find((d) => d.chain === c.chain);
      const real = this.tokens.find((t) => t.chain === c.chain && t.symbol === c.symbol);
      if (!def || !real) continue;
      const supply = this.rng.logUniform(1e9, 1e15);
      this.add({
        address: addressFor(def, hashString(`clone:${n}:${c.chain}:${c.symbol}`)), chain: c.chain, symbol: c.symbol,
        name: real.name, decimals: real.decimals, supply, circulating: 1,
        basePrice: (c.liquidity * this.rng.logUniform(1, 6)) / supply, volatility: 0.25,
        volumeRate: (c.liquidity * this.rng.logUniform(0.1, 3)) / DAY, tradeSize: 60, liquidity: c.liquidity,
        launchAt: GENESIS - this.rng.int(1, 120) * 3_600, main: false, stable: false, tags: real.tags,
        risk: c.risk, listed: false, holders: this.rng.int(5, 400), holdersHidden: false,
        topShare: c.risk === "concentrated" ? 0.92 : this.rng.next() * 0.3 + 0.6,
      });
    }
  }

  private addHostile(h: HostileToken): void {
    const def = CHAINS.find((c) => c.chain === h.chain);
    if (!def) throw new Error(`hostile token on unknown chain ${h.chain}`);
    const liquidity = h.noMarket ? 0 : this.rng.logUniform(5_000, 500_000);
    const supply = 1e9;
    this.add({
      address: h.address, chain: h.chain, symbol: h.symbol, name: h.name, decimals: def.family === "evm" ? 18 : 6,
      supply, circulating: 1, basePrice: h.fixedPrice ?? (liquidity * 5) / supply,
      volatility: h.fixedPrice !== undefined ? 0 : 0.08,
      volumeRate: h.noMarket ? 0 : liquidity / DAY, tradeSize: 200, liquidity,
      launchAt: GENESIS - this.rng.int(3, 60) * DAY, main: false, stable: false, tags: ["meme"],
      risk: "clean", listed: false, holders: h.noMarket ? 0 : this.rng.int(50, 5_000), holdersHidden: false,
      topShare: 0.5, hostile: h,
    });
  }

  /**
   * A generated token: established (launched before GENESIS) when `launchAt` is undefined,
   * else a fresh launch, small and volatile. Fresh ones only read the symbol list, so that
   * each stays independent of which others were built.
   */
  private generated(r: Rng, chain: ChainDef, addressKey: number[], launchAt: number | undefined): TokenSeed {
    const tag: Tag | "none" = r.chance(0.4) ? "meme" : r.chance(0.45) ? "none" : r.pick(["ai", "depin", "gamefi", "rwa", "l2"] as const);
    const fresh = launchAt !== undefined;
    let symbol: string;
    if (this.usedSymbols.length > 50 && r.chance(0.12)) symbol = r.pick(this.usedSymbols);
    else {
      let base = "";
      for (let k = r.int(1, 2); k > 0; k--) base += r.pick(SYLLABLES);
      symbol = (base + r.pick(SUFFIX[tag])).toUpperCase().slice(0, 10);
      if (!fresh) this.usedSymbols.push(symbol);
    }
    const word = symbol.charAt(0) + symbol.slice(1).toLowerCase();
    const liquidity = fresh ? r.logUniform(200, 80_000) : r.logUniform(300, 8e6);
    const meme = tag === "meme";
    const supply = meme ? r.logUniform(1e8, 1e15) : r.logUniform(1e6, 1e10);
    const circulating = r.next() * 0.7 + 0.3;
    const cap = liquidity * r.logUniform(2, 40);
    const risk: RiskProfile = r.chance(0.45) ? "clean" : r.pick(RISK_PROFILES);
    return {
      address: addressFor(chain, ...addressKey), chain: chain.chain, symbol, name: `${word} ${NAME_TAIL[tag]}`,
      decimals: chain.family === "evm" ? r.pick([18, 18, 18, 9, 6]) : r.pick([6, 9]),
      supply, circulating, basePrice: cap / (supply * circulating),
      volatility: fresh ? r.logUniform(0.15, 0.5) : meme ? r.logUniform(0.06, 0.3) : r.logUniform(0.02, 0.12),
      volumeRate: (liquidity * r.logUniform(0.02, fresh ? 8 : 2)) / DAY, tradeSize: Math.min(20_000, Math.max(20, liquidity * 0.0005)),
      liquidity,
      launchAt: launchAt ?? GENESIS - Math.round(r.logUniform(7 * DAY, 4 * 365 * DAY)),
      main: false, stable: false, tags: tag === "none" ? [] : [tag], risk, listed: risk === "clean" && liquidity > 1e6,
      holders: Math.round(20 + Math.pow(liquidity, 0.55) * r.logUniform(0.3, 3)), holdersHidden: r.chance(0.03),
      topShare: risk === "concentrated" ? 0.93 : r.next() * 0.55 + 0.25,
    };
  }

  private add(seed: TokenSeed): void {
    this.tokens.push(this.make(seed));
  }

  /**
   * Field by field rather than by rest and spread: V8 gives an object copied that way slow
   * (dictionary) properties, and thousands of them cost the sandbox's start most of its time.
   */
  private make(seed: TokenSeed): SandboxToken {
    const chainDef = CHAINS.find((c) => c.chain === seed.chain);
    if (!chainDef) throw new Error(`unknown chain ${seed.chain}`);
    const id = `${seed.address}-${seed.chain}`;
    const key = hash32(this.opts.seed, hashString(id));
    const priceKey = seed.asset === undefined ? key : hash32(this.opts.seed, hashString(`asset:${seed.asset}`));
    const token: SandboxToken = {
      id, address: seed.address, chain: seed.chain, chainDef, symbol: seed.symbol, name: seed.name,
      decimals: seed.decimals, supply: seed.supply, circulating: seed.circulating, basePrice: seed.basePrice,
      volatility: seed.volatility, volumeRate: seed.volumeRate, tradeSize: seed.tradeSize, liquidity: seed.liquidity,
      launchAt: seed.launchAt, key, priceKey, main: seed.main, stable: seed.stable, tags: seed.tags, risk: seed.risk,
      listed: seed.listed, holders: seed.holders, holdersHidden: seed.holdersHidden, topShare: seed.topShare, pairs: [],
    };
    if (seed.hostile) token.hostile = seed.hostile;
    return token;
  }

  /**
   * Pairs against the native coin first, then a stablecoin (the native coin pairs with the
   * stablecoin). An established token's pairs all exist by GENESIS; a fresh one opens its
   * first pair at launch and the others within two days.
   */
  private pairsFor(token: SandboxToken, native: SandboxToken, stable: SandboxToken, r: Rng): SandboxPair[] {
    const chain = token.chainDef;
    const quotes = token === native ? [stable] : token === stable ? [native] : [native, stable];
    const max = Math.min(3, chain.amms.length);
    const count = token.main || this.everyVenue.has(token.id) ? max : r.int(1, max);
    const weights = Array.from({ length: count }, (_, j) => (j === 0 ? 3 + r.next() * 6 : r.next() + 0.2));
    const total = weights.reduce((a, b) => a + b, 0);
    return weights.map((w, j) => {
      const address = (j === 0 ? REAL_MAIN_PAIRS[token.id] : undefined) ?? addressFor(chain, token.key, 31, j);
      return {
        id: `${address}-${chain.chain}`, address, chain: chain.chain, amm: chain.amms[j] as string,
        target: token, quote: quotes[j % quotes.length] as SandboxToken, liquidity: (token.liquidity * w) / total,
        share: w / total, spread: j === 0 ? 0 : (r.next() - 0.5) * 0.008,
        createdAt: token.launchAt >= GENESIS ? token.launchAt + j * r.int(60, 2 * DAY) : Math.min(token.launchAt + j * r.int(60, 30 * DAY), GENESIS), fee: r.pick(["0.003", "0.0025", "0.003", ""]),
        isFake: token.risk === "honeypot" && j > 0, key: hash32(token.key, 77, j),
      };
    });
  }
}
