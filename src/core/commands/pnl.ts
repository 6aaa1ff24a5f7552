import { sweepEvery } from "../../calls/as-of.js";
import { agoPhrase, formatMultiple, shownName } from "../../calls/names.js";
import { highMultiple } from "../../calls/ranking.js";
import { boardOf, DAY_MS, keepsCalls, MINUTE_MS, multipleOf, SWEPT_FOR_MS } from "../../calls/rules.js";
import { isChartError, type PnlCardSpec } from "../../chart/index.js";
import type { Call } from "../../store/types.js";
import { defineCommand, type CommandContext } from "../command.js";
import { DASH, cleanText, formatPrice, formatSince, formatUsd, utcMinute } from "../format/index.js";
import type { Reply } from "../reply.js";
import { resolveArg, symbolFor } from "./resolution.js";

/** The picture, or undefined when it could not be drawn (the figures stand in the text). */
async function picture(ctx: CommandContext, spec: PnlCardSpec, call: Call): Promise<Uint8Array | undefined> {
  if (ctx.charts.renderCard === undefined) return undefined;
  try {
    return await ctx.charts.renderCard(spec);
  } catch (e) {
    if (isChartError(e) && e.kind === "busy") throw ctx.i18n.fail("chart-busy");
    ctx.log.error({ err: e instanceof Error ? { name: e.name, message: e.message } : String(e), callId: call.id }, "pnl card render failed");
    return undefined;
  }
}

/** `/pnl <token>`: this chat's call of a token as a picture, from what the sweep kept. */
export const pnlCommand = defineCommand({
  name: "pnl",
  description: "This chat's call of a token as a picture: caller, price at the call, high since, now",
  args: [{ name: "token", description: "Symbol, address, address-chain or a link", type: "token", required: true }],
  examples: ["/pnl pepe", "/pnl 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"],
  async run(ctx, args) {
    if (!keepsCalls(ctx.chat)) throw ctx.i18n.fail("calls-in-groups");
    const { t, locale } = ctx.i18n;
    const res = await resolveArg(ctx, args.token);
    const call = await ctx.store.calls.currentCall(boardOf(ctx.chat), res.tokenId, 0);
    if (call === undefined) throw ctx.i18n.fail("pnl-never-called", { symbol: await symbolFor(ctx, res) });
    const high = highMultiple(call);
    const now = multipleOf(call.price, call.lastPrice);
    const symbol = cleanText(call.symbol, 16);
    const name = shownName(call.userName);
    // No high read above the call's price (no time kept), or one in the call's own minute: the
    // high is the call's. `highAt` is the start of its K-line's minute, which may be less than a
    // minute after a call late in the minute before, though the high came in that next minute:
    // at least a minute after, not "just now after the call".
    const after = call.highAt === undefined || Math.floor(call.highAt / MINUTE_MS) <= Math.floor(call.calledAt / MINUTE_MS)
      ? t("pnl-at-call")
      : t("pnl-after", { when: formatSince(call.calledAt, Math.max(call.highAt, call.calledAt + MINUTE_MS), { i18n: ctx.i18n }) });
    const asOf = call.sweptTo ?? call.calledAt;
    // With the time itself: a forwarded picture is read long after "just now".
    const moment = (at: number): string => `${utcMinute(at)} UTC · ${agoPhrase(at, ctx.now(), ctx.i18n)}`;
    // Before the sweep's first read every figure is the call's own: "read at the call" would say
    // nothing. A call past the sweep's days is read no more: "not yet" would promise a read.
    const read = call.sweptTo !== undefined
      ? moment(call.sweptTo)
      : ctx.now() - call.calledAt > SWEPT_FOR_MS
        ? t("pnl-never-read", { days: SWEPT_FOR_MS / DAY_MS })
        : t("pnl-not-read", { minutes: (await sweepEvery(ctx)).minutes });
    const rows = [
      { label: t("pnl-called"), value: moment(call.calledAt) },
      { label: t("pnl-price-at-call"), value: formatPrice(call.price, { locale }) },
      { label: t("pnl-market-cap-at-call"), value: formatUsd(call.marketCap, { locale }) },
      { label: t("pnl-high"), value: t("pnl-high-value", { price: formatPrice(call.high, { locale }), multiple: formatMultiple(high, locale), after }) },
      { label: t("pnl-now"), value: call.lastPrice === undefined ? DASH : t("pnl-now-value", { price: formatPrice(call.lastPrice, { locale }), multiple: formatMultiple(now, locale) }) },
      { label: t("pnl-as-of"), value: read },
    ];
    const caption = t("pnl-caption", { symbol, high: formatMultiple(high, locale), after, now: formatMultiple(now, locale) });
    const spec: PnlCardSpec = {
      title: `${symbol} · ${cleanText(call.chain, 16)}`,
      subtitle: t("pnl-called-by", { name }),
      headline: formatMultiple(high, locale),
      headlineLabel: t("pnl-headline"),
      // Coloured by the figure it is drawn on, the high; the row "now" says where the call stands.
      up: (high ?? 1) >= 1,
      rows,
      source: ctx.source,
    };
    const png = await picture(ctx, spec, call);
    const reply: Reply = {
      title: caption,
      tone: "info",
      blocks: [{ kind: "fields", fields: [{ label: t("pnl-caller"), value: name }, ...rows] }],
      actions: [],
      footer: { source: ctx.source, asOf },
    };
    return png === undefined ? reply : { ...reply, image: { png, alt: caption, filename: "pnl.png" } };
  },
});
