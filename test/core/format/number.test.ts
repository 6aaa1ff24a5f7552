import { describe, expect, it } from "vitest";
import { formatAmount, formatCount, formatPrice, formatUsd, formatUsdWhole } from "../../../src/core/format/index.js";

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
    ["98765432109876543210.5", "$98,800,000T"],
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
    ["123456789012345678901234", "123,000,000,000T"],
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
