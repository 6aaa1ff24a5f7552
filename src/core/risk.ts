/**
 * Contract risk as people read it: a verdict 🟢/🟡/🔴 and the findings that matter, from the
 * report's documented meanings (service-notes.md "Risk semantics"). A report that is empty or
 * errored is "no risk data", never a clean bill; `is_honeypot` -1 means not checked.
 */
import type { RiskReport, TokenV2 } from "../market/schemas.js";
import { DASH, formatRatio, shortAddress } from "./format/index.js";
import type { Field, Tone } from "./reply.js";

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

export const NO_DATA_LINE = "⚪ No risk data — this is not a clean bill";

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

function verdictOf(high: string[], caution: string[]): RiskVerdict {
  if (high.length > 0) return { level: "high", line: `🔴 High risk: ${high.join(", ")}`, tone: "danger", reasons: [...high, ...caution] };
  if (caution.length > 0) return { level: "caution", line: `🟡 Caution: ${caution.join(", ")}`, tone: "warn", reasons: caution };
  return { level: "low", line: "🟢 No red flags in the contract report", tone: "good", reasons: [] };
}

/** The verdict and findings of a contract risk report. */
export function assessReport(r: RiskReport): { verdict: RiskVerdict; findings: Field[] } {
  if (!hasReport(r)) return { verdict: { level: "none", line: NO_DATA_LINE, tone: "warn", reasons: [] }, findings: [] };
  const high: string[] = [];
  const caution: string[] = [];
  const buyTax = num(r.buy_tax);
  const sellTax = num(r.sell_tax);
  const lpLock = num(r.pair_lock_percent);
  const creator = num(r.creator_percent);
  const top10 = topTenShare(r);
  const score = num(r.risk_score);

  if (r.is_honeypot === 1) high.push("honeypot");
  if (yes(r.cannot_sell_all)) high.push("cannot sell all");
  if (yes(r.cannot_buy)) high.push("cannot buy");
  for (const [name, tax] of [["buy", buyTax], ["sell", sellTax]] as const) {
    if (tax === undefined) continue;
    if (tax >= TAX_HIGH) high.push(`${name} tax ${formatRatio(tax)}`);
    else if (tax >= TAX_CAUTION) caution.push(`${name} tax ${formatRatio(tax)}`);
  }
  if (yes(r.hidden_owner)) high.push("hidden owner");
  if (yes(r.selfdestruct)) high.push("can self-destruct");
  if (yes(r.honeypot_with_same_creator)) high.push("creator made honeypots before");
  if (r.is_honeypot === -1) caution.push("honeypot not checked");
  if (r.has_mint_method === 1) caution.push("mintable");
  if (!isRenounced(r.owner)) caution.push("owner not renounced");
  if (yes(r.can_take_back_ownership)) caution.push("owner can take back ownership");
  if (yes(r.is_proxy)) caution.push("upgradeable proxy");
  if (r.has_black_method === 1) caution.push("blacklist method");
  if (r.has_white_method === 1) caution.push("whitelist method");
  if (yes(r.trading_cooldown)) caution.push("trading cooldown");
  if (yes(r.transfer_pausable)) caution.push("transfers can be paused");
  if (lpLock !== undefined && lpLock < LP_LOCK_MIN) caution.push(`LP locked ${formatRatio(lpLock)}`);
  if (top10 !== undefined && top10 > CONCENTRATION_MAX) caution.push(`top 10 hold ${formatRatio(Math.min(top10, 1))}`);
  if (creator !== undefined && creator > CREATOR_MAX) caution.push(`creator holds ${formatRatio(creator)}`);
  if (score !== undefined && score > SCORE_HIGH) high.push(`risk score ${score}/100`);
  else if (score !== undefined && score >= SCORE_LOW && high.length === 0 && caution.length === 0) caution.push(`risk score ${score}/100`);

  const yn = (on: boolean, bad = "yes"): string => (on ? `⚠ ${bad}` : "no");
  const honeypot = r.is_honeypot === 1 ? "⛔ yes" : r.is_honeypot === -1 ? "not checked" : r.is_honeypot === 0 ? "no" : DASH;
  const findings: Field[] = [
    { label: "Honeypot", value: honeypot, inline: true },
    { label: "Buy / sell tax", value: `${buyTax === undefined ? DASH : formatRatio(buyTax)} / ${sellTax === undefined ? DASH : formatRatio(sellTax)}`, inline: true },
    { label: "Mintable", value: yn(r.has_mint_method === 1), inline: true },
    { label: "Owner", value: isRenounced(r.owner) ? "renounced" : `⚠ ${shortAddress(r.owner)}`, inline: true },
    { label: "Proxy", value: yn(yes(r.is_proxy)), inline: true },
    { label: "Blacklist / whitelist", value: `${r.has_black_method === 1 ? "⚠ yes" : "no"} / ${r.has_white_method === 1 ? "⚠ yes" : "no"}`, inline: true },
    { label: "Trading cooldown", value: yn(yes(r.trading_cooldown)), inline: true },
    { label: "Pausable transfers", value: yn(yes(r.transfer_pausable)), inline: true },
    { label: "Hidden owner", value: yn(yes(r.hidden_owner)), inline: true },
    { label: "LP locked", value: lpLock === undefined ? DASH : formatRatio(lpLock), inline: true },
    { label: "Token locked", value: r.token_lock_percent === undefined ? DASH : formatRatio(r.token_lock_percent), inline: true },
    { label: "Top 10 holders", value: top10 === undefined ? DASH : formatRatio(Math.min(top10, 1)), inline: true },
    { label: "Creator share", value: creator === undefined ? DASH : formatRatio(creator), inline: true },
  ];
  return { verdict: verdictOf(high, caution), findings };
}

/**
 * A rough verdict from a token record's `risk_level` / `risk_score`, for when the full report
 * is not at hand. High when `risk_level` is -1, or not listed and the score is above 55.
 */
export function assessRecord(t: Pick<TokenV2, "risk_level" | "risk_score">): RiskVerdict {
  const score = num(t.risk_score);
  if (t.risk_level === -1) return verdictOf(["flagged high-risk"], []);
  if (t.risk_level !== 1 && score !== undefined && score > SCORE_HIGH) return verdictOf([`risk score ${score}/100`], []);
  if (score === undefined && t.risk_level === undefined) return { level: "none", line: NO_DATA_LINE, tone: "warn", reasons: [] };
  if (score !== undefined && score >= SCORE_LOW) return verdictOf([], [`risk score ${score}/100`]);
  return { level: "low", line: "🟢 No red flags in the token record", tone: "good", reasons: [] };
}
