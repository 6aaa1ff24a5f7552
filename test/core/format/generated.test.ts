import { describe, expect, it } from "vitest";
import {
  formatAge, formatAmount, formatAsOf, formatCount, formatPercent, formatPrice, formatRatio, formatSince, formatUsd,
} from "../../../src/core/format/index.js";
import { messages } from "../../../src/i18n/index.js";

const en = { i18n: messages().translator("en") };

/** mulberry32: a seeded generator so a failure names a case that can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function decimalString(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const digits = (n: number) => Array.from({ length: n }, () => pick("0123456789".split(""))).join("");
  const sign = pick(["", "", "", "-", "+"]);
  const int = digits(Math.floor(rand() * 45));
  const frac = rand() < 0.6 ? `.${digits(Math.floor(rand() * 45))}` : "";
  const exp = rand() < 0.25 ? `${pick(["e", "E"])}${pick(["", "+", "-"])}${Math.floor(rand() * 500)}` : "";
  const special = pick(["", "", "", "", "", "", "", "", "NaN", "Infinity", "-Infinity", " ", "-0", "0x1f", "1e400"]);
  return special === "" ? `${sign}${int}${frac}${exp}` : special;
}

const FORBIDDEN = /NaN|Infinity|e\+|e-\d|undefined|null/;

describe("formatting of generated decimal strings", () => {
  it("never prints NaN, Infinity, an exponent or undefined for 10,000 strings", () => {
    const rand = seeded(20261122);
    const now = Date.UTC(2026, 10, 22);
    for (let i = 0; i < 10_000; i++) {
      const s = decimalString(rand);
      const outputs = [
        formatPrice(s), formatUsd(s), formatUsd(s, { allowNegative: true }), formatAmount(s), formatCount(s),
        formatPercent(s), formatRatio(s), formatAge(s, en), formatSince(s, now, en), formatAsOf(Number(s), now, en),
      ];
      for (const out of outputs) {
        if (FORBIDDEN.test(out) || out === "") expect.fail(`${JSON.stringify(s)} printed ${JSON.stringify(out)}`);
      }
    }
  });

  it("writes every generated price either as a dash or as dollars", () => {
    const rand = seeded(7);
    for (let i = 0; i < 2_000; i++) {
      const out = formatPrice(decimalString(rand));
      expect(out).toMatch(/^(—|\$[0-9,.₀-₉]+([KMBT]|×10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?)$/);
    }
  });
});
