/** `/alerts` (this chat's alerts, closest to firing first) and `/unalert <n>|all`. */
import { requireManager, type AlertLimits } from "../../alerts/limits.js";
import { ruleText, utcTime } from "../../alerts/message.js";
import { distancePercent } from "../../alerts/rules.js";
import type { Alert } from "../../store/types.js";
import type { Command } from "../command.js";
import { UserError } from "../errors.js";
import { cleanText, formatPrice } from "../format/index.js";
import type { Action, Block } from "../reply.js";
import { footerOf, rows } from "../reply-parts.js";
import { alertNumber } from "./alert.js";

/** Rows one /alerts shows (a phone screen; the limit may be set higher than anyone reads). */
const SHOWN_MAX = 40;
/** Delete buttons one reply carries (Discord: 5 rows of 5, one row kept for refresh). */
const BUTTONS_MAX = 20;

interface Row {
  alert: Alert;
  /** Percent still to go, or undefined when not armed or not priced. */
  distance?: number;
  price?: string;
}

function state(r: Row): string {
  const a = r.alert;
  if (!a.armed) return a.lastFiredAt === undefined ? "disarmed" : `fired ${utcTime(a.lastFiredAt)}`;
  if (a.pausedAt !== undefined) return "paused: no price for 24h";
  if (r.distance === undefined) return "no price now";
  return r.distance < 0.01 ? "due" : `${r.distance.toFixed(r.distance < 10 ? 2 : 1)}%`;
}

/** Armed and priced first by distance, then paused or unpriced, then fired; ties by number. */
function rank(r: Row): number {
  if (!r.alert.armed) return 3;
  if (r.alert.pausedAt !== undefined || r.distance === undefined) return 2;
  return 1;
}

export function alertsCommand(limits: AlertLimits): Command {
  return {
    name: "alerts",
    description: "This chat's price alerts, closest to firing first",
    args: [],
    examples: ["/alerts"],
    async run(ctx) {
      const alerts = await ctx.store.alerts.listAlerts(ctx.chat);
      if (alerts.length === 0) {
        return {
          title: "This chat has no price alerts.",
          tone: "info",
          blocks: [{ kind: "text", text: "Set one with /alert pepe above 0.000012 or /alert wif move 10%." }],
          actions: [],
        };
      }
      const ids = [...new Set(alerts.map((a) => a.tokenId))];
      const prices = await ctx.market.batchPrices({ tokenIds: ids, tvlMin: 0 });
      const list: Row[] = alerts.map((alert) => {
        const price = prices.data[alert.tokenId]?.current_price_usd;
        const value = Number(price);
        if (price === undefined || !(value > 0)) return { alert };
        return { alert, price, ...(alert.armed ? { distance: distancePercent(alert, value) } : {}) };
      });
      list.sort((a, b) => rank(a) - rank(b) || (a.distance ?? 0) - (b.distance ?? 0) || a.alert.number - b.alert.number);
      const shown = list.slice(0, SHOWN_MAX);
      const blocks: Block[] = [
        {
          kind: "table",
          columns: ["#", "token", "rule", "now", "to go"],
          align: ["right", "left", "left", "right", "right"],
          rows: shown.map((r) => [
            String(r.alert.number),
            `${cleanText(r.alert.symbol, 12)} ${cleanText(r.alert.chain, 10)}`,
            ruleText(r.alert.rule, r.alert.level),
            r.price === undefined ? "—" : formatPrice(r.price),
            state(r),
          ]),
        },
      ];
      const notes: string[] = [];
      if (list.length > shown.length) notes.push(`And ${list.length - shown.length} more, furthest from firing.`);
      if (shown.length > BUTTONS_MAX) notes.push("Delete any alert with /unalert and its number.");
      if (list.some((r) => !r.alert.armed)) notes.push("Fired alerts wait for /rearm and their number.");
      if (notes.length > 0) blocks.push({ kind: "text", text: notes.join("\n") });
      const buttons: Action[] = shown
        .slice(0, BUTTONS_MAX)
        .map((r) => ({ kind: "command", label: `✖ #${r.alert.number}`, command: "unalert", args: [String(r.alert.number)], edit: false }));
      return {
        title: `Price alerts in this chat (${alerts.length} of ${limits.maxPerChat})`,
        tone: "info",
        blocks,
        actions: [...rows(buttons, 5, 4), [{ kind: "command", label: "↻ Refresh", command: "alerts", args: [], edit: true }]],
        footer: footerOf(ctx, prices),
      };
    },
  };
}

export const unalertCommand: Command = {
  name: "unalert",
  description: "Delete one of this chat's alerts by its number, or all (admins in groups)",
  args: [{ name: "alert", description: "The alert's number in /alerts, or all", type: "text", required: true }],
  examples: ["/unalert 1", "/unalert all"],
  async run(ctx, args) {
    await requireManager(ctx, "alerts");
    const raw = String(args.alert).trim().toLowerCase();
    if (raw === "all") {
      const n = await ctx.store.alerts.removeAlerts(ctx.chat, "all");
      if (n === 0) throw new UserError("This chat has no alerts.");
      return { title: n === 1 ? "Deleted the one alert here." : `Deleted all ${n} alerts here.`, tone: "good", blocks: [], actions: [] };
    }
    const number = alertNumber(raw);
    if (number === undefined) throw new UserError("Which alert? Give its number from /alerts, or all, e.g. /unalert 2.");
    if ((await ctx.store.alerts.removeAlerts(ctx.chat, number)) === 0) {
      throw new UserError(`This chat has no alert #${number}; /alerts lists them.`);
    }
    return { title: `Deleted alert #${number}.`, tone: "good", blocks: [], actions: [] };
  },
};
