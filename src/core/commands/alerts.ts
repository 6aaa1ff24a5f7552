/** `/alerts` (this chat's alerts, closest to firing first) and `/unalert <n>|all`. */
import { requireManager, type AlertLimits } from "../alerts/limits.js";
import { distanceFigure, ruleText, utcTime } from "../alerts/rule-text.js";
import { distancePercent, waitsToCrossBack } from "../alerts/rules.js";
import { readPrice } from "../../market/decimal.js";
import type { Alert } from "../../store/types.js";
import { defineCommand, type Command, type CommandContext } from "../command.js";
import { cleanText, formatPrice } from "../format/index.js";
import type { Action, Block, Reply } from "../reply.js";
import { footerOf, refreshButton, rows } from "../reply-parts.js";
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
  /** Re-armed with the price past its level, and still past it: it fires only after the price comes back and crosses again. */
  waiting?: boolean;
}


function state(ctx: CommandContext, r: Row): string {
  const a = r.alert;
  const t = ctx.i18n;
  if (!a.armed) return a.lastFiredAt === undefined ? t.t("alerts-state-disarmed") : t.t("alerts-state-fired", { time: utcTime(a.lastFiredAt, t.locale) });
  if (a.pausedAt !== undefined) return t.t("alerts-state-paused");
  if (r.distance === undefined) return t.t("alerts-state-unpriced");
  if (r.waiting === true) return t.t("alerts-state-waiting");
  return r.distance < 0.01 ? t.t("alerts-state-due") : `${distanceFigure(r.distance, t.locale)}%`;
}

/** Armed and priced first by distance, then paused or unpriced, then fired; ties by number. */
function rank(r: Row): number {
  if (!r.alert.armed) return 3;
  if (r.alert.pausedAt !== undefined || r.distance === undefined || r.waiting === true) return 2;
  return 1;
}

/**
 * The word after an alert's number that answers `/unalert` with the list as it is now: the list's
 * ✖ buttons carry it and edit the list in place, which then shows the alert gone.
 */
const WITH_LIST = "list";

/** This chat's alerts as `/alerts` shows them, with `notice` above the table (an alert just deleted). */
async function alertsList(ctx: CommandContext, limits: AlertLimits, notice?: string): Promise<Reply> {
  const head: Block[] = notice === undefined ? [] : [{ kind: "text", text: notice }];
  const alerts = await ctx.store.alerts.listAlerts(ctx.chat);
  if (alerts.length === 0) {
    return { title: ctx.i18n.t("alerts-none"), tone: "info", blocks: [...head, { kind: "text", text: ctx.i18n.t("alerts-none-how") }], actions: [] };
  }
  const ids = [...new Set(alerts.map((a) => a.tokenId))];
  const prices = await ctx.market.batchPrices({ tokenIds: ids, tvlMin: 0 });
  const list: Row[] = alerts.map((alert) => {
    const price = readPrice(prices.data[alert.tokenId]?.current_price_usd);
    if (price === undefined) return { alert };
    return { alert, price: price.text, ...(alert.armed ? { distance: distancePercent(alert, price.value), waiting: waitsToCrossBack(alert, price.value) } : {}) };
  });
  list.sort((a, b) => rank(a) - rank(b) || (a.distance ?? 0) - (b.distance ?? 0) || a.alert.number - b.alert.number);
  const shown = list.slice(0, SHOWN_MAX);
  const blocks: Block[] = [
    {
      kind: "table",
      columns: ["#", ctx.i18n.t("alerts-col-token"), ctx.i18n.t("alerts-col-rule"), ctx.i18n.t("alerts-col-now"), ctx.i18n.t("alerts-col-to-go")],
      align: ["right", "left", "left", "right", "right"],
      rows: shown.map((r) => [
        String(r.alert.number),
        `${cleanText(r.alert.symbol, 12)} ${cleanText(r.alert.chain, 10)}`,
        ruleText(r.alert.rule, r.alert.level, ctx.i18n),
        r.price === undefined ? "—" : formatPrice(r.price, { locale: ctx.i18n.locale }),
        state(ctx, r),
      ]),
    },
  ];
  const notes: string[] = [];
  if (list.length > shown.length) notes.push(ctx.i18n.t("alerts-more", { count: list.length - shown.length }));
  if (shown.length > BUTTONS_MAX) notes.push(ctx.i18n.t("alerts-delete-hint"));
  if (list.some((r) => !r.alert.armed)) notes.push(ctx.i18n.t("alerts-rearm-hint"));
  if (notes.length > 0) blocks.push({ kind: "text", text: notes.join("\n") });
  const buttons: Action[] = shown
    .slice(0, BUTTONS_MAX)
    .map((r) => ({ kind: "command", label: `✖ #${r.alert.number}`, command: "unalert", args: [String(r.alert.number), WITH_LIST], edit: true }));
  return {
    title: ctx.i18n.t("alerts-title", { count: alerts.length, max: limits.maxPerChat }),
    tone: "info",
    blocks: [...head, ...blocks],
    actions: [...rows(buttons, 5, 4), [refreshButton("alerts", [], ctx.i18n)]],
    footer: footerOf(ctx, prices),
  };
}

export function alertsCommand(limits: AlertLimits): Command {
  return defineCommand({
    name: "alerts",
    description: "This chat's price alerts, closest to firing first",
    args: [],
    examples: ["/alerts"],
    run: (ctx) => alertsList(ctx, limits),
  });
}

export function unalertCommand(limits: AlertLimits): Command {
  return defineCommand({
    name: "unalert",
    description: "Delete one of this chat's alerts by its number, or all (admins in groups)",
    args: [{ name: "alert", description: "The alert's number in /alerts, or all", type: "text", required: true }],
    examples: ["/unalert 1", "/unalert all"],
    async run(ctx, args) {
      await requireManager(ctx, "alerts");
      const [first = "", ...rest] = args.alert.trim().toLowerCase().split(/\s+/);
      const withList = rest.length === 1 && rest[0] === WITH_LIST;
      const raw = withList ? first : args.alert.trim().toLowerCase();
      if (raw === "all") {
        const n = await ctx.store.alerts.removeAlerts(ctx.chat, "all");
        if (n === 0) throw ctx.i18n.fail("unalert-none");
        return { title: ctx.i18n.t("unalert-all", { count: n }), tone: "good", blocks: [], actions: [] };
      }
      const number = alertNumber(raw);
      if (number === undefined) throw ctx.i18n.fail("unalert-which");
      const removed = (await ctx.store.alerts.removeAlerts(ctx.chat, number)) > 0;
      // A ✖ on a list older than the alert's deletion draws the list as it is now, saying so.
      if (withList) return alertsList(ctx, limits, ctx.i18n.t(removed ? "unalert-done" : "unalert-already-gone", { number }));
      if (!removed) throw ctx.i18n.fail("alert-no-such", { number });
      return { title: ctx.i18n.t("unalert-done", { number }), tone: "good", blocks: [], actions: [] };
    },
  });
}
