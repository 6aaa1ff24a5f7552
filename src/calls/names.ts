/**
 * How calls write members and multiples. A member's name is shown, never a mention: cleaned
 * like any stranger's text, which writes its "@" as the full-width "＠" (core/format/text.ts),
 * so a member named "@everyone" or after another member's handle notifies nobody.
 */
import { cleanText, formatSince } from "../core/format/index.js";
import type { Translator } from "../i18n/index.js";

/** Longest member name shown. */
const NAME_MAX = 32;
/** Longest member name recorded with a call. */
const RECORDED_NAME_MAX = 64;

/**
 * `name` as a call records it, and as `/calls <name>` looks it up: typed text is cleaned the same
 * way, so a member whose name has an "@" is found by the name as people type it.
 */
export function recordedName(name: string): string {
  return cleanText(name, RECORDED_NAME_MAX);
}

/** `name` as boards and cards show it. */
export function shownName(name: string): string {
  return cleanText(name, NAME_MAX);
}

/** The decimals a multiple is written with. */
function multipleDigits(x: number): number {
  return x < 1 ? 2 : x < 10 ? 1 : 0;
}

/**
 * `x` as `formatMultiple` writes it, as a number: what a board may rank by, so that two rows
 * reading the same are ordered by what comes next, not by a difference nobody can see.
 */
export function multipleAsShown(x: number): number {
  const scale = 10 ** multipleDigits(x);
  // The float's product can fall just short of a whole number the decimal reads as (2.3 × 10).
  return Math.trunc(x * scale + 1e-9) / scale;
}

/**
 * A multiple of the call price: `0.52×`, `2.4×`, `31×`, `1,240×`; `—` when unknown. Cut, never
 * rounded up: a high of 1.96× counts as no hit (2×), and must not read 2.0×.
 */
export function formatMultiple(x: number | undefined, locale = "en"): string {
  if (x === undefined || !Number.isFinite(x) || x < 0) return "—";
  const digits = multipleDigits(x);
  return `${new Intl.NumberFormat(locale === "zh" ? "zh-CN" : "en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits, roundingMode: "trunc" }).format(x)}×`;
}

/** How long ago `at` was, as a phrase: `3h ago`, `just now`. */
export function agoPhrase(at: number, now: number, i18n: Translator): string {
  return now - at < 60_000 ? i18n.t("age-just-now") : i18n.t("age-ago", { age: formatSince(at, now, { i18n }) });
}
