/**
 * `/chart <token|pair> [interval] [u|r|m]`: a candlestick picture of a token's (or a pool's)
 * K-lines, drawn off the hot path by `ctx.charts`, with buttons that redraw it in place for
 * another interval.
 */
import type { Fetched } from "../../cache/types.js";
import { CHART_MIN_SLOTS, formatPriceDefault, isChartError, type Candle, type ChartSpec } from "../../chart/index.js";
import type { ChartWords } from "../../chart/types.js";
import { isMarketError } from "../../market/errors.js";
import { joinId, splitId } from "../../market/ids.js";
import type { KlineCategory, KlineIntervalV2 } from "../../market/limits.js";
import type { Kline, KlinePoint, TokenDetail } from "../../market/schemas.js";
import { defineCommand, type CommandContext } from "../command.js";
import { DASH, cleanText, formatAge, formatPercent, formatPrice, formatUsd, shortAddress } from "../format/index.js";
import { mainTokenOf } from "../chains.js";
import { parseTokenInput, type Resolution } from "../resolve/index.js";
import type { Action, Block, Reply } from "../reply.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { collisionParts, resolveArg, symbolOf } from "./resolution.js";
import { sourceIn, userError, type Translator } from "../../i18n/index.js";

/** The intervals `/chart` draws, as typed, in minutes (a subset of the service's K-line intervals). */
export const CHART_INTERVALS: Readonly<Record<string, KlineIntervalV2>> = {
  "1m": 1, "5m": 5, "15m": 15, "30m": 30, "1h": 60, "2h": 120, "4h": 240, "1d": 1440, "3d": 4320, "1w": 10080, "1M": 43200,
};
/** The interval when none is typed. */
export const DEFAULT_CHART_INTERVAL = "1h";
/** Intervals offered as buttons under a chart. */
export const CHART_BUTTON_INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d", "1w"] as const;
/**
 * Candles asked of the service: enough to read a trend, few enough that each stays several
 * pixels wide on the 1200-pixel picture.
 */
export const CHART_CANDLES = 200;

const CATEGORIES: readonly KlineCategory[] = ["u", "r", "m"];
const ALLOWED = Object.keys(CHART_INTERVALS).join(", ");
/** The intervals by name, for lookups of what was typed: `toString` is no interval. */
const BY_NAME: ReadonlyMap<string, KlineIntervalV2> = new Map(Object.entries(CHART_INTERVALS));

/** "1h", "1H", "4h" → the typed key; "1M" is a month and "1m" a minute, so case matters only there. */
export function chartInterval(typed: string | undefined): { name: string; minutes: KlineIntervalV2 } {
  const word = (typed ?? DEFAULT_CHART_INTERVAL).trim();
  const name = BY_NAME.has(word) ? word : word.toLowerCase();
  const minutes = BY_NAME.get(name);
  if (minutes === undefined) {
    throw userError("chart-bad-interval", { interval: cleanText(word, 16), allowed: ALLOWED });
  }
  return { name, minutes };
}

function finite(v: string | number): number {
  const n = typeof v === "number" ? v : v.trim() === "" ? NaN : Number(v);
  return Number.isFinite(n) ? n : NaN;
}

/**
 * The service's points as candles: the latest `limit` (the service was seen sending one more
 * than asked), oldest first. A point whose time or a price is missing, not finite or not
 * positive is dropped; a volume that is not a finite, non-negative number counts as 0.
 */
export function candlesOf(points: readonly KlinePoint[], limit: number): Candle[] {
  const out: Candle[] = [];
  for (const p of points) {
    const [open, high, low, close] = [p.open, p.high, p.low, p.close].map(finite) as [number, number, number, number];
    if (![p.time, open, high, low, close].every((n) => Number.isFinite(n) && n > 0)) continue;
    const volume = finite(p.volume);
    out.push({ time: p.time, open, high: Math.max(high, open, close), low: Math.min(low, open, close), close, volume: volume >= 0 ? volume : 0 });
  }
  out.sort((a, b) => a.time - b.time);
  return out.slice(-limit);
}

/** What the candles are of, found from what was typed. */
interface Series {
  /** Id the candles came from: the token id for a token in USD, else the pair id. */
  seriesId: string;
  /** What the buttons pass back to rerun this same series. */
  arg: string;
  chain: string;
  /** e.g. "PEPE" or "PEPE/WETH". */
  name: string;
  kline: Fetched<Kline>;
  detail: Fetched<TokenDetail> | undefined;
  /** Symbol of the pair's other token, for r (relative) charts. */
  quote: string | undefined;
  change24h: string | undefined;
  res: Resolution | undefined;
  typed: string;
}

interface Ask {
  typed: string;
  minutes: KlineIntervalV2;
  category: KlineCategory;
}

async function optionalDetail(ctx: CommandContext, tokenId: string): Promise<Fetched<TokenDetail> | undefined> {
  // The chart stands without the detail: it only adds the symbol and the 24h change.
  return ctx.market.tokenDetail(tokenId).catch(() => undefined);
}

function isNotFound(e: unknown): boolean {
  return isMarketError(e) && e.kind === "not_found";
}

async function pairSeries(ctx: CommandContext, pairId: string, ask: Ask, res?: Resolution): Promise<Series> {
  const kline = await ctx.market.pairKline({ pairId, interval: ask.minutes, category: ask.category, limit: CHART_CANDLES });
  const target = kline.data.target_token_id ?? "";
  const detail = splitId(target) === null ? undefined : await optionalDetail(ctx, target);
  const pairAddress = splitId(pairId)?.address.toLowerCase();
  const pair = detail?.data.pairs.find((p) => p.pair.toLowerCase() === pairAddress);
  // A token typed by its address has no symbol from a search: the pair's detail names it.
  const searched = res?.token?.symbol !== undefined && res.token.symbol.trim() !== "";
  const detailSymbol = detail?.data.token.symbol;
  const base = res !== undefined && (searched || detailSymbol === undefined || target !== res.tokenId)
    ? symbolOf(res, ask.typed)
    : cleanText(detailSymbol ?? pair?.token0_symbol ?? shortAddress(pairAddress), 16);
  const quote = pair?.token1_symbol === undefined ? undefined : cleanText(pair.token1_symbol, 12);
  return {
    seriesId: pairId,
    arg: res?.tokenId ?? pairId,
    chain: splitId(pairId)?.chain ?? "",
    name: res === undefined && quote !== undefined ? `${base}/${quote}` : base,
    kline,
    detail,
    quote,
    change24h: res === undefined ? pair?.price_change_24h ?? pair?.price_change_1d : detail?.data.token.price_change_24h ?? detail?.data.token.price_change_1d,
    res,
    typed: ask.typed,
  };
}

async function tokenSeries(ctx: CommandContext, res: Resolution, ask: Ask): Promise<Series> {
  if (ask.category !== "u") {
    // r and m are prices within a pair: the token's main pair speaks for it.
    const detail = await ctx.market.tokenDetail(res.tokenId);
    const main = detail.data.token.main_pair || detail.data.pairs[0]?.pair;
    if (main === undefined || main === "") {
      throw userError("chart-no-pair-category", { symbol: symbolOf(res, ask.typed), category: ask.category, id: res.tokenId });
    }
    return pairSeries(ctx, main.includes("-") ? main : joinId(main, res.chain), ask, res);
  }
  const [kline, detail] = await Promise.all([
    ctx.market.tokenKline({ tokenId: res.tokenId, interval: ask.minutes, limit: CHART_CANDLES }),
    optionalDetail(ctx, res.tokenId),
  ]);
  const symbol = res.token?.symbol?.trim() ? symbolOf(res, ask.typed) : cleanText(detail?.data.token.symbol ?? shortAddress(res.address), 16);
  const token = detail?.data.token;
  return {
    seriesId: res.tokenId, arg: res.tokenId, chain: res.chain, name: symbol, kline, detail, quote: undefined,
    change24h: token?.price_change_24h ?? token?.price_change_1d, res, typed: ask.typed,
  };
}

/**
 * A pool link charts the pool; an `<address>-<chain>` id a token, or the pair of that id when
 * no token has it; anything else is resolved to a token.
 */
async function findSeries(ctx: CommandContext, ask: Ask): Promise<Series> {
  const input = parseTokenInput(ask.typed);
  if (input.kind === "id") {
    const checked = await resolveArg(ctx, { kind: "id", address: input.address, chain: input.chain });
    if (input.isPair === true) {
      try {
        return await pairSeries(ctx, checked.tokenId, ask);
      } catch (e) {
        if (!isNotFound(e)) throw e;
        return tokenSeries(ctx, await resolveArg(ctx, input), ask);
      }
    }
    try {
      return await tokenSeries(ctx, checked, ask);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      return pairSeries(ctx, checked.tokenId, ask).catch((again: unknown) => {
        throw isNotFound(again) ? e : again;
      });
    }
  }
  return tokenSeries(ctx, await resolveArg(ctx, input), ask);
}

/** How the picture writes prices of `category`: dollars for u, bare ratios for r and m. */
export function priceText(category: KlineCategory): (p: number, decimals?: number, zeros?: number) => string {
  // The core's notation drops trailing zeros; axis labels ask for fixed decimals and leading
  // zeros, to line up in one notation.
  const text = (p: number, decimals?: number, zeros?: number): string =>
    decimals === undefined ? formatPrice(p) : formatPriceDefault(p, { decimals, ...(zeros === undefined ? {} : { zeros }) });
  // r and m are ratios between two tokens, not dollars.
  return category === "u" ? text : (p, decimals, zeros) => text(p, decimals, zeros).replace(/^\$/, "");
}

/** What the prices count in: USD, the pair's quote token (r) or the chain's main token (m), by name when known. */
function unitOf(series: Series, category: KlineCategory): string | undefined {
  if (category === "r") return series.quote;
  if (category === "m") return mainTokenOf(series.chain);
  return "USD";
}

function unitNote(series: Series, category: KlineCategory, i18n: Translator): string | undefined {
  if (category === "u") return undefined;
  const unit = unitOf(series, category);
  if (unit !== undefined) return i18n.t("chart-in-unit", { unit });
  return i18n.t(category === "r" ? "chart-in-quote" : "chart-in-main");
}

/** A short history drawn with finer candles than asked. */
interface ShortHistory {
  history: number;
  finer: string;
  asked: string;
}

function shortNoteText(n: ShortHistory, i18n: Translator): string {
  return i18n.t("chart-short-history", { age: formatAge(n.history, { i18n }), finer: n.finer, asked: n.asked });
}

/**
 * A finer interval for a history too short to fill the picture at `minutes` (a token three
 * hours old on 1h candles): the longest chart interval that still gives at least twice the
 * picture's fewest slots over `historySeconds`; undefined when none is finer.
 */
export function finerInterval(historySeconds: number, minutes: number): { name: string; minutes: KlineIntervalV2 } | undefined {
  let best: { name: string; minutes: KlineIntervalV2 } | undefined;
  for (const [name, m] of BY_NAME) {
    if (m < minutes && historySeconds / (m * 60) >= 2 * CHART_MIN_SLOTS && (best === undefined || m > best.minutes)) best = { name, minutes: m };
  }
  return best ?? (minutes > 1 ? { name: "1m", minutes: 1 } : undefined);
}

/** `again`: what the buttons chart anew, the series' own id, or what was typed when that stood for several tokens (its note and their buttons stay). */
function buttons(again: string, ask: Ask, intervalName: string, i18n: Translator): Action[][] {
  const extra = ask.category === "u" ? [] : [ask.category];
  const interval = (name: string): Action => ({
    kind: "command", label: name === intervalName ? `· ${name} ·` : name, command: "chart", args: [again, name, ...extra], edit: true,
  });
  const [a, b, c, d, e, ...rest] = CHART_BUTTON_INTERVALS.map(interval);
  return [[a, b, c, d, e].filter((x): x is Action => x !== undefined), [...rest, refreshButton("chart", [again, intervalName, ...extra], i18n)]];
}

/** The words the picture draws itself, in the chat's language. */
export function chartWords(i18n: Translator): ChartWords {
  return {
    empty: i18n.t("chart-picture-empty"),
    logScale: i18n.t("chart-picture-log-scale"),
    merged: (factor) => i18n.t("chart-picture-merged", { factor: String(factor) }),
    volume: i18n.t("chart-picture-volume"),
    timeZone: i18n.t("chart-picture-time-zone"),
  };
}

/** The picture, or undefined when it failed (the renderer keeps recent pictures: same spec, same bytes). */
async function draw(ctx: CommandContext, spec: ChartSpec, seriesId: string): Promise<Uint8Array | undefined> {
  try {
    return await ctx.charts.render(spec);
  } catch (e) {
    if (isChartError(e) && e.kind === "busy") throw ctx.i18n.fail("chart-busy");
    // The numbers still stand without the picture; the log gets the reason.
    ctx.log.error({ err: e instanceof Error ? { name: e.name, message: e.message } : String(e), series: seriesId }, "chart render failed");
    return undefined;
  }
}

/** The series to draw, at the interval asked for or, for a short history, a finer one (with the note saying so). */
async function filledSeries(
  ctx: CommandContext,
  ask: Ask,
  asked: { name: string; minutes: KlineIntervalV2 },
): Promise<{ interval: { name: string; minutes: KlineIntervalV2 }; series: Series; candles: Candle[]; shortNote?: ShortHistory }> {
  const series = await findSeries(ctx, ask);
  const candles = candlesOf(series.kline.data.points, CHART_CANDLES);
  const oldest = candles[0];
  // Fewer candles than the picture's slots: the history is that short (or trades that rare).
  if (oldest === undefined || candles.length >= CHART_MIN_SLOTS) return { interval: asked, series, candles };
  const history = historySeconds(series, oldest.time, ctx.now() / 1000);
  // The first finer interval may bring no more candles (a token that traded only lately): the next one may.
  let finer = finerInterval(history, asked.minutes);
  for (let tries = 0; finer !== undefined && tries < FINER_TRIES; tries++) {
    const again = await findSeries(ctx, { ...ask, minutes: finer.minutes });
    const more = candlesOf(again.kline.data.points, CHART_CANDLES);
    if (more.length > candles.length) return { interval: finer, series: again, candles: more, shortNote: { history, finer: finer.name, asked: asked.name } };
    finer = finerInterval(history, finer.minutes);
  }
  return { interval: asked, series, candles };
}

/** K-line calls (10 units each) a short history may take beyond the first, looking for a finer interval that draws it. */
const FINER_TRIES = 2;

/**
 * How long the series has traded, seconds: since the token's launch when its detail says so and
 * that is later than the first candle's start (a 1d candle starts at midnight, before a token
 * launched at 03:00), else since the first candle began. Never stretched to a whole candle of
 * the interval asked: a token 3 h old on 1d candles has 3 h of history.
 */
function historySeconds(series: Series, firstCandle: number, nowSeconds: number): number {
  const token = series.detail?.data.token;
  const launched = Number(token?.launch_at ?? token?.created_at ?? 0);
  const since = Number.isFinite(launched) && launched > 0 && launched <= nowSeconds ? Math.max(launched, firstCandle) : firstCandle;
  return Math.max(60, nowSeconds - since);
}

/** `/chart`: a candlestick picture, its numbers in a caption, and interval buttons that redraw it in place. */
export const chartCommand = defineCommand({
  name: "chart",
  description: "Candlestick chart of a token or pair: /chart pepe 4h",
  args: [
    { name: "token", description: "Symbol, address, address-chain, pair id or pool link", type: "token", required: true },
    // No `choices`: the parser lowercases them, and 1M (a month) is not 1m (a minute).
    { name: "interval", description: `Candle length: ${ALLOWED}; default ${DEFAULT_CHART_INTERVAL}`, type: "interval", required: false },
    { name: "category", description: "u: USD (default), r: in the pair's quote token, m: in the chain's main token", type: "text", required: false, choices: CATEGORIES },
  ],
  examples: ["/chart pepe 1h", "/chart pepe bsc 4h", "/chart 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth 1d r"],
  async run(ctx, args): Promise<Reply> {
    const typed = args.token.trim();
    if (typed === "") throw ctx.i18n.fail("chart-which");
    let intervalWord = args.interval;
    let category = args.category ?? "u";
    // `/chart pepe r`: a category typed where the interval goes.
    if (intervalWord !== undefined && args.category === undefined && (CATEGORIES as readonly string[]).includes(intervalWord.toLowerCase())) {
      category = intervalWord.toLowerCase() as KlineCategory;
      intervalWord = undefined;
    }
    const asked = chartInterval(intervalWord);
    const ask: Ask = { typed, minutes: asked.minutes, category };
    const { interval, series, candles, shortNote } = await filledSeries(ctx, ask, asked);
    const format = priceText(category);
    const chain = cleanText(series.chain, 16);
    const { t } = ctx.i18n;
    const unit = unitNote(series, category, ctx.i18n);
    const heading = [series.name, chain, interval.name, ...(unit === undefined ? [] : [unit])].join(" · ");
    const percent = formatPercent(series.change24h, { locale: ctx.i18n.locale });
    // An unknown change is left out rather than shown as a dash.
    const change = percent === DASH ? undefined : `24h ${percent}`;
    const last = candles[candles.length - 1];
    const axisUnit = unitOf(series, category);
    const spec: ChartSpec = {
      title: heading, ...(change === undefined ? {} : { subtitle: change }), candles, intervalMinutes: interval.minutes, formatPrice: format,
      // K-line volume is read as USD, as the pair records' volume_u is: the spec gives it no unit.
      formatVolume: (v) => formatUsd(v, { locale: ctx.i18n.locale }),
      ...(axisUnit === undefined ? {} : { priceUnit: axisUnit }),
      source: sourceIn(ctx.source, ctx.i18n),
      ...(shortNote === undefined ? {} : { note: shortNoteText(shortNote, ctx.i18n) }),
      // The picture speaks the chat's language too: its bundled font draws Chinese.
      words: chartWords(ctx.i18n),
    };
    const png = await draw(ctx, spec, series.seriesId);

    const blocks: Block[] = [];
    if (shortNote !== undefined) blocks.push({ kind: "text", text: t("chart-note", { note: shortNoteText(shortNote, ctx.i18n) }) });
    const collision = series.res === undefined ? { blocks: [], actions: [] } : collisionParts(series.res, "chart", series.name, ctx.i18n);
    blocks.push(...collision.blocks);
    let alt: string;
    if (last === undefined) {
      blocks.push({ kind: "text", text: t("chart-no-trades", { interval: interval.name, name: series.name }) });
      alt = t("chart-alt-empty", { name: series.name, chain, interval: interval.name });
    } else {
      const high = Math.max(...candles.map((c) => c.high));
      const low = Math.min(...candles.map((c) => c.low));
      const span = formatAge(last.time + interval.minutes * 60 - (candles[0] as Candle).time, { i18n: ctx.i18n });
      blocks.push({
        kind: "fields",
        fields: [
          { label: t("chart-last"), value: format(last.close), inline: true },
          { label: t("chart-high"), value: format(high), inline: true },
          { label: t("chart-low"), value: format(low), inline: true },
          { label: t("chart-range"), value: t("chart-range-value", { count: String(candles.length), interval: interval.name, span }), inline: true },
        ],
      });
      alt = t("chart-alt", {
        name: series.name, chain, count: String(candles.length), interval: interval.name, span, unit: unit ?? "none",
        last: format(last.close), high: format(high), low: format(low),
      });
    }
    if (png === undefined) blocks.push({ kind: "text", text: t("chart-not-drawn") });
    const parts = series.detail === undefined ? [series.kline] : [series.kline, series.detail];
    return {
      title: change === undefined ? heading : `${heading} · ${change}`,
      tone: "info",
      blocks,
      ...(png === undefined ? {} : { image: { png, alt, filename: "chart.png" } }),
      actions: [...buttons(collision.blocks.length > 0 ? series.typed : series.arg, ask, interval.name, ctx.i18n), ...collision.actions],
      footer: footerOf(ctx, ...parts),
    };
  },
});
