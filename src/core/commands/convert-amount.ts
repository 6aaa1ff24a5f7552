/**
 * An amount as people write it in a chat: `0.25`, `1,000`, `2k`, `1.5m`, `3b`, `$100`, `100$`.
 * Read exactly (no float parsing of the digits), then bounded: nothing negative, zero or absurd
 * reaches a lookup.
 */

/** The largest amount converted: above any amount a holder asks about (SHIB's whole supply is under 10^15). */
export const MAX_AMOUNT = 1e15;

/** Multipliers of the suffixes people type, by lowercase letter (a Map: the word is theirs). */
const SUFFIXES: ReadonlyMap<string, number> = new Map([["k", 1e3], ["m", 1e6], ["b", 1e9], ["t", 1e12]]);

// Digits with optional thousands commas (`1,000,000`) or none, an optional fraction, an optional
// suffix; a dollar sign before or after.
const AMOUNT = /^(\$)?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?([kmbt])?(\$)?$/i;

/** What an amount word says. */
export type AmountReading =
  | { kind: "amount"; value: number; dollars: boolean }
  /** Not a number at all: the word is likely a token typed where the amount goes. */
  | { kind: "not-a-number" }
  | { kind: "negative" }
  | { kind: "zero" }
  | { kind: "too-large" };

/** Reads one amount word; never throws. */
export function readAmount(word: string): AmountReading {
  const w = word.trim();
  // `-5`, and `$-5` for dollars.
  const unsigned = w.replace(/^(\$?)[-−]/, "$1");
  if (unsigned !== w) {
    // `-0` is no negative amount: it is zero, and said so.
    const magnitude = readAmount(unsigned).kind;
    if (magnitude === "zero") return { kind: "zero" };
    if (magnitude !== "not-a-number") return { kind: "negative" };
  }
  const m = AMOUNT.exec(w);
  if (m === null) return { kind: "not-a-number" };
  const [, before, whole, fraction, suffix, after] = m;
  if (whole === undefined && fraction === undefined) return { kind: "not-a-number" };
  if (before !== undefined && after !== undefined) return { kind: "not-a-number" };
  const digits = `${(whole ?? "0").replace(/,/g, "")}.${fraction ?? "0"}`;
  const value = Number(digits) * (suffix === undefined ? 1 : (SUFFIXES.get(suffix.toLowerCase()) as number));
  if (!Number.isFinite(value) || value > MAX_AMOUNT) return { kind: "too-large" };
  if (value === 0) return { kind: "zero" };
  return { kind: "amount", value, dollars: before !== undefined || after !== undefined };
}
