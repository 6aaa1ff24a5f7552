/** `/alert <token> above|below <price>`, `/alert <token> move <percent>` and `/rearm <n>`. */
import { requireManager, type AlertLimits } from "../../alerts/limits.js";
import { ruleText } from "../../alerts/message.js";
import { parsePercent, parsePrice } from "../../alerts/price-text.js";
import { distancePercent, wrongSide } from "../../alerts/rules.js";
import type { Alert, AlertRule } from "../../store/types.js";
import type { Command, CommandContext } from "../command.js";
import { UserError } from "../errors.js";
import { cleanText, formatPrice } from "../format/index.js";
import type { Reply } from "../reply.js";
import { openButton } from "../reply-parts.js";
import { resolveArg, symbolFor } from "./resolution.js";

export const ALERT_RULES: readonly AlertRule[] = ["above", "below", "move"];

/** The current price of one token, thin pools included; a UserError when the service has none. */
export async function currentPrice(ctx: CommandContext, tokenId: string, symbol: string): Promise<{ text: string; value: number }> {
  const prices = await ctx.market.batchPrices({ tokenIds: [tokenId], tvlMin: 0 });
  const text = prices.data[tokenId]?.current_price_usd;
  const value = Number(text);
  if (text === undefined || !(value > 0)) {
    throw new UserError(`The service has no current price for ${symbol}, so there is nothing to set an alert on.`);
  }
  return { text, value };
}

/** "PEPE is already above $0.0042 (now $0.0051); choose a level above the current price." */
function wrongSideSentence(symbol: string, rule: "above" | "below", level: number, current: string): string {
  const side = rule === "above" ? "at or above" : "at or below";
  return `${symbol} is already ${side} ${formatPrice(level)} (now ${formatPrice(current)}); choose a level ${rule} the current price.`;
}

function fmtDistance(d: number): string {
  return d < 0.01 ? "due at the next check" : `${d.toFixed(d < 10 ? 2 : 1)}% to go`;
}

/** The answer to a new or re-armed alert. */
function setReply(title: string, alert: Alert, current: string): Reply {
  return {
    title,
    tone: "good",
    blocks: [
      {
        kind: "fields",
        fields: [
          { label: "Now", value: formatPrice(current), inline: true },
          { label: "Distance", value: fmtDistance(distancePercent(alert, Number(current))), inline: true },
        ],
      },
      {
        kind: "text",
        text: alert.rule === "move"
          ? "It fires each time the price has moved that far from the price it last fired on, checked every few seconds."
          : "It fires once when the price crosses the level, then waits to be re-armed.",
      },
    ],
    actions: [[openButton("Alerts", "alerts", []), openButton("Delete", "unalert", [String(alert.number)])]],
  };
}

export function alertCommand(limits: AlertLimits): Command {
  return {
    name: "alert",
    description: "Tell this chat when a token crosses a price or moves by a percent (admins in groups)",
    args: [
      { name: "token", description: "Symbol, name, address or link", type: "token", required: true },
      { name: "rule", description: "above, below or move", type: "text", required: true, choices: ALERT_RULES },
      { name: "value", description: "A price such as 0.0042, $1.5k or 2M; for move a percent such as 10%", type: "text", required: true },
    ],
    examples: ["/alert pepe above 0.001", "/alert wif below $0.01", "/alert bonk move 10%"],
    async run(ctx, args) {
      await requireManager(ctx, "alerts");
      const rule = String(args.rule) as AlertRule;
      const parsed = rule === "move" ? parsePercent(String(args.value)) : parsePrice(String(args.value));
      if (!parsed.ok) throw new UserError(parsed.error);
      const res = await resolveArg(ctx, String(args.token));
      const symbol = await symbolFor(ctx, res);
      const price = await currentPrice(ctx, res.tokenId, symbol);
      if (rule !== "move" && wrongSide(rule, parsed.value, price.value) !== undefined) {
        throw new UserError(wrongSideSentence(symbol, rule, parsed.value, price.text));
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
        throw new UserError(`This chat already has ${added.full} alerts, the most it may have is ${limits.maxPerChat}; /unalert one first.`);
      }
      const a = added.alert;
      return setReply(`Alert #${a.number} set: ${symbol} ${ruleText(rule, a.level)}.`, a, price.text);
    },
  };
}

/** Reads `#3` or `3` as an alert number. */
export function alertNumber(raw: string): number | undefined {
  const m = /^#?(\d{1,9})$/.exec(raw.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * Arms an alert again from the current price: a fired above/below alert waits for the next
 * crossing, a move alert measures from here, a paused one wakes up.
 */
export const rearmCommand: Command = {
  name: "rearm",
  description: "Arm an alert again from the current price (admins in groups)",
  args: [{ name: "alert", description: "The alert's number in /alerts", type: "text", required: true }],
  examples: ["/rearm 1"],
  async run(ctx, args) {
    await requireManager(ctx, "alerts");
    const number = alertNumber(String(args.alert));
    if (number === undefined) throw new UserError("Which alert? Give its number from /alerts, e.g. /rearm 2.");
    const alert = (await ctx.store.alerts.listAlerts(ctx.chat)).find((a) => a.number === number);
    if (alert === undefined) throw new UserError(`This chat has no alert #${number}; /alerts lists them.`);
    const price = await currentPrice(ctx, alert.tokenId, alert.symbol);
    if (alert.rule !== "move" && wrongSide(alert.rule, Number(alert.level), price.value) !== undefined) {
      throw new UserError(`${wrongSideSentence(alert.symbol, alert.rule, Number(alert.level), price.text)} Set a new alert with /alert.`);
    }
    const rearmed = await ctx.store.alerts.rearmAlert(ctx.chat, number, price.text, ctx.now());
    if (rearmed === undefined) throw new UserError(`This chat has no alert #${number}; /alerts lists them.`);
    const from = alert.rule === "move" ? ` from ${formatPrice(price.text)}` : "";
    return setReply(`Alert #${number} armed: ${alert.symbol} ${ruleText(alert.rule, alert.level)}${from}.`, rearmed, price.text);
  },
};
