/**
 * An alert's rule and times in words, as the alert commands list them and a fired alert shows
 * them: one wording for both.
 */
import type { Translator } from "../../i18n/index.js";
import type { AlertRule } from "../../store/types.js";
import { atLeastPow10, parseDecimal, roundTo, toPlain } from "../format/decimal.js";
import { DASH, compactAbs, formatPrice } from "../format/number.js";

/** From 10,000 % on, a distance is written compact, as a change is (`52.1K`). */
const DISTANCE_COMPACT_POW10 = 4;

/** The rule in words: `above $0.0042`, `moves 10% either way`. */
export function ruleText(rule: AlertRule, level: string, i18n: Translator): string {
  if (rule === "move") {
    const percent = parseDecimal(level);
    return i18n.t("alert-rule-move", { percent: percent === null ? DASH : toPlain(percent, 0) });
  }
  return i18n.t(rule === "above" ? "alert-rule-above" : "alert-rule-below", { price: formatPrice(level, { locale: i18n.locale }) });
}

/**
 * How far an alert is from firing, in percent without the sign, with the digits grouped as every
 * other figure: `1.63`, `12.3`, `4,521.7`, from 10,000 compact (`52.1K`, in Chinese `5.21万`).
 */
export function distanceFigure(percent: number, locale?: string): string {
  const d = parseDecimal(percent);
  if (d === null) return DASH;
  const places = percent < 10 ? 2 : 1;
  const rounded = roundTo(d, places);
  return atLeastPow10(rounded, DISTANCE_COMPACT_POW10) ? compactAbs(rounded, 3, locale) : toPlain(rounded, places);
}

/** `24 Nov 09:12 UTC`: firings are read later than they happen, so the date is always there. */
export function utcTime(ms: number, locale = "en"): string {
  const d = new Date(ms);
  if (locale !== "en") {
    const text = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }).format(d);
    return `${text} UTC`;
  }
  const month = d.toLocaleString("en-GB", { month: "short", timeZone: "UTC" });
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${d.getUTCDate()} ${month} ${hh}:${mm} UTC`;
}
