import { describe, expect, it } from "vitest";
import { formatPriceDefault, formatTime, formatVolume } from "../../src/chart/format.js";
import { cleanText, truncate } from "../../src/chart/text.js";
import { layoutChart } from "../../src/chart/layout.js";

describe("formatPriceDefault", () => {
  it.each([
    [0.000001234, "$0.0₅1234"],
    [1.2345e-10, "$0.0₉1234"],
    [0.001234, "$0.001234"],
    [0.00099999, "$0.001"],
    [1.23456, "$1.235"],
    [12345.6, "$12,346"],
    [1234567, "$1.235M"],
    [2e16, "$2.00e+16"],
    [0, "$0"],
    [-0.5, "-$0.5"],
    [NaN, "–"],
  ])("writes %d as %s", (price, text) => {
    expect(formatPriceDefault(price)).toBe(text);
  });

  it("keeps a fixed number of decimals for axis labels", () => {
    expect([0.96, 1, 1.02].map((p) => formatPriceDefault(p, { decimals: 2 }))).toEqual(["$0.96", "$1.00", "$1.02"]);
  });

  it("keeps a fixed number of decimals in the tiny-price notation, subscripted zeros included", () => {
    expect([0.0000044, 0.000005, 0.00000052].map((p) => formatPriceDefault(p, { decimals: 7 }))).toEqual(["$0.0₅44", "$0.0₅50", "$0.0₆5"]);
    expect(formatPriceDefault(0.0027, { decimals: 5 })).toBe("$0.00270");
  });
});

describe("formatVolume and formatTime", () => {
  it("writes volumes compactly", () => {
    expect([950, 12_345, 4.56e6, 0, NaN].map(formatVolume)).toEqual(["950", "12.3K", "4.56M", "0", "0"]);
  });

  it("writes times in UTC as clock, day, month or year", () => {
    const t = Date.UTC(2026, 10, 22, 9, 5) / 1000;
    expect((["clock", "day", "month", "year"] as const).map((k) => formatTime(t, k))).toEqual(["09:05", "Nov 22", "Nov 2026", "2026"]);
  });
});

describe("cleanText", () => {
  it("removes controls, bidi overrides and zero-width characters and collapses whitespace", () => {
    expect(cleanText("a\u0000b\u202ec\u2067d\u200be\ufeff\n\n f\ud800")).toBe("abcde f");
  });

  it("cuts by code points without splitting a surrogate pair", () => {
    expect(truncate("😀😀😀😀", 3)).toBe("😀😀…");
  });
});

describe("one notation on one axis", () => {
  it("writes the leading zeros it is given, padding the digits: 0.0₄08 beside 0.0₄16, not 0.0₅8", () => {
    expect(formatPriceDefault(8e-6, { decimals: 6, zeros: 4 })).toBe("$0.0₄08");
    expect(formatPriceDefault(1.6e-5, { decimals: 6, zeros: 4 })).toBe("$0.0₄16");
    expect(formatPriceDefault(8e-6, { decimals: 6 })).toBe("$0.0₅8");
  });

  it("labels a linear axis across a decade of tiny prices, and its last price, with one count of zeros", () => {
    const candles = Array.from({ length: 30 }, (_, i) => {
      const p = 6e-6 + i * 3.5e-7;
      return { time: 1_795_305_600 + i * 3600, open: p, high: p * 1.01, low: p * 0.99, close: p * 1.005, volume: 10 };
    });
    const layout = layoutChart({ title: "T", candles, intervalMinutes: 60 });
    const zeros = [...layout.priceTicks, layout.last!].map((t) => /^\$0\.0([₀-₉]+)/.exec(t.label)?.[1]);
    expect(layout.priceTicks.length).toBeGreaterThanOrEqual(3);
    expect(new Set(zeros).size).toBe(1);
  });
});
