import { describe, expect, it } from "vitest";
import { createSuggestionIndex } from "../../src/core/suggest.js";
import type { TokenV2 } from "../../src/market/schemas.js";

const token = (symbol: string, name: string, address: string): TokenV2 =>
  ({ token: address, chain: "bsc", symbol, name, current_price_usd: "1", tvl: "50000" }) as TokenV2;

describe("token suggestions", () => {
  it("find a symbol the way people type it, markup and mentions included", () => {
    const index = createSuggestionIndex();
    index.note([token("@everyone", "ping", "0x1111111111111111111111111111111111111111"), token("<b>HTML</b>", "bold", "0x2222222222222222222222222222222222222222")]);
    expect(index.suggest("@ev").map((c) => c.value)).toEqual(["0x1111111111111111111111111111111111111111-bsc"]);
    expect(index.suggest("<b>").map((c) => c.value)).toEqual(["0x2222222222222222222222222222222222222222-bsc"]);
  });

  it("label a choice in the reader's language", () => {
    const index = createSuggestionIndex();
    index.note([{ ...token("PEPE", "Pepe", "0x3333333333333333333333333333333333333333"), tvl: "43500000" }]);
    expect(index.suggest("pepe")[0]?.name).toBe("PEPE · Pepe · bsc · $43.5M · 0x3333…3333");
    expect(index.suggest("pepe", 25, "zh")[0]?.name).toBe("PEPE · Pepe · bsc · $4350万 · 0x3333…3333");
  });
});
