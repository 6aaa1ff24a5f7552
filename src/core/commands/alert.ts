/** `/alert <token> above|below <price>`, `/alert <token> move <percent>` and `/rearm <n>`. */
import { requireManager, type AlertLimits } from "../alerts/limits.js";
import { distanceFigure, ruleText } from "../alerts/rule-text.js";
import { parsePercent, parsePrice } from "../alerts/price-text.js";
import { distancePercent, levelPassed, waitsToCrossBack } from "../alerts/rules.js";
import { readPrice } from "../../market/decimal.js";
import type { Alert, AlertRule } from "../../store/types.js";
import type { MessageArgs } from "../../i18n/index.js";
import { defineCommand, type Command, type CommandContext } from "../command.js";
import { cleanText, formatPrice } from "../format/index.js";
import { keepPostTopic } from "../post-topic.js";
import type { Reply } from "../reply.js";
import { openButton } from "../reply-parts.js";
import { resolveExact, symbolFor } from "./resolution.js";

export const ALERT_RULES: readonly AlertRule[] = ["above", "below", "move"];

/** The current price of one token, thin pools included; a UserError when the service has none it could mean. */
export async function currentPrice(ctx: CommandContext, tokenId: string, symbol: string): Promise<{ text: string; value: number }> {
  const prices = await ctx.market.batchPrices({ tokenIds: [tokenId], tvlMin: 0 });
  const price = readPrice(prices.data[tokenId]?.current_price_usd);
  if (price === undefined) throw ctx.i18n.fail("alert-no-price", { symbol });
  return price;
}

/** "PEPE is already at or above $0.0042 (now $0.0051); choose a level above the current price." */
function levelMessage(symbol: string, rule: "above" | "below", level: number, current: string, locale: string): { key: string; args: MessageArgs } {
  return { key: `alert-wrong-side-${rule}`, args: { symbol, level: formatPrice(level, { locale }), price: formatPrice(current, { locale }) } };
}

/** How far an alert is from firing, in words: `1.63% to go`. */
function distanceText(ctx: Pick<CommandContext, "i18n">, d: number): string {
  return d < 0.01 ? ctx.i18n.t("alert-distance-due") : ctx.i18n.t("alert-distance", { percent: distanceFigure(d, ctx.i18n.locale) });
}

/**
 * The answer to a new or re-armed alert. An above/below alert re-armed past its level has no
 * distance to go: it fires on the next crossing, after the price has come back, and says so.
 */
function setReply(ctx: CommandContext, title: string, alert: Alert, current: { text: string; value: number }): Reply {
  const past = waitsToCrossBack(alert, current.value) ? alert.rule : undefined;
  const now = { label: ctx.i18n.t("alert-field-now"), value: formatPrice(current.text, { locale: ctx.i18n.locale }), inline: true };
  const distance = { label: ctx.i18n.t("alert-field-distance"), value: distanceText(ctx, distancePercent(alert, current.value)), inline: true };
  return {
    title,
    tone: "good",
    blocks: [
      { kind: "fields", fields: past === undefined ? [now, distance] : [now] },
      ...(past === undefined ? [] : [{ kind: "text" as const, text: ctx.i18n.t(`alert-rearmed-past-${past}`, { symbol: alert.symbol }) }]),
      { kind: "text", text: ctx.i18n.t(alert.rule === "move" ? "alert-explain-move" : "alert-explain-level") },
    ],
    actions: [[openButton(ctx.i18n.t("alert-button-alerts"), "alerts", []), openButton(ctx.i18n.t("alert-button-delete"), "unalert", [String(alert.number)])]],
  };
}

export function alertCommand(limits: AlertLimits): Command {
  return defineCommand({
    name: "alert",
    description: "Tell this chat when a token crosses a price or moves by a percent (admins in groups)",
    args: [
      { name: "token", description: "Symbol, address or link", type: "token", required: true },
      { name: "rule", description: "above, below or move", type: "text", required: true, choices: ALERT_RULES },
      { name: "value", description: "A price such as 0.0042, $1.5k or 2M; for move a percent such as 10%", type: "text", required: true },
    ],
    examples: ["/alert pepe above 0.001", "/alert wif below $0.01", "/alert bonk move 10%"],
    async run(ctx, args) {
      await requireManager(ctx, "alerts");
      const { rule } = args;
      const parsed = rule === "move" ? parsePercent(args.value) : parsePrice(args.value);
      if (!parsed.ok) throw ctx.i18n.fail(parsed.error.key, parsed.error.args);
      const res = await resolveExact(ctx, args.token);
      const symbol = await symbolFor(ctx, res);
      const price = await currentPrice(ctx, res.tokenId, symbol);
      if (rule !== "move" && levelPassed(rule, parsed.value, price.value)) {
        const m = levelMessage(symbol, rule, parsed.value, price.text, ctx.i18n.locale);
        throw ctx.i18n.fail(m.key, m.args);
      }
      const added = await ctx.store.alerts.addAlert(
        {
          platform: ctx.chat.platform,
          chatId: ctx.chat.chatId,
          tokenId: res.tokenId,
          symbol,
          chain: cleanText(res.chain, 16),
          rule,
          level: String(parsed.value),
          anchorPrice: price.text,
          anchorAt: ctx.now(),
        },
        limits.maxPerChat,
        ctx.now(),
      );
      if ("full" in added) {
        throw ctx.i18n.fail("alert-full", { count: added.full, max: limits.maxPerChat });
      }
      await keepPostTopic(ctx);
      const a = added.alert;
      return setReply(ctx, ctx.i18n.t("alert-set", { number: a.number, symbol, rule: ruleText(rule, a.level, ctx.i18n) }), a, price);
    },
  });
}

/** Reads `#3`, `3` or `#1,000` (as replies print numbers, grouped) as an alert number. */
export function alertNumber(raw: string): number | undefined {
  const m = /^#?(\d{1,9}|\d{1,3}(?:,\d{3}){1,2})$/.exec(raw.trim());
  return m ? Number(m[1]!.replaceAll(",", "")) : undefined;
}

/**
 * Arms an alert again from the current price: a fired above/below alert waits for the next
 * crossing, a move alert measures from here, a paused one wakes up. A level the price is still
 * past is no refusal (the Re-arm button is offered just after a firing, when it mostly is): the
 * checker judges a crossing from the price it was armed at, so it fires once the price has come
 * back and crosses again.
 */
export const rearmCommand = defineCommand({
  name: "rearm",
  description: "Arm an alert again from the current price (admins in groups)",
  args: [{ name: "alert", description: "The alert's number in /alerts", type: "text", required: true }],
  examples: ["/rearm 1"],
  async run(ctx, args) {
    await requireManager(ctx, "alerts");
    const number = alertNumber(args.alert);
    if (number === undefined) throw ctx.i18n.fail("alert-which-rearm");
    const alert = (await ctx.store.alerts.listAlerts(ctx.chat)).find((a) => a.number === number);
    if (alert === undefined) throw ctx.i18n.fail("alert-no-such", { number });
    const price = await currentPrice(ctx, alert.tokenId, alert.symbol);
    const rearmed = await ctx.store.alerts.rearmAlert(ctx.chat, number, price.text, ctx.now());
    if (rearmed === undefined) throw ctx.i18n.fail("alert-no-such", { number });
    const words = { number, symbol: alert.symbol, rule: ruleText(alert.rule, alert.level, ctx.i18n), price: formatPrice(price.text, { locale: ctx.i18n.locale }) };
    return setReply(ctx, ctx.i18n.t(alert.rule === "move" ? "alert-armed-from" : "alert-armed", words), rearmed, price);
  },
});
