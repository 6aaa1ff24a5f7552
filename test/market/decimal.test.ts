import { describe, expect, it } from "vitest";
import { AMOUNT_RANGE, PERCENT_RANGE, readDecimal, readPrice } from "../../src/market/decimal.js";

describe("the strict reading of the service's decimals", () => {
  it("reads the spec's form: sign, digits, a fraction and an exponent", () => {
    expect(readPrice("0.0000123")?.value).toBe(0.0000123);
    expect(readPrice("16")).toEqual({ text: "16", value: 16 });
    expect(readPrice("1.5e-7")?.value).toBe(1.5e-7);
    expect(readPrice("1E+3")?.value).toBe(1000);
    expect(readPrice("0.000000000000001234")?.value).toBe(1.234e-15);
    expect(readPrice(`0.${"0".repeat(8)}${"7".repeat(40)}`)?.value).toBe(7.777777777777778e-9);
    expect(readDecimal("-12.5", PERCENT_RANGE)).toBe(-12.5);
    expect(readDecimal("0", PERCENT_RANGE)).toBe(0);
    expect(readDecimal("-0", PERCENT_RANGE)).toBe(0);
    expect(readDecimal("52000.5", PERCENT_RANGE)).toBe(52000.5);
  });

  it("is no value for what Number() reads and the service never means", () => {
    for (const text of ["0x10", "0b11", "0o17", " 16 ", "16 ", "\t16", "", ".5", "5.", "1_000", "16,5", "1e", "e5", "Infinity", "-Infinity", "NaN", "1e308", "1e+308", "1e-300", "9".repeat(400), "1e99999", "1,000", "$16", "16usd"]) {
      expect({ text, price: readPrice(text) }).toEqual({ text, price: undefined });
    }
    expect(readPrice(undefined)).toBeUndefined();
  });

  it("keeps prices in range: none at 0, below 0, under 1e-24 or over 1e15", () => {
    expect(readPrice("0")).toBeUndefined();
    expect(readPrice("-3")).toBeUndefined();
    expect(readPrice("1e-25")).toBeUndefined();
    expect(readPrice("1e-24")?.value).toBe(1e-24);
    expect(readPrice("1e15")?.value).toBe(1e15);
    expect(readPrice("1000000000000001")).toBeUndefined();
    expect(readDecimal("1e31", AMOUNT_RANGE)).toBeUndefined();
    expect(readDecimal("-1", AMOUNT_RANGE)).toBeUndefined();
    expect(readDecimal("0", AMOUNT_RANGE)).toBe(0);
    expect(readDecimal("1e10", PERCENT_RANGE)).toBeUndefined();
  });
});
