/**
 * Prices, money and amounts from the service's decimal strings. Every function answers `—` for
 * input that would print nonsense: empty, `NaN`, `Infinity`, garbage, absurdly large, or
 * negative where a negative cannot be (a price, a market cap, a supply).
 */
import {
  type Decimal, atLeastPow10, isZero, magnitude, parseDecimal, roundSig, roundTo, shift, toPlain,
} from "./decimal.js";

/** Shown for a value that is missing or makes no sense. */
export const DASH = "—";
/** Proper minus sign: a hyphen next to a number reads as a dash in many fonts. */
export const MINUS = "\u2212";

/** Money at or above 10^30 USD is a data error, not a price. */
const MONEY_MAX_POW10 = 30;
/** Token amounts (supplies with 18 decimals) reach higher than money. */
const AMOUNT_MAX_POW10 = 36;
/** Counts (holders, transactions) above 10^15 are a data error. */
const COUNT_MAX_POW10 = 15;
/** Prices at or above this are shown compact. */
const PRICE_COMPACT_POW10 = 6;
/** Below 10^-4 a price is written with a subscript count of zeros. */
const SUBSCRIPT_FROM_ZEROS = 4;
/**
 * An amount someone converts is written out, zeros and all, to be typed or pasted into a
 * wallet as it reads; only past this many zeros, longer than anyone would type, does it take
 * a price's subscript.
 */
const EXACT_SUBSCRIPT_FROM_ZEROS = 18;

const SUFFIXES = ["", "K", "M", "B", "T"] as const;
/**
 * From 10^18 (a million T) a number is written `3.01×10²⁶`: the suffixes people read stop at T,
 * and `301,000,000,000,000T` can be neither read nor compared.
 */
const SCIENTIFIC_FROM_POW10 = 18;
const SUBSCRIPT_DIGITS = "₀₁₂₃₄₅₆₇₈₉";
const SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

/** Parses and checks a value: finite, below 10^maxPow10 and not negative unless allowed. */
function accept(v: string | number | undefined, maxPow10: number, allowNegative: boolean): Decimal | null {
  const d = parseDecimal(v);
  if (d === null || atLeastPow10(d, maxPow10)) return null;
  if (d.negative && !allowNegative) return null;
  return d;
}

function signOf(d: Decimal): string {
  return d.negative && !isZero(d) ? MINUS : "";
}

/** `0.0₅1234` for 0.000001234: the subscript counts the zeros after the decimal point. */
function subscript(n: number): string {
  return [...String(n)].map((c) => SUBSCRIPT_DIGITS[Number(c)]).join("");
}

/**
 * |d| < 1 with `sig` significant digits; with `SUBSCRIPT_FROM_ZEROS` or more zeros after the
 * point, in subscript-zero notation. Returns `null` when rounding reached 1 (the caller then
 * writes it as a number ≥ 1).
 */
function belowOne(d: Decimal, sig: number, minDecimals: number, subscriptFrom = SUBSCRIPT_FROM_ZEROS): string | null {
  const r = roundSig(d, sig);
  const mag = magnitude(r);
  if (mag >= 0) return null;
  const zeros = -mag - 1;
  if (zeros < subscriptFrom) return toPlain(r, minDecimals);
  return `0.0${subscript(zeros)}${r.coef.toString()}`;
}

/**
 * |d| in K/M/B/T with `sig` significant digits, trailing zeros dropped: `1.2T`, `45.6K`, `950`;
 * from 10^18 `3.01×10²⁶`.
 * Another `locale` than `en` writes it with `Intl`'s compact notation, in Chinese 万 and 亿
 * (`1.23万`, `4.56亿`, `1000万亿`): rounded to `sig` digits first, the number survives the trip
 * through a float at any size these functions take.
 */
export function compactAbs(d: Decimal, sig: number, locale = "en"): string {
  const r = roundSig({ ...d, negative: false }, sig);
  const mag = isZero(r) ? 0 : magnitude(r);
  if (mag >= SCIENTIFIC_FROM_POW10) return `${toPlain(shift(r, -mag), 0)}×10${[...String(mag)].map((c) => SUPERSCRIPT_DIGITS[Number(c)]).join("")}`;
  if (locale !== "en") {
    return new Intl.NumberFormat(locale, { notation: "compact", maximumSignificantDigits: sig }).format(Number(toPlain(r, 0).replace(/,/g, "")));
  }
  const k = Math.min(Math.max(Math.floor(mag / 3), 0), SUFFIXES.length - 1);
  return `${toPlain(shift(r, -3 * k), 0)}${SUFFIXES[k]}`;
}

/**
 * A token price in USD: `$12,345.67`, `$1.23`, `$0.5432`, `$0.0₅1234` (4 significant digits below
 * $1), compact from $1M (`$1.23M`). Negative or ≥ $10^30 → `—`.
 */
export function formatPrice(v: string | number | undefined, opts: { locale?: string } = {}): string {
  const d = accept(v, MONEY_MAX_POW10, false);
  if (d === null) return DASH;
  if (isZero(d)) return "$0.00";
  return precisePrice(d, 0, opts.locale);
}

/** A price of `formatPrice` with `extra` more digits: significant ones below $1 and from $1M, decimals between. */
function precisePrice(d: Decimal, extra: number, locale: string | undefined): string {
  const small = magnitude(d) < 0 ? belowOne(d, 4 + extra, 2) : null;
  if (small !== null) return `$${small}`;
  const cents = roundTo(d, 2 + extra);
  return `$${atLeastPow10(cents, PRICE_COMPACT_POW10) ? compactAbs(d, 3 + extra, locale) : toPlain(cents, 2 + extra)}`;
}

/**
 * Two prices set side by side (an alert's price and its anchor), each as `formatPrice` writes it,
 * or with up to 4 more digits where that would write two different prices the same: a move of
 * 0.03% must not read `$0.0₄2431` against `$0.0₄2431`.
 */
export function formatPriceBeside(a: string | number | undefined, b: string | number | undefined, opts: { locale?: string } = {}): [string, string] {
  const shown: [string, string] = [formatPrice(a, opts), formatPrice(b, opts)];
  const [da, db] = [accept(a, MONEY_MAX_POW10, false), accept(b, MONEY_MAX_POW10, false)];
  if (shown[0] !== shown[1] || da === null || db === null || isZero(da) || isZero(db)) return shown;
  for (let extra = 1; extra <= 4; extra++) {
    const more: [string, string] = [precisePrice(da, extra, opts.locale), precisePrice(db, extra, opts.locale)];
    if (more[0] !== more[1]) return more;
  }
  return shown;
}

/** Options of `formatUsd`. */
export interface UsdOptions {
  /** Allow negative values (profit and loss), written `−$1.2K`. Default false: negative → `—`. */
  allowNegative?: boolean;
  /** Locale of the compact suffixes (`en`: K/M/B/T; `zh`: 万/亿). Default `en`. */
  locale?: string;
}

/**
 * Compact money with 3 significant digits: `$1.23M`, `$45.6K`, `$7.89B`, `$1.2T`, `$950`, `$0.50`;
 * below a cent `<$0.01`. ≥ $10^30 → `—`; negative → `—` unless `allowNegative`.
 */
export function formatUsd(v: string | number | undefined, opts: UsdOptions = {}): string {
  const d = accept(v, MONEY_MAX_POW10, opts.allowNegative ?? false);
  if (d === null) return DASH;
  if (isZero(d)) return "$0";
  const sign = signOf(d);
  if (isZero(roundTo(d, 2))) return `${sign}<$0.01`;
  if (magnitude(d) < 0) return `${sign}$${toPlain(roundTo(d, 2), 2)}`;
  return `${sign}$${compactAbs(d, 3, opts.locale)}`;
}

/**
 * Money as a trade is told, to the dollar: from $1,000 whole dollars with thousands separators
 * (`$1,234`, `$12,345,678`), where a compact `$1.23K` would hide what a buy bot's readers
 * compare; below that, and from a trillion, as `formatUsd` (`$950`, `$52.4`, `$0.50`).
 */
export function formatUsdWhole(v: string | number | undefined, opts: UsdOptions = {}): string {
  const d = accept(v, MONEY_MAX_POW10, false);
  const whole = d === null ? null : roundTo(d, 0);
  if (whole === null || isZero(whole) || magnitude(whole) < 3 || magnitude(whole) >= 12) return formatUsd(v, opts);
  return `$${toPlain(whole, 0)}`;
}

/**
 * A compact plain number for token amounts and supplies: `1.23B`, `950`, `12.3`, `0.0₅123`.
 * Negative or ≥ 10^36 → `—`.
 */
export function formatAmount(v: string | number | undefined, opts: { locale?: string } = {}): string {
  const d = accept(v, AMOUNT_MAX_POW10, false);
  if (d === null) return DASH;
  if (isZero(d)) return "0";
  return (magnitude(d) < 0 ? belowOne(d, 3, 0) : null) ?? compactAbs(d, 3, opts.locale);
}

/** Significant digits of an amount a person converts: enough to use, not only to compare. */
const EXACT_SIG = 6;
/** From a million, an amount a person converts is compact, with this many significant digits. */
const EXACT_COMPACT_SIG = 4;
const EXACT_COMPACT_POW10 = 6;

/**
 * An amount someone converts and will use: grouped with 6 significant digits (`1,234.5`,
 * `0.0300318`, `0.00000123456`), compact with 4 from a million (`1.5M`, `12.35M`; `150万` in
 * Chinese). Where `formatAmount`'s 3 digits let a list be compared, these let it be typed back.
 * Negative or ≥ 10^36 → `—`.
 */
export function formatExactAmount(v: string | number | undefined, opts: { locale?: string } = {}): string {
  const d = accept(v, AMOUNT_MAX_POW10, false);
  if (d === null) return DASH;
  if (isZero(d)) return "0";
  if (magnitude(d) < 0) return belowOne(d, EXACT_SIG, 0, EXACT_SUBSCRIPT_FROM_ZEROS) ?? "1";
  const r = roundSig(d, EXACT_SIG);
  return atLeastPow10(r, EXACT_COMPACT_POW10) ? compactAbs(d, EXACT_COMPACT_SIG, opts.locale) : toPlain(r, 0);
}

/**
 * Dollars someone converts: to the cent with separators (`$12.40`, `$9,973.26`, `$100`), below $1 with
 * a price's 4 significant digits written out (`$0.5432`, `$0.00001234`), compact with 4 significant
 * digits from a million (`$12.35M`).
 * Negative or ≥ $10^30 → `—`.
 */
export function formatExactUsd(v: string | number | undefined, opts: { locale?: string } = {}): string {
  const d = accept(v, MONEY_MAX_POW10, false);
  if (d === null) return DASH;
  if (magnitude(d) < 0 && !isZero(d)) return `$${belowOne(d, 4, 2, EXACT_SUBSCRIPT_FROM_ZEROS) ?? toPlain(roundTo(d, 2), 2)}`;
  const cents = roundTo(d, 2);
  if (atLeastPow10(cents, EXACT_COMPACT_POW10)) return `$${compactAbs(d, EXACT_COMPACT_SIG, opts.locale)}`;
  // Whole dollars as typed (`$100`), else both cents (`$12.40`, not `$12.4`).
  return `$${toPlain(cents, cents.exp >= 0 ? 0 : 2)}`;
}

/** A whole count with thousands separators (`12,345`), rounded half up; negative or ≥ 10^15 → `—`. */
export function formatCount(v: string | number | undefined): string {
  const d = accept(v, COUNT_MAX_POW10, false);
  if (d === null) return DASH;
  return toPlain(roundTo(d, 0), 0);
}
