/**
 * The words of a launch post, written at send time in the chat's language: the contract
 * report's verdict first, then the token. A token without a report is "not checked", never
 * low risk. The payload is what the launch watcher stored on the row
 * (src/launches/watcher.ts).
 */
import { z } from "zod";
import type { Translator } from "../../i18n/index.js";
import { riskReport, type RiskReport } from "../../market/schemas.js";
import { cleanText, formatPrice, formatUsd, shortAddress, utcMinute } from "../format/index.js";
import type { Footer, Reply } from "../reply.js";
import { openButton } from "../reply-parts.js";
import { assessReport, hasReport, type RiskLevel } from "../risk.js";

/** One new token as the watcher saw it. */
export const launchPayload = z.object({
  tokenId: z.string(),
  chain: z.string(),
  address: z.string(),
  symbol: z.string(),
  name: z.string(),
  /** Unix seconds. */
  launchAt: z.number(),
  /** When the list giving its price and liquidity was fetched (epoch ms); rows queued before it was kept lack it. */
  readAt: z.number().optional(),
  /**
   * That list was an expired copy served because the service failed: set by the watcher while it read
   * its lists through the cache, read still for the rows queued then (kept eight days).
   */
  stale: z.boolean().optional(),
  liquidity: z.number().optional(),
  priceUsd: z.string().optional(),
  report: riskReport.optional(),
});
export type LaunchPayload = z.infer<typeof launchPayload>;

export const summaryPayload = z.object({
  chain: z.string(),
  max: z.number(),
  /** The clock hours in which the tokens were found (epoch ms, `to` exclusive); absent in a summary queued by an older build. */
  from: z.number().optional(),
  to: z.number().optional(),
  tokens: z.array(
    z.object({ symbol: z.string(), address: z.string(), launchAt: z.number(), readAt: z.number().optional(), report: riskReport.optional() }),
  ),
});
export type SummaryPayload = z.infer<typeof summaryPayload>;

const HOUR = 3_600_000;

/** A summary row's verdict in a word: the one-line findings of a post would not fit a table. */
const MARKS: Record<RiskLevel, string> = { high: "launch-mark-high", caution: "launch-mark-caution", low: "launch-mark-low", none: "launch-mark-none" };

function checked(report: RiskReport | undefined, i18n: Translator) {
  return report !== undefined && hasReport(report) ? assessReport(report, i18n).verdict : undefined;
}

export function launchReply(p: LaunchPayload, source: string, i18n: Translator): Reply {
  const { t, locale } = i18n;
  const verdict = checked(p.report, i18n);
  const footer: Footer = { source };
  if (p.readAt !== undefined) footer.asOf = p.readAt;
  if (p.stale === true) footer.stale = true;
  return {
    title: verdict?.line ?? t("launch-not-checked"),
    tone: verdict?.tone ?? "warn",
    // The post starts with the verdict and its own mark.
    titleMarked: true,
    blocks: [
      // A stranger's words: one line, no mention, cut as every card cuts them.
      { kind: "text", text: t("launch-new", { chain: cleanText(p.chain, 16), symbol: cleanText(p.symbol, 16), name: cleanText(p.name, 40) }) },
      {
        kind: "fields",
        fields: [
          // Whole: a member copies it from here to look the token up or trade it.
          { label: t("launch-label-address"), value: cleanText(p.address, 100), inline: false },
          { label: t("launch-label-liquidity"), value: formatUsd(p.liquidity, { locale }), inline: true },
          { label: t("launch-label-price"), value: formatPrice(p.priceUsd, { locale }), inline: true },
          { label: t("launch-label-launched"), value: `${utcMinute(p.launchAt * 1000)} UTC`, inline: true },
        ],
      },
    ],
    actions: [[openButton(t("button-card"), "token", [p.tokenId]), openButton(t("button-risk"), "risk", [p.tokenId]), openButton(t("button-chart"), "chart", [p.tokenId])]],
    footer,
    locale,
  };
}

export function summaryReply(p: SummaryPayload, source: string, i18n: Translator): Reply {
  const { t } = i18n;
  const reads = p.tokens.flatMap((x) => (x.readAt === undefined ? [] : [x.readAt]));
  const footer: Footer = { source };
  // The oldest read, as every row is at least that fresh; unsaid when a row's read was not kept.
  if (reads.length > 0 && reads.length === p.tokens.length) footer.asOf = Math.min(...reads);
  // A summary queued before its hours were kept is still owed to the chat: it goes out without them.
  const title = p.from === undefined || p.to === undefined
    ? t("launch-summary-title-undated", { count: p.tokens.length, chain: cleanText(p.chain, 16) })
    : t("launch-summary-title", { count: p.tokens.length, chain: cleanText(p.chain, 16), from: utcMinute(p.from, p.to - p.from > HOUR), to: utcMinute(p.to, p.to - p.from > HOUR) });
  return {
    title,
    tone: "info",
    blocks: [
      { kind: "text", text: t("launch-summary-why", { max: p.max }) },
      {
        kind: "table",
        columns: [t("launch-col-contract"), t("launch-col-token"), t("launch-label-address")],
        rows: p.tokens.map((x) => [t(MARKS[checked(x.report, i18n)?.level ?? "none"]), cleanText(x.symbol, 16), shortAddress(x.address)]),
      },
    ],
    actions: [],
    footer,
    locale: i18n.locale,
  };
}
