import { describe, expect, it } from "vitest";
import { MarketBuilder, freshLaunchAt } from "../../src/sandbox/build.js";
import { Market } from "../../src/sandbox/market.js";
import type { SandboxPair, SandboxToken } from "../../src/sandbox/types.js";
import { NOW, TIME } from "./helpers.js";

/** A pair as data, its tokens by id: what a market serves of it. */
const pairData = (p: SandboxPair) => ({ ...p, target: p.target.id, quote: p.quote.id });
const tokenData = (t: SandboxToken) => ({ ...t, pairs: t.pairs.map(pairData) });

describe("markets built from the process's one build of a seed", () => {
  it("hold the tokens and pairs a build of their own makes, fresh launches included", () => {
    const builder = new MarketBuilder({ seed: 5, count: 300 });
    const built = builder.build();
    for (let k = 0; freshLaunchAt(5, k) <= NOW; k++) built.push(builder.fresh(k));
    new Market({ seed: 5, count: 300, openedAt: TIME });
    const market = new Market({ seed: 5, count: 300, openedAt: TIME });
    expect(market.tokens.length).toBe(built.length);
    expect(market.tokens.map(tokenData)).toEqual(built.map(tokenData));
  });

  it("each have their own tokens and pairs, pointing at one another: a price moved in one leaves the other as it was", () => {
    const a = new Market({ seed: 6, count: 300, openedAt: TIME });
    const b = new Market({ seed: 6, count: 300, openedAt: TIME });
    const tokenA = a.bySymbol("PEPE")[0]!;
    const tokenB = b.bySymbol("PEPE")[0]!;
    expect(tokenA).not.toBe(tokenB);
    for (const p of a.pairs) {
      expect(a.token(p.target.id)).toBe(p.target);
      expect(a.token(p.quote.id)).toBe(p.quote);
    }
    const before = b.priceAt(tokenB, NOW);
    a.movePrice(tokenA, { fromMinute: Math.floor(NOW / 60) - 5, toMinute: Math.floor(NOW / 60) + 5, factor: 3 });
    expect(a.priceAt(tokenA, NOW)).toBeCloseTo(before * 3, 9);
    expect(b.priceAt(tokenB, NOW)).toBe(before);
    expect(new Market({ seed: 6, count: 300, openedAt: TIME }).priceAt(tokenB, NOW)).toBe(before);
  });

  it("share one index, each finding its own copies and only the launches it has reached", () => {
    const later = new Market({ seed: 7, count: 300, openedAt: TIME });
    later.reach(NOW + 30 * 86_400);
    const earlier = new Market({ seed: 7, count: 300, openedAt: TIME });
    const unseen = later.tokens.slice(earlier.tokens.length);
    expect(unseen.length).toBeGreaterThan(0);
    for (const t of unseen) {
      expect(later.token(t.id)).toBe(t);
      expect(earlier.token(t.id)).toBeUndefined();
      expect(earlier.bySymbol(t.symbol)).not.toContainEqual(expect.objectContaining({ id: t.id }));
      for (const p of t.pairs) expect(earlier.pair(p.id)).toBeUndefined();
    }
    for (const m of [earlier, later]) {
      const bySymbol = new Map<string, SandboxToken[]>();
      for (const t of m.tokens) {
        expect(m.token(t.id)).toBe(t);
        if (t.chainDef.family === "evm") expect(m.token(`${t.address.toUpperCase()}-${t.chain}`)).toBe(t);
        expect(m.tokensAt(t.address)).toContain(t);
        expect(m.onChain(t.chain)).toContain(t);
        bySymbol.set(t.symbol.toLowerCase(), [...(bySymbol.get(t.symbol.toLowerCase()) ?? []), t]);
      }
      // Most liquid first, ties in build order (a stable sort of the build order).
      for (const [symbol, same] of bySymbol) expect(m.bySymbol(symbol)).toEqual([...same].sort((a, b) => b.liquidity - a.liquidity));
      for (const p of m.pairs) {
        expect(m.pair(p.id)).toBe(p);
        expect(m.pairsAt(p.address)).toContain(p);
      }
    }
    // The earlier market reaches the same launches on its own clock, as its own copies.
    earlier.reach(NOW + 30 * 86_400);
    expect(earlier.tokens.length).toBe(later.tokens.length);
    expect(earlier.token(unseen[0]!.id)).not.toBe(unseen[0]);
    expect(earlier.token(unseen[0]!.id)?.id).toBe(unseen[0]!.id);
  });
});
