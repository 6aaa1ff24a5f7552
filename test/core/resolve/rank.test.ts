import { describe, expect, it } from "vitest";
import { rankByLiquidity } from "../../../src/core/resolve/rank.js";
import type { TokenV2 } from "../../../src/market/schemas.js";

const row = (symbol: string, tvl?: string, volume?: string): TokenV2 => ({
  token: `0x${"0".repeat(40)}`, chain: "bsc", symbol, main_pair_tvl: tvl, tx_volume_u_24h: volume,
});

describe("rankByLiquidity", () => {
  it("orders by main-pair TVL, then by 24h volume", () => {
    const ranked = rankByLiquidity([row("A", "100", "5"), row("B", "900"), row("C", "100", "50"), row("D", "100.5")]);
    expect(ranked.map((t) => t.symbol)).toEqual(["B", "D", "C", "A"]);
  });

  it("compares 40-digit TVLs exactly, where floats would call them equal", () => {
    const ranked = rankByLiquidity([
      row("LOW", "1234567890123456789012345.0000000000000001"),
      row("HIGH", "1234567890123456789012345.0000000000000002"),
    ]);
    expect(ranked.map((t) => t.symbol)).toEqual(["HIGH", "LOW"]);
  });

  it("counts absurd, negative, missing and garbage figures as zero so a hostile row cannot win", () => {
    const ranked = rankByLiquidity([
      row("HUGE", "1e400"), row("NEG", "-99999999"), row("NAN", "NaN"), row("EMPTY", ""), row("NONE"), row("REAL", "10"),
    ]);
    expect(ranked[0]?.symbol).toBe("REAL");
  });
});
