import { describe, expect, it } from "vitest";
import { formatAmount, formatCount, formatExactAmount, formatExactUsd, formatPrice, formatPriceBeside, formatUsd, formatUsdWhole } from "../../../src/core/format/index.js";

const EIGHTY_DIGITS = "9".repeat(80);

describe("formatPrice", () => {
  it.each([
    ["1.23", "$1.23"],
    ["12345.67", "$12,345.67"],
    ["0.5432", "$0.5432"],
    ["0.5", "$0.50"],
    ["0.001234", "$0.001234"],
    ["0.0001234", "$0.0001234"],
    ["0.00001234", "$0.0₄1234"],
    ["0.000001234", "$0.0₅1234"],
    ["0.000000000000001234", "$0.0₁₄1234"],
    ["0.00000123456789", "$0.0₅1235"],
    ["1.234e-9", "$0.0₈1234"],
    ["0.99996", "$1.00"],
    ["999999.999", "$1M"],
    ["1234567.89", "$1.23M"],
    ["98765432109876543210.5", "$9.88×10¹⁹"],
    ["987654321098765432", "$988,000T"],
    ["0", "$0.00"],
    ["-0", "$0.00"],
    ["  2.5 ", "$2.50"],
    [0.000001234, "$0.0₅1234"],
    [1e-7, "$0.0₆1"],
  ] as const)("writes %j as %s", (input, shown) => {
    expect(formatPrice(input)).toBe(shown);
  });

  it.each([
    "", "NaN", "Infinity", "-Infinity", "1e400", "1e30", EIGHTY_DIGITS, "-1.5", "abc", "1.2.3", "0x10",
    ".", "e5", "1e", "1,000", "１２", "1e9999999",
  ])("shows %j as a dash", (input) => {
    expect(formatPrice(input)).toBe("—");
  });

  it("shows undefined, NaN and Infinity numbers as a dash", () => {
    expect([formatPrice(undefined), formatPrice(NaN), formatPrice(Infinity)]).toEqual(["—", "—", "—"]);
  });

  it("keeps every digit of a 40-digit decimal string that a float would round", () => {
    expect(formatPrice("0.0000000123456789012345678901234567890123")).toBe("$0.0₇1235");
    expect(formatPrice("12345.674999999999999999999999")).toBe("$12,345.67");
  });
});

describe("formatUsdWhole", () => {
  it.each([
    ["1234.5", "$1,235"],
    ["999.6", "$1,000"],
    ["8120", "$8,120"],
    ["12345678.9", "$12,345,679"],
    ["999", "$999"],
    ["52.44", "$52.4"],
    ["0.5", "$0.50"],
    ["0", "$0"],
    ["1200000000000", "$1.2T"],
    ["-5", "—"],
    ["NaN", "—"],
  ] as const)("writes a trade of %j as %s", (input, shown) => {
    expect(formatUsdWhole(input)).toBe(shown);
  });
});

describe("formatExactUsd", () => {
  it.each([
    ["100", "$100"],
    ["12.4", "$12.40"],
    ["9973.256", "$9,973.26"],
    ["99.999", "$100"],
    ["0.5", "$0.50"],
    ["0.00001234", "$0.00001234"],
    ["0.000000000000008272", "$0.000000000000008272"],
    ["0.000000000000000000000123", "$0.0₂₁123"],
    ["0", "$0"],
    ["12345678", "$12.35M"],
    ["999999.996", "$1M"],
    ["-5", "—"],
    ["NaN", "—"],
  ] as const)("writes a converted %j as %s", (input, shown) => {
    expect(formatExactUsd(input)).toBe(shown);
  });
});

describe("formatExactAmount", () => {
  it.each([
    ["1234.5", "1,234.5"],
    ["0.0300318123", "0.0300318"],
    ["100.0432", "100.043"],
    ["1500000", "1.5M"],
    ["999999.9", "1M"],
    ["0.000000001234567", "0.00000000123457"],
    ["0.000000001", "0.000000001"],
    ["0.9999999", "1"],
    ["0", "0"],
    ["-1", "—"],
  ] as const)("writes a converted %j as %s", (input, shown) => {
    expect(formatExactAmount(input)).toBe(shown);
  });

  it("writes millions in Chinese with 万 and 亿", () => {
    expect(formatExactAmount("1500000", { locale: "zh" })).toBe("150万");
    expect(formatExactUsd("20000000", { locale: "zh" })).toBe("$2000万");
  });

  it("writes 10^15 and more in Chinese with 万亿, never with an English T, and from 10^18 as a power of ten", () => {
    expect(formatExactAmount("999999999999999", { locale: "zh" })).toBe("1000万亿");
    expect(formatAmount("810000000000000000", { locale: "zh" })).toBe("810,000万亿");
    expect(formatAmount("810000000000000000000", { locale: "zh" })).toBe("8.1×10²⁰");
    expect(formatUsd("1230000000000000", { locale: "zh" })).toBe("$1230万亿");
    expect(formatAmount("810000000000000000000")).toBe("8.1×10²⁰");
    expect(formatExactAmount("5400000000000000000000000000")).toBe("5.4×10²⁷");
  });
});

describe("formatPriceBeside", () => {
  it("writes two prices that differ with as many more digits as tell them apart", () => {
    expect(formatPriceBeside("0.000024312", "0.000024308")).toEqual(["$0.0₄24312", "$0.0₄24308"]);
    expect(formatPriceBeside("1.2346", "1.2341")).toEqual(["$1.235", "$1.234"]);
    expect(formatPriceBeside("2.5", "2.0")).toEqual(["$2.50", "$2.00"]);
    // Equal, or apart only past 4 more digits: as formatPrice writes them.
    expect(formatPriceBeside("0.5", "0.5")).toEqual(["$0.50", "$0.50"]);
    expect(formatPriceBeside("1.000000001", "1.000000002")).toEqual(["$1.00", "$1.00"]);
    expect(formatPriceBeside("NaN", "1")).toEqual(["—", "$1.00"]);
  });
});

describe("formatUsd", () => {
  it.each([
    ["1230000", "$1.23M"],
    ["45600", "$45.6K"],
    ["7890000000", "$7.89B"],
    ["1200000000000", "$1.2T"],
    ["950", "$950"],
    ["999.6", "$1K"],
    ["999960", "$1M"],
    ["12.345", "$12.3"],
    ["0.5", "$0.50"],
    ["0.004", "<$0.01"],
    ["0", "$0"],
    ["-0", "$0"],
  ] as const)("writes %j as %s", (input, shown) => {
    expect(formatUsd(input)).toBe(shown);
  });

  it.each(["-1000", "", "NaN", "Infinity", "1e400", "1e30", EIGHTY_DIGITS])(
    "shows market cap %j as a dash",
    (input) => {
      expect(formatUsd(input)).toBe("—");
    },
  );

  it("writes a loss with a minus sign when negatives are allowed", () => {
    expect(formatUsd("-1234", { allowNegative: true })).toBe("−$1.23K");
    expect(formatUsd("-0.001", { allowNegative: true })).toBe("−<$0.01");
  });
});

describe("formatAmount", () => {
  it.each([
    ["1000000000", "1B"],
    ["123456789012345678901234", "1.23×10²³"],
    ["40520000000000000", "40,500T"],
    ["950", "950"],
    ["12.345", "12.3"],
    ["0.5", "0.5"],
    ["0.000001234", "0.0₅123"],
    ["0", "0"],
  ] as const)("writes supply %j as %s", (input, shown) => {
    expect(formatAmount(input)).toBe(shown);
  });

  it.each(["-5", "1e36", EIGHTY_DIGITS, "NaN", ""])("shows supply %j as a dash", (input) => {
    expect(formatAmount(input)).toBe("—");
  });
});

describe("formatCount", () => {
  it.each([
    ["12345", "12,345"],
    [1234567, "1,234,567"],
    ["0", "0"],
    ["-0", "0"],
    ["12.5", "13"],
    ["999", "999"],
  ] as const)("writes holders %j as %s", (input, shown) => {
    expect(formatCount(input)).toBe(shown);
  });

  it.each(["-3", "1e15", EIGHTY_DIGITS, "NaN", "", "Infinity"])("shows holders %j as a dash", (input) => {
    expect(formatCount(input)).toBe("—");
  });
});
