/**
 * Contract risk as people read it: a verdict 🟢/🟡/🔴 and the findings that matter, from the
 * report's documented meanings (service-notes.md "Risk semantics"). A report that is empty or
 * errored is "no risk data", never a clean bill; `is_honeypot` -1 means not checked.
 */
import type { RiskReport, TokenV2 } from "../market/schemas.js";
import { DASH, formatRatio, shortAddress } from "./format/index.js";
import type { Field, Tone } from "./reply.js";
import type { Translator } from "../i18n/index.js";

export type RiskLevel = "high" | "caution" | "low" | "none";

export interface RiskVerdict {
  level: RiskLevel;
  /** One line, e.g. "🔴 High risk: honeypot, sell tax 99.0%". */
  line: string;
  tone: Tone;
  /** The reasons behind a high or caution level, most serious first. */
  reasons: string[];
}

/** Above this a tax is a red flag; above `TAX_CAUTION` it is worth a warning. */
const TAX_HIGH = 0.5;
const TAX_CAUTION = 0.1;
/** A risk score above 55 is high, 20 and up is normal (not "safe"). */
const SCORE_HIGH = 55;
const SCORE_LOW = 20;
/** Less of the LP locked than this is a warning. */
const LP_LOCK_MIN = 0.5;
/** Top holders (without LP) owning more than this is a warning. */
const CONCENTRATION_MAX = 0.5;
const CREATOR_MAX = 0.05;

const yes = (flag: string | undefined): boolean => flag === "1";
const num = (v: string | number | undefined): number | undefined => {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Fields only a real report carries; with none of them the report is empty. */
const REPORT_FIELDS = [
  "is_honeypot", "buy_tax", "sell_tax", "has_mint_method", "owner", "is_proxy", "hidden_owner",
  "cannot_sell_all", "token_holders_rank", "creator_percent", "pair_lock_percent", "risk_score",
] as const;

/** Whether the report carries data at all: `err_code` "0" (or empty) and some report fields. */
export function hasReport(r: RiskReport): boolean {
  if (r.err_code !== undefined && r.err_code !== "0" && r.err_code !== "") return false;
  return REPORT_FIELDS.some((f) => r[f] !== undefined && r[f] !== "");
}

function isRenounced(owner: string | undefined): boolean {
  return owner === undefined || owner === "" || /^0x0{40}$/i.test(owner) || /^0x0+dead$/i.test(owner);
}

/** Share of the supply held by the top 10 holders, LP pools left out; undefined without a holder list. */
export function topTenShare(r: RiskReport): number | undefined {
  const ranks = r.token_holders_rank;
  if (ranks === undefined || ranks.length === 0) return undefined;
  let sum = 0;
  for (const h of ranks.filter((h) => h.is_lp !== 1).slice(0, 10)) sum += num(h.percent) ?? 0;
  return sum;
}

/** A verdict line names at most this many reasons, the rest counted; the findings table shows them all. */
const VERDICT_REASONS_MAX = 5;

/**
 * Every reason goes into the line, high ones first: a red verdict that named only the score
 * would hide the taxes, owner and locks behind it.
 */
function verdictOf(high: string[], caution: string[], i18n: Translator): RiskVerdict {
  const reasons = [...high, ...caution];
  if (reasons.length === 0) return { level: "low", line: i18n.t("risk-low-report"), tone: "good", reasons: [] };
  const shown = reasons.slice(0, VERDICT_REASONS_MAX).join(i18n.t("list-sep"));
  const rest = reasons.length - VERDICT_REASONS_MAX;
  const named = rest > 0 ? i18n.t("risk-reasons-more", { reasons: shown, count: rest }) : shown;
  if (high.length > 0) return { level: "high", line: i18n.t("risk-high", { reasons: named }), tone: "danger", reasons };
  return { level: "caution", line: i18n.t("risk-caution", { reasons: named }), tone: "warn", reasons };
}

/** A table value that is one of the verdict's reasons. */
const flagged = (value: string): string => `⚠ ${value}`;

/** The verdict and findings of a contract risk report. */
export function assessReport(r: RiskReport, i18n: Translator): { verdict: RiskVerdict; findings: Field[] } {
  const { t } = i18n;
  if (!hasReport(r)) return { verdict: { level: "none", line: t("risk-no-data"), tone: "warn", reasons: [] }, findings: [] };
  const high: string[] = [];
  const caution: string[] = [];
  const buyTax = num(r.buy_tax);
  const sellTax = num(r.sell_tax);
  const lpLock = num(r.pair_lock_percent);
  const creator = num(r.creator_percent);
  const top10 = topTenShare(r);
  const score = num(r.risk_score);

  if (r.is_honeypot === 1) high.push(t("risk-honeypot"));
  if (yes(r.cannot_sell_all)) high.push(t("risk-cannot-sell-all"));
  if (yes(r.cannot_buy)) high.push(t("risk-cannot-buy"));
  for (const [key, tax] of [["risk-buy-tax", buyTax], ["risk-sell-tax", sellTax]] as const) {
    if (tax === undefined) continue;
    if (tax >= TAX_HIGH) high.push(t(key, { tax: formatRatio(tax) }));
    else if (tax >= TAX_CAUTION) caution.push(t(key, { tax: formatRatio(tax) }));
  }
  if (yes(r.hidden_owner)) high.push(t("risk-hidden-owner"));
  if (yes(r.selfdestruct)) high.push(t("risk-selfdestruct"));
  if (yes(r.honeypot_with_same_creator)) high.push(t("risk-creator-honeypots"));
  if (r.is_honeypot === -1) caution.push(t("risk-honeypot-unchecked"));
  if (r.has_mint_method === 1) caution.push(t("risk-mintable"));
  if (!isRenounced(r.owner)) caution.push(t("risk-owner-not-renounced"));
  if (yes(r.can_take_back_ownership)) caution.push(t("risk-owner-take-back"));
  if (yes(r.is_proxy)) caution.push(t("risk-proxy"));
  if (r.has_black_method === 1) caution.push(t("risk-blacklist"));
  if (r.has_white_method === 1) caution.push(t("risk-whitelist"));
  if (yes(r.trading_cooldown)) caution.push(t("risk-cooldown"));
  if (yes(r.transfer_pausable)) caution.push(t("risk-pausable"));
  if (lpLock !== undefined && lpLock < LP_LOCK_MIN) caution.push(t("risk-lp-locked", { share: formatRatio(lpLock) }));
  if (top10 !== undefined && top10 > CONCENTRATION_MAX) caution.push(t("risk-top10-hold", { share: formatRatio(Math.min(top10, 1)) }));
  if (creator !== undefined && creator > CREATOR_MAX) caution.push(t("risk-creator-holds", { share: formatRatio(creator) }));
  if (score !== undefined && score > SCORE_HIGH) high.push(t("risk-score", { score: String(score) }));
  else if (score !== undefined && score >= SCORE_LOW && high.length === 0 && caution.length === 0) caution.push(t("risk-score", { score: String(score) }));

  const yn = (on: boolean): string => t(on ? "risk-yes-bad" : "risk-no");
  const honeypot = r.is_honeypot === 1 ? t("risk-yes-honeypot") : r.is_honeypot === -1 ? t("risk-not-checked") : r.is_honeypot === 0 ? t("risk-no") : DASH;
  const taxText = (tax: number | undefined): string => tax === undefined ? DASH : tax >= TAX_CAUTION ? flagged(formatRatio(tax)) : formatRatio(tax);
  const share = (v: number | undefined, bad: boolean): string => v === undefined ? DASH : bad ? flagged(formatRatio(v)) : formatRatio(v);
  const findings: Field[] = [
    { label: t("risk-label-honeypot"), value: honeypot, inline: true },
    { label: t("risk-label-tax"), value: `${taxText(buyTax)} / ${taxText(sellTax)}`, inline: true },
    { label: t("risk-label-mintable"), value: yn(r.has_mint_method === 1), inline: true },
    { label: t("risk-label-owner"), value: isRenounced(r.owner) ? t("risk-renounced") : flagged(shortAddress(r.owner)), inline: true },
    { label: t("risk-label-proxy"), value: yn(yes(r.is_proxy)), inline: true },
    { label: t("risk-label-lists"), value: `${yn(r.has_black_method === 1)} / ${yn(r.has_white_method === 1)}`, inline: true },
    { label: t("risk-label-cooldown"), value: yn(yes(r.trading_cooldown)), inline: true },
    { label: t("risk-label-pausable"), value: yn(yes(r.transfer_pausable)), inline: true },
    { label: t("risk-label-hidden-owner"), value: yn(yes(r.hidden_owner)), inline: true },
    { label: t("risk-label-lp-locked"), value: share(lpLock, lpLock !== undefined && lpLock < LP_LOCK_MIN), inline: true },
    { label: t("risk-label-token-locked"), value: r.token_lock_percent === undefined ? DASH : formatRatio(r.token_lock_percent), inline: true },
    { label: t("risk-label-top10"), value: share(top10 === undefined ? undefined : Math.min(top10, 1), top10 !== undefined && top10 > CONCENTRATION_MAX), inline: true },
    { label: t("risk-label-creator"), value: share(creator, creator !== undefined && creator > CREATOR_MAX), inline: true },
  ];
  return { verdict: verdictOf(high, caution, i18n), findings };
}

/**
 * A rough verdict from a token record's `risk_level` / `risk_score`, for when the full report
 * is not at hand. High when `risk_level` is -1, or not listed and the score is above 55. Never
 * green: a low score is the service's opinion, not a read contract, and `risk_level` 0 ("normal
 * or unverified") with score 0 is what an unchecked token carries. A listed token with a low
 * score gets its own ⚪ line, anything else that raises no flag is "no risk data".
 */
export function assessRecord(t: Pick<TokenV2, "risk_level" | "risk_score">, i18n: Translator): RiskVerdict {
  const score = num(t.risk_score);
  const scored = () => i18n.t("risk-score", { score: String(score) });
  if (t.risk_level === -1) return verdictOf([i18n.t("risk-flagged")], [], i18n);
  if (t.risk_level !== 1 && score !== undefined && score > SCORE_HIGH) return verdictOf([scored()], [], i18n);
  if (score !== undefined && score >= SCORE_LOW) return verdictOf([], [scored()], i18n);
  const listedLow = t.risk_level === 1 && score !== undefined;
  return { level: "none", line: i18n.t(listedLow ? "risk-record-only" : "risk-no-data"), tone: "warn", reasons: [] };
}
