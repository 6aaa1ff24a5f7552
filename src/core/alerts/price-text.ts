/**
 * Prices and percents as people type them: `0.0042`, `$0.0042`, `1.5k`, `2M`, `1,250.5`,
 * `10%`. Each refusal names one sentence of the message files that shows the fix.
 */
import type { LocalMessage } from "../../i18n/index.js";
import { cleanText } from "../format/index.js";

export type Parsed = { ok: true; value: number } | { ok: false; error: LocalMessage };

const SUFFIX: ReadonlyMap<string, number> = new Map([
  ["k", 1e3],
  ["m", 1e6],
  ["b", 1e9],
]);

/** Digits with an optional decimal part; commas only as thousands separators (1,234,567.5). */
const PLAIN = /^(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$|^\.\d+$/;
/** A decimal comma (0,0042) is the one mistake worth naming. */
const DECIMAL_COMMA = /^\d+,\d{1,2}$|^\d+,\d{4,}$|^0,\d+$/;

/** Largest price an alert takes: beyond it no token trades, and floats stop being exact. */
const MAX_PRICE = 1e15;

/** Reads a USD price: an optional `$`, digits, thousands commas, a decimal point and a k/M/B suffix. */
export function parsePrice(text: string): Parsed {
  const raw = text.trim().replace(/^\$/, "").replace(/\s*(?:usd|\$)$/i, "").trim();
  const shown = cleanText(text, 24);
  if (raw === "") return { ok: false, error: { key: "alert-price-missing" } };
  let body = raw;
  let factor = 1;
  const last = raw.slice(-1).toLowerCase();
  const multiplier = SUFFIX.get(last);
  if (multiplier !== undefined) {
    body = raw.slice(0, -1);
    factor = multiplier;
  }
  if (DECIMAL_COMMA.test(body)) {
    return { ok: false, error: { key: "alert-price-decimal-comma", args: { typed: shown, fixed: body.replace(",", ".") } } };
  }
  if (!PLAIN.test(body)) return { ok: false, error: { key: "alert-price-not-a-price", args: { typed: shown } } };
  const value = Number(body.replaceAll(",", "")) * factor;
  if (!(value > 0)) return { ok: false, error: { key: "alert-price-zero" } };
  if (value > MAX_PRICE) return { ok: false, error: { key: "alert-price-too-big" } };
  return { ok: true, value };
}

/** Smallest and largest move a `move` alert takes, in percent: a move is shown to 0.01 %, so a smaller one would read "moved 0.00%". */
export const MOVE_PERCENT_MIN = 0.01;
export const MOVE_PERCENT_MAX = 1000;

/** Reads a percent for a `move` alert: `10%`, `10`, `2.5 %`; a sign is ignored (moves count both ways). */
export function parsePercent(text: string): Parsed {
  const raw = text.trim().replace(/\s*%$/, "").replace(/^[+±-]/, "").trim();
  const shown = cleanText(text, 24);
  if (!/^(?:\d+(?:\.\d+)?|\.\d+)$/.test(raw)) return { ok: false, error: { key: "alert-percent-not-a-percent", args: { typed: shown } } };
  const value = Number(raw);
  if (value === 0) return { ok: false, error: { key: "alert-percent-zero" } };
  if (value < MOVE_PERCENT_MIN) return { ok: false, error: { key: "alert-percent-too-small", args: { min: MOVE_PERCENT_MIN } } };
  if (value > MOVE_PERCENT_MAX) return { ok: false, error: { key: "alert-percent-too-big", args: { max: MOVE_PERCENT_MAX } } };
  return { ok: true, value };
}
