/**
 * An alert's rule and times in words, as the alert commands list them and a fired alert shows
 * them: one wording for both.
 */
import type { Translator } from "../../i18n/index.js";
import type { AlertRule } from "../../store/types.js";
import { formatPrice } from "../format/index.js";

/** The rule in words: `above $0.0042`, `moves 10% either way`. */
export function ruleText(rule: AlertRule, level: string, i18n: Translator): string {
  if (rule === "move") return i18n.t("alert-rule-move", { percent: String(Number(level)) });
  return i18n.t(rule === "above" ? "alert-rule-above" : "alert-rule-below", { price: formatPrice(level) });
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
