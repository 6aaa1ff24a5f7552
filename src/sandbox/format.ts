/**
 * Numbers as the service writes them: decimal strings in plain notation (never exponent
 * form — that is reserved for the hostile tokens), ISO 8601 UTC times.
 */

/**
 * `x` as a plain decimal string with `sig` significant digits (default 10), trailing zeros
 * dropped. Never "-0" and never exponent notation.
 */
export function dec(x: number, sig = 10): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  if (x === 0) return "0";
  const magnitude = Math.floor(Math.log10(Math.abs(x)));
  const places = Math.min(60, Math.max(0, sig - 1 - magnitude));
  let s = x.toFixed(places);
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}

/** A percent change, rounded to 2 places as the service shows them. */
export function pct(x: number): string {
  return dec(Math.round(x * 100) / 100, 12);
}

/** Epoch seconds as an ISO 8601 UTC timestamp without milliseconds. */
export function iso(epochSec: number): string {
  return new Date(epochSec * 1000).toISOString().replace(".000Z", "Z");
}
