/**
 * Percent changes (the service sends percents, some above 50,000) and fractions 0–1 (lock
 * shares, holder ratios, report `*_percent` fields).
 */
import { type Decimal, atLeastPow10, compareAbs, isZero, parseDecimal, roundTo, shift, toPlain } from "./decimal.js";
import { DASH, MINUS, compactAbs } from "./number.js";

/** A change of 10^12 % is a data error. */
const PERCENT_MAX_POW10 = 12;
/** From 10,000 % on, changes are shown compact (`52.1K%`). */
const PERCENT_COMPACT_POW10 = 4;
const ONE: Decimal = { negative: false, coef: 1n, exp: 0 };
/** Ratios a hair above 1 come from float sums upstream; they still mean "all of it". */
const RATIO_MAX: Decimal = { negative: false, coef: 1000001n, exp: -6 };

/** Options of `formatPercent`. */
export interface PercentOptions {
  /** Prefix ▲ or ▼ by direction. Default true; tables that colour the cell may turn it off. */
  arrow?: boolean;
  /** Locale of a compact change (`en`: `52.1K%`; `zh`: `5.21万%`). Default `en`. */
  locale?: string;
}

/**
 * A signed percent change with direction: `▲ +3.20%`, `▼ −1.50%`, `0.00%` (also for changes
 * that round to zero); from 10,000 % compact: `▲ +52.1K%` (`▲ +5.21万%` in Chinese). ≥ 10^12 % → `—`.
 */
export function formatPercent(v: string | number | undefined, opts: PercentOptions = {}): string {
  const d = parseDecimal(v);
  if (d === null || atLeastPow10(d, PERCENT_MAX_POW10)) return DASH;
  const rounded = roundTo(d, 2);
  if (isZero(rounded)) return "0.00%";
  const body = atLeastPow10(rounded, PERCENT_COMPACT_POW10) ? compactAbs(rounded, 3, opts.locale) : toPlain(rounded, 2);
  const text = `${d.negative ? MINUS : "+"}${body}%`;
  if (opts.arrow === false) return text;
  return `${d.negative ? "▼" : "▲"} ${text}`;
}

/**
 * A fraction 0–1 as a percent with one decimal: `12.3%`, `0%`, `<0.1%` for tiny shares,
 * `100.0%`. Negative or above 1 → `—`.
 */
export function formatRatio(v: string | number | undefined): string {
  const d = parseDecimal(v);
  if (d === null) return DASH;
  if (isZero(d)) return "0%";
  if (d.negative || compareAbs(d, RATIO_MAX) > 0) return DASH;
  if (compareAbs(d, ONE) >= 0) return "100.0%";
  const pct = roundTo(shift(d, 2), 1);
  return isZero(pct) ? "<0.1%" : `${toPlain(pct, 1)}%`;
}
