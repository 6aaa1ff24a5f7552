/**
 * The one place calls read a price the service wrote: a strict positive decimal or nothing.
 * A value that is not a plain decimal (garbage, "NaN", a negative, zero) is never taken into a
 * call's price, high or multiple. When src/market/ gains its strict decimal reading, this file
 * becomes that import.
 */

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?$/;

/** `text` as a positive finite number, or undefined when it is not one. */
export function readPrice(text: string | number | undefined): number | undefined {
  if (text === undefined) return undefined;
  const s = typeof text === "number" ? String(text) : text.trim();
  if (s.length === 0 || s.length > 100 || !DECIMAL.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
