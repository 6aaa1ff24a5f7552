/**
 * What a fired or paused alert says: a Reply built from the firing's record in the chat's
 * language, so a message sent after a restart reads exactly as it would have before. Names were
 * cleaned when the alert was made, and the adapters escape them again.
 */
import { z } from "zod";
import type { Translator } from "../../i18n/index.js";
import { ruleText, utcTime } from "../alerts/rule-text.js";
import { cleanText, formatPercent, formatPrice, formatPriceBeside } from "../format/index.js";
import type { Action, Reply } from "../reply.js";
import { openButton } from "../reply-parts.js";

/** A fired alert as the check saw it. Prices are decimal text. */
export const firedPayload = z.object({
  number: z.number(),
  tokenId: z.string(),
  symbol: z.string(),
  chain: z.string(),
  rule: z.enum(["above", "below", "move"]),
  level: z.string(),
  /** The price judged from: the last one seen (above/below) or the anchor (move). */
  from: z.string(),
  /** The price that crossed the level or completed the move. */
  price: z.string(),
  /** When the check saw it, epoch ms. */
  at: z.number(),
});
export type FiredPayload = z.infer<typeof firedPayload>;

/** A token with no price for 24 h: its alerts in this chat are paused. */
export const pausedPayload = z.object({
  numbers: z.array(z.number()),
  tokenId: z.string(),
  symbol: z.string(),
  chain: z.string(),
  /** Since when it has been missing, epoch ms. */
  since: z.number(),
});
export type PausedPayload = z.infer<typeof pausedPayload>;

function change(from: string, to: string, locale: string): string {
  const a = Number(from);
  const b = Number(to);
  return a > 0 ? formatPercent(((b - a) / a) * 100, { locale }) : "";
}

export function firedReply(p: FiredPayload, source: string, i18n: Translator): Reply {
  const symbol = cleanText(p.symbol, 16);
  const chain = cleanText(p.chain, 16);
  const moved = change(p.from, p.price, i18n.locale);
  const [now, before] = formatPriceBeside(p.price, p.from, { locale: i18n.locale });
  const title = p.rule === "move"
    ? i18n.t("alert-fired-move", { number: p.number, symbol, change: moved })
    : i18n.t(p.rule === "above" ? "alert-fired-above" : "alert-fired-below", { number: p.number, symbol, level: formatPrice(p.level, { locale: i18n.locale }) });
  const buttons: Action[] = [openButton(i18n.t("alert-button-card"), "token", [p.tokenId]), openButton(i18n.t("alert-button-chart"), "chart", [p.tokenId])];
  if (p.rule !== "move") buttons.push(openButton(i18n.t("alert-button-rearm"), "rearm", [String(p.number)]));
  buttons.push(openButton(i18n.t("alert-button-delete"), "unalert", [String(p.number)]));
  return {
    title,
    tone: p.rule === "below" || (p.rule === "move" && Number(p.price) < Number(p.from)) ? "danger" : "good",
    blocks: [
      {
        kind: "fields",
        fields: [
          { label: i18n.t("alert-field-token"), value: i18n.t("alert-token-on", { symbol, chain }), inline: true },
          { label: i18n.t("alert-field-alert"), value: i18n.t("alert-numbered", { number: String(p.number), rule: ruleText(p.rule, p.level, i18n) }), inline: true },
          { label: i18n.t("alert-field-price"), value: moved === "" ? now : `${now} (${moved})`, inline: true },
          { label: i18n.t(p.rule === "move" ? "alert-field-anchor" : "alert-field-last-seen"), value: before, inline: true },
          { label: i18n.t("alert-field-time"), value: utcTime(p.at, i18n.locale), inline: true },
        ],
      },
      { kind: "text", text: i18n.t(p.rule === "move" ? "alert-fired-move-note" : "alert-fired-level-note") },
    ],
    actions: [buttons],
    footer: { source, asOf: p.at },
    locale: i18n.locale,
  };
}

export function pausedReply(p: PausedPayload, source: string, i18n: Translator): Reply {
  return {
    title: i18n.t("alert-paused", {
      count: p.numbers.length,
      numbers: p.numbers.map((n) => `#${n}`).join(i18n.t("list-sep")),
      symbol: cleanText(p.symbol, 16),
      chain: cleanText(p.chain, 16),
    }),
    tone: "warn",
    blocks: [{ kind: "text", text: i18n.t("alert-paused-how") }],
    actions: [[openButton(i18n.t("alert-button-card"), "token", [p.tokenId]), openButton(i18n.t("alert-button-alerts"), "alerts", [])]],
    footer: { source, asOf: p.since },
    locale: i18n.locale,
  };
}
