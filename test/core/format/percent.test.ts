import { describe, expect, it } from "vitest";
import { formatPercent, formatRatio } from "../../../src/core/format/index.js";

describe("formatPercent", () => {
  it.each([
    ["3.2", "▲ +3.20%"],
    ["-1.5", "▼ −1.50%"],
    ["0", "0.00%"],
    ["-0", "0.00%"],
    ["0.004", "0.00%"],
    ["-0.004", "0.00%"],
    ["1234.567", "▲ +1,234.57%"],
    ["52100", "▲ +52.1K%"],
    ["-99.99", "▼ −99.99%"],
    ["2500000", "▲ +2.5M%"],
    [12.5, "▲ +12.50%"],
  ] as const)("writes change %j as %s", (input, shown) => {
    expect(formatPercent(input)).toBe(shown);
  });

  it("writes a compact change in Chinese with 万, never an English K", () => {
    expect(formatPercent("52100", { locale: "zh" })).toBe("▲ +5.21万%");
    expect(formatPercent("1234.567", { locale: "zh" })).toBe("▲ +1,234.57%");
  });

  it("leaves the arrow out when asked", () => {
    expect(formatPercent("-1.5", { arrow: false })).toBe("−1.50%");
  });

  it.each(["", "NaN", "Infinity", "1e400", "1e12", "9".repeat(80), "up"])("shows change %j as a dash", (input) => {
    expect(formatPercent(input)).toBe("—");
  });
});

describe("formatRatio", () => {
  it.each([
    ["0.123", "12.3%"],
    ["0.5", "50.0%"],
    ["1", "100.0%"],
    ["1.0000001", "100.0%"],
    ["0.99999", "100.0%"],
    ["0", "0%"],
    ["-0", "0%"],
    ["0.0000004", "<0.1%"],
    [0.0456, "4.6%"],
  ] as const)("writes fraction %j as %s", (input, shown) => {
    expect(formatRatio(input)).toBe(shown);
  });

  it.each(["1.5", "-0.2", "69", "", "NaN", "Infinity", "1e400"])("shows out-of-range fraction %j as a dash", (input) => {
    expect(formatRatio(input)).toBe("—");
  });
});
