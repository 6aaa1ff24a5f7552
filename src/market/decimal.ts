/**
 * The one strict reading of the service's decimal strings, for every path that takes a number
 * into a decision (an alert firing, an anchor, a watchlist's order, the buy feed, a call's
 * high). `Number(text)` reads "0x10" as 16, "0b11" as 3, " 16 " as 16, "1e-300" as a price and
 * "1e308" or 400 digits as Infinity; a value that is not the spec's form, or not in range, is
 * no value at all here, never a guess. Display goes through `core/format`, which may be kinder.
 */

/** The spec's form: `[+-]digits[.digits][e±digits]`, nothing around it. */
const SERVICE_DECIMAL = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d{1,4})?$/;
/** The service sends 40+ digits; far longer is not a number anyone measured. */
const MAX_LENGTH = 100;

/** Closed bounds of a value's size: |value| is 0 (when `zero`) or within [min, max]. */
export interface DecimalRange {
  min: number;
  max: number;
  /** Whether 0 is a value (a change of 0 %) rather than "none" (a price of 0). */
  zero: boolean;
  /** Whether a negative value is a value (a change) rather than garbage (a price). */
  negative: boolean;
}

/**
 * A token's USD price. No token trades above $1e15 (what an alert level may be, too), and
 * below 1e-24 no price the bot shows means anything: 1e-300 is a bug, not a token.
 */
export const PRICE_RANGE: DecimalRange = { min: 1e-24, max: 1e15, zero: false, negative: false };
/** A percent change: the service reports over 50,000 %, never beyond 1e9. */
export const PERCENT_RANGE: DecimalRange = { min: 0, max: 1e9, zero: true, negative: true };
/** An amount or sum (volume, liquidity, supply, a trade's size): any finite size up to 1e30. */
export const AMOUNT_RANGE: DecimalRange = { min: 0, max: 1e30, zero: true, negative: false };

/** `text` as a number when it is the spec's decimal form and in `range`; otherwise undefined. */
export function readDecimal(text: string | undefined, range: DecimalRange): number | undefined {
  if (text === undefined || text.length > MAX_LENGTH || !SERVICE_DECIMAL.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  if (value === 0) return range.zero ? 0 : undefined;
  if (value < 0 && !range.negative) return undefined;
  const size = Math.abs(value);
  return size >= range.min && size <= range.max ? value : undefined;
}

/** A price as the service wrote it and as a number, or undefined for "no price". */
export function readPrice(text: string | undefined): { text: string; value: number } | undefined {
  const value = readDecimal(text, PRICE_RANGE);
  return value === undefined || text === undefined ? undefined : { text, value };
}
