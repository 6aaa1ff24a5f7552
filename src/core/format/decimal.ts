/**
 * Exact decimals for display. The service sends numbers as decimal strings with 40+ digits and
 * exponents; going through a float would print `1.2345678901234567e+21` or lose the digits of
 * a tiny price, so values are kept as a BigInt coefficient and a power of ten.
 */

/** A finite decimal: value = (negative ? -1 : 1) × coef × 10^exp; coef has no trailing zeros. */
export interface Decimal {
  negative: boolean;
  coef: bigint;
  exp: number;
}

const ZERO: Decimal = { negative: false, coef: 0n, exp: 0 };
// Exponents are bounded to 6 digits: a longer one is garbage, and bounding it keeps BigInt
// powers small.
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;
/** Longer input is not a number anyone should print. */
const MAX_INPUT_LENGTH = 200;

/** Parses a decimal string or a finite number; `null` for anything else (`""`, `"NaN"`, garbage). */
export function parseDecimal(v: string | number | undefined): Decimal | null {
  if (v === undefined) return null;
  let s: string;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return null;
    s = String(v);
  } else {
    s = v.trim();
  }
  if (s.length === 0 || s.length > MAX_INPUT_LENGTH) return null;
  const m = DECIMAL.exec(s);
  if (!m) return null;
  const sign = m[1] ?? "";
  const int = m[2] ?? "";
  const frac = m[3] ?? "";
  if (int.length + frac.length === 0) return null;
  const digits = (int + frac).replace(/^0+/, "");
  if (digits === "") return ZERO;
  const exp = (m[4] === undefined ? 0 : Number(m[4])) - frac.length;
  return normalize({ negative: sign === "-", coef: BigInt(digits), exp });
}

function normalize(d: Decimal): Decimal {
  if (d.coef === 0n) return ZERO;
  let { coef, exp } = d;
  while (coef % 10n === 0n) {
    coef /= 10n;
    exp += 1;
  }
  return { negative: d.negative, coef, exp };
}

export function isZero(d: Decimal): boolean {
  return d.coef === 0n;
}

/** floor(log10(|d|)); only for non-zero values. */
export function magnitude(d: Decimal): number {
  return d.coef.toString().length - 1 + d.exp;
}

/** Multiplies by 10^n. */
export function shift(d: Decimal, n: number): Decimal {
  return isZero(d) ? d : { ...d, exp: d.exp + n };
}

/** Rounds half away from zero to `places` decimal places (negative places round to tens, …). */
export function roundTo(d: Decimal, places: number): Decimal {
  if (isZero(d) || d.exp >= -places) return d;
  // Far below half a unit: zero, without building a huge power of ten.
  if (magnitude(d) + 1 < -places) return ZERO;
  const p = 10n ** BigInt(-places - d.exp);
  let q = d.coef / p;
  if ((d.coef % p) * 2n >= p) q += 1n;
  return normalize({ negative: d.negative, coef: q, exp: -places });
}

/** Rounds to `sig` significant digits. */
export function roundSig(d: Decimal, sig: number): Decimal {
  return isZero(d) ? d : roundTo(d, sig - 1 - magnitude(d));
}

/** Compares |a| with |b|: -1, 0 or 1. */
export function compareAbs(a: Decimal, b: Decimal): number {
  if (isZero(a) || isZero(b)) return isZero(a) ? (isZero(b) ? 0 : -1) : 1;
  const ma = magnitude(a);
  const mb = magnitude(b);
  if (ma !== mb) return ma < mb ? -1 : 1;
  const e = Math.min(a.exp, b.exp);
  const x = a.coef * 10n ** BigInt(a.exp - e);
  const y = b.coef * 10n ** BigInt(b.exp - e);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** `|d| ≥ 10^n`. */
export function atLeastPow10(d: Decimal, n: number): boolean {
  return !isZero(d) && magnitude(d) >= n;
}

/**
 * |d| as plain digits with `,` between thousands and at least `minDecimals` decimals (more when
 * the value has them: round first). The sign is the caller's business.
 */
export function toPlain(d: Decimal, minDecimals: number): string {
  const decimals = Math.max(minDecimals, -d.exp, 0);
  const units = d.coef * 10n ** BigInt(d.exp + decimals);
  const s = units.toString().padStart(decimals + 1, "0");
  const int = groupThousands(s.slice(0, s.length - decimals));
  return decimals === 0 ? int : `${int}.${s.slice(s.length - decimals)}`;
}

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+$)/g, ",");
}
