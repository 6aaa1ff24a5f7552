import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { NOW, TIME } from "./helpers.js";

// The demo market must look like a market: a trader who sees SHIB at $1.68 stops trusting
// everything else on the screen.

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ time: TIME });
});
afterAll(async () => {
  await sb.close();
});

const price = (t: SandboxToken) => sb.market.snapshot(t, NOW).price;
const home = (symbol: string, chain: string) => {
  const t = sb.market.bySymbol(symbol).find((x) => x.chain === chain && x.risk === "clean");
  if (t === undefined) throw new Error(`no ${symbol} on ${chain}`);
  return t;
};

describe("the demo market's famous tokens", () => {
  // Real prices of late 2025, and how far the demo may stray: within a factor of 3.
  it.each([
    ["SHIB", "eth", 1.4e-5], ["PEPE", "eth", 1e-5], ["AAVE", "eth", 200], ["WIF", "solana", 0.6], ["BONK", "solana", 2e-5],
    ["LINK", "eth", 14], ["WETH", "eth", 3200], ["WBTC", "eth", 92_000], ["SOL", "solana", 145], ["USDT", "eth", 1],
  ] as const)("price %s on %s near its real order of magnitude", (symbol, chain, real) => {
    const p = price(home(symbol, chain));
    expect(p).toBeGreaterThan(real / 3);
    expect(p).toBeLessThan(real * 3);
  });

  it.each(["WETH", "USDC", "USDT", "PEPE", "LINK", "AAVE"])("keeps %s on every chain within 1%% of each other, at any hour", (symbol) => {
    const copies = sb.market.bySymbol(symbol).filter((t) => t.main || t.risk === "clean");
    expect(new Set(copies.map((t) => t.chain)).size).toBeGreaterThan(1);
    for (const hours of [0, 7, 30, 24 * 40]) {
      const ps = copies.map((t) => sb.market.snapshot(t, NOW - hours * 3600).price);
      expect(Math.max(...ps) / Math.min(...ps)).toBeLessThan(1.01);
    }
  });
});
