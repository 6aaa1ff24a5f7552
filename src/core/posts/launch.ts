/**
 * The words of a launch post, written at send time in the chat's language: the contract
 * report's verdict first, then the token. A token without a report is "not checked", never
 * low risk. The payload is what the launch watcher stored on the row
 * (src/launches/watcher.ts).
 */
import { z } from "zod";
import type { Translator } from "../../i18n/index.js";
import { riskReport } from "../../market/schemas.js";
import { formatPrice, formatUsd, shortAddress } from "../format/index.js";
import type { Reply } from "../reply.js";
import { assessReport, hasReport } from "../risk.js";

/** One new token as the watcher saw it. */
export const launchPayload = z.object({
  tokenId: z.string(),
  chain: z.string(),
  address: z.string(),
  symbol: z.string(),
  name: z.string(),
  /** Unix seconds. */
  launchAt: z.number(),
  liquidity: z.number().optional(),
  priceUsd: z.string().optional(),
  report: riskReport.optional(),
});
export type LaunchPayload = z.infer<typeof launchPayload>;

export const summaryPayload = z.object({
  chain: z.string(),
  max: z.number(),
  tokens: z.array(z.object({ symbol: z.string(), address: z.string(), launchAt: z.number() })),
});
export type SummaryPayload = z.infer<typeof summaryPayload>;

export function launchReply(p: LaunchPayload, source: string, i18n: Translator): Reply {
  const { t } = i18n;
  const checked = p.report !== undefined && hasReport(p.report) ? assessReport(p.report, i18n).verdict : undefined;
  return {
    title: checked?.line ?? t("launch-not-checked"),
    tone: checked?.tone ?? "warn",
    blocks: [
      { kind: "text", text: t("launch-new", { chain: p.chain, symbol: p.symbol, name: p.name }) },
      {
        kind: "fields",
        fields: [
          { label: t("launch-label-address"), value: shortAddress(p.address), inline: true },
          { label: t("launch-label-liquidity"), value: formatUsd(p.liquidity), inline: true },
          { label: t("launch-label-price"), value: formatPrice(p.priceUsd), inline: true },
          { label: t("launch-label-launched"), value: new Date(p.launchAt * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC", inline: true },
        ],
      },
    ],
    actions: [],
    footer: { source, asOf: p.launchAt * 1000 },
    locale: i18n.locale,
  };
}

export function summaryReply(p: SummaryPayload, source: string, i18n: Translator): Reply {
  const { t } = i18n;
  return {
    title: t("launch-summary-title", { count: p.tokens.length, chain: p.chain }),
    tone: "info",
    blocks: [
      { kind: "text", text: t("launch-summary-why", { max: p.max }) },
      { kind: "table", columns: ["", t("launch-label-address")], rows: p.tokens.map((x) => [x.symbol, shortAddress(x.address)]) },
    ],
    actions: [],
    footer: { source, asOf: Math.max(...p.tokens.map((x) => x.launchAt * 1000)) },
    locale: i18n.locale,
  };
}
