import { describe, expect, it } from "vitest";
import { parsePercent, parsePrice } from "../../src/core/alerts/price-text.js";
import { messages } from "../../src/i18n/index.js";

const english = messages().translator("en");

const value = (text: string) => {
  const r = parsePrice(text);
  if (!r.ok) throw new Error(r.error.key);
  return r.value;
};
/** The sentence a refusal says, in English. */
const error = (r: ReturnType<typeof parsePrice>) => (r.ok ? "accepted" : english.t(r.error.key, r.error.args));

describe("prices as people type them", () => {
  it("reads plain decimals, a dollar sign and k/M/B suffixes", () => {
    expect(value("0.0042")).toBe(0.0042);
    expect(value("$0.0042")).toBe(0.0042);
    expect(value(".5")).toBe(0.5);
    expect(value("1.5k")).toBe(1500);
    expect(value("2M")).toBe(2_000_000);
    expect(value("$3b")).toBe(3_000_000_000);
    expect(value("12 USD")).toBe(12);
  });

  it("reads commas as thousands separators", () => {
    expect(value("1,250")).toBe(1250);
    expect(value("1,234,567.5")).toBe(1_234_567.5);
    expect(value("$64,000")).toBe(64_000);
  });

  it("names the fix for a decimal comma", () => {
    expect(error(parsePrice("0,0042"))).toBe("“0,0042”: write decimals with a point, e.g. 0.0042.");
    expect(error(parsePrice("1,5"))).toMatch(/write decimals with a point, e\.g\. 1\.5/);
  });

  it("refuses words, zero, negative and absurd prices with one sentence each", () => {
    expect(error(parsePrice("moon"))).toBe("“moon” is not a price; write it as 0.0042, $1.5k or 2M.");
    expect(error(parsePrice("0"))).toBe("The price must be above 0.");
    expect(error(parsePrice("-1"))).toMatch(/is not a price/);
    expect(error(parsePrice("1,23,456"))).toMatch(/is not a price/);
    expect(error(parsePrice("999999999999b"))).toBe("That price is beyond any token's; check the number of zeros.");
    expect(error(parsePrice("$"))).toMatch(/Which price\?/);
  });
});

describe("percents of a move alert", () => {
  it("reads 10%, 2.5 % and a bare number, ignoring a sign", () => {
    expect(parsePercent("10%")).toEqual({ ok: true, value: 10 });
    expect(parsePercent("2.5 %")).toEqual({ ok: true, value: 2.5 });
    expect(parsePercent("15")).toEqual({ ok: true, value: 15 });
    expect(parsePercent("-5%")).toEqual({ ok: true, value: 5 });
  });

  it("refuses 0, over 1,000 and words", () => {
    expect(error(parsePercent("0%"))).toBe("A move of 0% would fire at every check; choose a percent above 0.");
    expect(error(parsePercent("1001%"))).toBe("A move can be at most 1,000%.");
    expect(error(parsePercent("lots"))).toBe("“lots” is not a percent; write it as 10% or 2.5%.");
  });

  it("refuses a move below 0.01%, the smallest move a firing can show, like 0", () => {
    expect(error(parsePercent("0.000000000001"))).toBe("A move below 0.01% would fire at every check; choose 0.01% or more.");
    expect(error(parsePercent("0.009%"))).toBe("A move below 0.01% would fire at every check; choose 0.01% or more.");
    expect(parsePercent("0.01%")).toEqual({ ok: true, value: 0.01 });
  });
});
