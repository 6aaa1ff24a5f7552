import { asOfNote } from "../../calls/as-of.js";
import { formatMultiple, shownName } from "../../calls/names.js";
import { rankCallers } from "../../calls/ranking.js";
import { boardOf, DAY_MS, keepsCalls } from "../../calls/rules.js";
import { defineCommand } from "../command.js";
import { cleanText } from "../format/index.js";
import type { Block } from "../reply.js";

const PERIODS = ["1d", "7d", "30d", "all"] as const;
const PERIOD_MS = new Map<string, number>([["1d", DAY_MS], ["7d", 7 * DAY_MS], ["30d", 30 * DAY_MS]]);
const DEFAULT_ROWS = 10;
const MAX_ROWS = 25;

/** `/lb [1d|7d|30d|all] [n]`: the chat's callers of the period, best first. */
export const lbCommand = defineCommand({
  name: "lb",
  aliases: ["leaderboard"],
  description: "Who called it first: this chat's callers ranked by hit rate and median high",
  args: [
    { name: "period", description: "1d, 7d, 30d or all; default 7d", type: "text", required: false, choices: PERIODS },
    { name: "rows", description: `Callers to list, 1–${MAX_ROWS}; default ${DEFAULT_ROWS}`, type: "int", required: false, min: 1, max: MAX_ROWS },
  ],
  examples: ["/lb", "/lb 30d", "/lb all 25"],
  async run(ctx, args) {
    if (!keepsCalls(ctx.chat)) throw ctx.i18n.fail("calls-in-groups");
    const { t, locale } = ctx.i18n;
    const period = args.period ?? "7d";
    const rowsWanted = args.rows === undefined ? DEFAULT_ROWS : Number(args.rows);
    const span = PERIOD_MS.get(period);
    const calls = await ctx.store.calls.boardCalls(boardOf(ctx.chat), span === undefined ? 0 : ctx.now() - span);
    const callers = rankCallers(calls);
    const title = t("lb-title", { period: t(`lb-period-${period}`) });
    if (callers.length === 0) return { title, tone: "info", blocks: [{ kind: "text", text: t("lb-empty") }], actions: [], footer: { source: ctx.source, asOf: ctx.now() } };
    const percent = new Intl.NumberFormat(locale === "zh" ? "zh-CN" : "en-US", { style: "percent", maximumFractionDigits: 0 });
    const blocks: Block[] = [{
      kind: "table",
      columns: ["#", t("lb-col-caller"), t("lb-col-calls"), t("lb-col-hit-rate"), t("lb-col-median"), t("lb-col-best")],
      align: ["right", "left", "right", "right", "right", "left"],
      rows: callers.slice(0, rowsWanted).map((r, i) => [
        String(i + 1), shownName(r.userName), String(r.calls), percent.format(r.hitRate), formatMultiple(r.median, locale),
        `${cleanText(r.best.call.symbol, 10)} ${formatMultiple(r.best.multiple, locale)}`,
      ]),
    }];
    if (callers.length > rowsWanted) blocks.push({ kind: "text", text: t("lb-more", { count: callers.length - rowsWanted, most: MAX_ROWS }) });
    blocks.push({ kind: "text", text: t("lb-how") });
    const note = await asOfNote(ctx, calls);
    if (note !== undefined) blocks.push({ kind: "text", text: note });
    return { title, tone: "info", blocks, actions: [], footer: { source: ctx.source, asOf: ctx.now() } };
  },
});
