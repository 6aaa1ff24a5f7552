/**
 * The token card's picture: the last 24 hours of the token's price as 15-minute candles, one
 * token K-line (10 units; cached 2 minutes, see cache/ttl.ts) drawn off the event loop by the
 * chart renderer. The card never waits for it longer than it waits for its own figures, and
 * never fails for it: when the quota is short (the scheduler refuses the call rather than let
 * the card be late), the service fails or the renderer is busy, the card goes without it.
 */
import type { Fetched } from "../../cache/types.js";
import type { ChartSpec } from "../../chart/types.js";
import type { Kline } from "../../market/schemas.js";
import { sourceIn } from "../../i18n/index.js";
import { answerSettings } from "../answer-settings.js";
import type { CommandContext } from "../command.js";
import { DASH, cleanText, formatPercent, formatUsd } from "../format/index.js";
import type { ReplyImage } from "../reply.js";
import { candlesOf, chartWords, priceText } from "./chart.js";
import { cardChartOn } from "./settings.js";

/** Minutes of one candle. */
export const CARD_CHART_INTERVAL = 15;
/** Candles in 24 hours of 15 minutes. */
export const CARD_CHART_CANDLES = 96;

/** The K-line of the card's picture, started beside the card's own lookups; undefined when the chat turned the picture off or the call failed. */
export async function cardKline(ctx: CommandContext, tokenId: string): Promise<Fetched<Kline> | undefined> {
  try {
    if (!cardChartOn(await answerSettings(ctx))) return undefined;
    return await ctx.market.tokenKline({ tokenId, interval: CARD_CHART_INTERVAL, limit: CARD_CHART_CANDLES });
  } catch (e) {
    ctx.log.info({ err: e instanceof Error ? { name: e.name, message: e.message } : String(e), tokenId }, "token card goes without its chart");
    return undefined;
  }
}

/** The picture of `kline` for the card of `symbol` on `chain`; undefined when there is nothing to draw or the renderer failed. */
export async function cardPicture(
  ctx: CommandContext,
  kline: Fetched<Kline> | undefined,
  token: { symbol: string; chain: string; change24h: string | undefined },
): Promise<ReplyImage | undefined> {
  if (kline === undefined) return undefined;
  const candles = candlesOf(kline.data.points, CARD_CHART_CANDLES);
  const last = candles[candles.length - 1];
  if (last === undefined) return undefined;
  const { t } = ctx.i18n;
  const chain = cleanText(token.chain, 16);
  const format = priceText("u");
  const change = formatPercent(token.change24h, { locale: ctx.i18n.locale });
  const spec: ChartSpec = {
    title: t("card-chart-title", { symbol: token.symbol, chain }),
    ...(change === DASH ? {} : { subtitle: `24h ${change}` }),
    candles,
    intervalMinutes: CARD_CHART_INTERVAL,
    formatPrice: format,
    // In dollars, as /chart's picture labels it.
    formatVolume: (v) => formatUsd(v, { locale: ctx.i18n.locale }),
    priceUnit: "USD",
    source: sourceIn(ctx.source, ctx.i18n),
    words: chartWords(ctx.i18n),
  };
  try {
    const png = await ctx.charts.render(spec);
    const alt = t("card-chart-alt", {
      symbol: token.symbol, chain, count: String(candles.length), last: format(last.close),
      high: format(Math.max(...candles.map((c) => c.high))), low: format(Math.min(...candles.map((c) => c.low))),
    });
    return { png, alt, filename: "card-chart.png" };
  } catch (e) {
    ctx.log.info({ err: e instanceof Error ? { name: e.name, message: e.message } : String(e), symbol: token.symbol }, "token card goes without its chart");
    return undefined;
  }
}
