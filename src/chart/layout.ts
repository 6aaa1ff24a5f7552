import { formatPriceDefault, formatTime, formatVolume } from "./format.js";
import { priceScale, timeTicks } from "./scale.js";
import { cleanCandles, downsample, intervalSeconds } from "./series.js";
import { CHART_LAYOUT as L } from "./theme.js";
import { cleanText, truncate } from "./text.js";
import type { ChartSpec, ChartWords } from "./types.js";

/** One candle in pixels: body and wick rectangles, and its volume bar. */
export interface CandleShape {
  time: number;
  up: boolean;
  /** Left edge and width of the body; the wick is one pixel wide at `wickX`. */
  x: number;
  width: number;
  wickX: number;
  bodyTop: number;
  bodyHeight: number;
  wickTop: number;
  wickHeight: number;
  /** Height of the volume bar standing on `CHART_LAYOUT.volumeBottom`; 0 draws nothing. */
  volumeHeight: number;
}

/** Everything the picture shows, in pixels and plain (unescaped, cleaned) text. */
export interface ChartLayout {
  title: string;
  subtitle: string;
  /** Honest remarks about the drawing: "log scale", merged candles. */
  notes: string[];
  /** Set when there is nothing to draw: the sentence shown in the middle. */
  emptyMessage?: string;
  candles: CandleShape[];
  priceTicks: { y: number; label: string }[];
  timeTicks: { x: number; label: string }[];
  last?: { y: number; label: string; up: boolean };
  /** The largest volume in view, labelled at the top of the volume pane. */
  volumeLabel?: string;
  /** What the price axis counts in, written above it. */
  priceUnit?: string;
  /** Where the numbers come from, written in the top right corner. */
  source?: string;
  /** The time zone written at the end of the time axis. */
  timeZone: string;
}

function unitAndSource(spec: ChartSpec, words: ChartWords): Pick<ChartLayout, "priceUnit" | "source" | "timeZone"> {
  const unit = truncate(cleanText(spec.priceUnit ?? ""), 10);
  const source = truncate(cleanText(spec.source ?? ""), 40);
  return { ...(unit === "" ? {} : { priceUnit: unit }), ...(source === "" ? {} : { source }), timeZone: truncate(cleanText(words.timeZone), 10) };
}

/**
 * Fewest interval-wide slots on the time axis, so a few candles are not huge blocks; from
 * this many candles on they fill the width (a 1M chart of 20 months is not half empty). The
 * core draws a shorter history at a finer interval.
 */
export const CHART_MIN_SLOTS = 12;
/** Widest candle body in pixels. */
const MAX_BODY = 24;
/** Each candle gets at least this many pixels; beyond that neighbours are merged. */
const MIN_SLOT_PIXELS = 2;

/**
 * Fewest pixels between a tick label and the last-price label: half the 24-pixel box plus
 * half a 14-pixel label with its subscript digits, so the two never touch.
 */
export const LAST_LABEL_CLEARANCE = 22;

/** The picture's words when the caller gives none. */
export const ENGLISH_WORDS: ChartWords = {
  empty: "no trades in this range",
  logScale: "log scale",
  merged: (factor) => `${factor} intervals per candle`,
  volume: "Vol",
  timeZone: "UTC",
};

const round = (v: number): number => Math.round(v);

/** Where everything goes: the pure geometry behind `renderChartSvg`. */
export function layoutChart(spec: ChartSpec): ChartLayout {
  const words = spec.words ?? ENGLISH_WORDS;
  const title = truncate(cleanText(spec.title), L.maxTitle);
  const subtitle = truncate(cleanText(spec.subtitle ?? ""), L.maxSubtitle);
  const cleaned = cleanCandles(spec.candles);
  const plotWidth = L.right - L.left;
  const baseInterval = intervalSeconds(spec.intervalMinutes, cleaned);
  const { candles, factor } = downsample(cleaned, baseInterval, Math.floor(plotWidth / MIN_SLOT_PIXELS));
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last) {
    return { title, subtitle, notes: [], emptyMessage: truncate(cleanText(words.empty), L.maxTitle), candles: [], priceTicks: [], timeTicks: [], ...unitAndSource(spec, words) };
  }
  const interval = baseInterval * factor;

  let end = last.time + interval;
  const start = Math.min(first.time, end - CHART_MIN_SLOTS * interval);
  end += (end - start) * 0.015;
  const pxPerSecond = plotWidth / (end - start);
  const xOf = (t: number): number => L.left + (t - start) * pxPerSecond;

  let low = Infinity;
  let high = -Infinity;
  let maxVolume = 0;
  for (const c of candles) {
    low = Math.min(low, c.low);
    high = Math.max(high, c.high);
    maxVolume = Math.max(maxVolume, c.volume);
  }
  const scale = priceScale(low, high, L.priceTop, L.priceBottom);
  const biggest = Math.max(Math.abs(high), Math.abs(low));
  // Linear ticks are multiples of the step and share the decimals it needs (the epsilon keeps
  // 10⁻⁴ at 4 where log10 lands a hair off); log ticks are 1, 2 or 5 × 10ⁿ and need none.
  const decimals = scale.kind === "linear" ? Math.max(0, Math.ceil(-Math.log10(scale.step) - 1e-9)) : undefined;
  // The last price carries one digit more than linear ticks, at least four.
  const lastDigits = Math.floor(Math.log10(biggest)) - Math.floor(Math.log10(scale.step)) + 2;
  const lastSignificant = scale.kind === "log" ? 4 : Math.min(10, Math.max(4, lastDigits));
  const lastFormat = (p: number): string => formatPriceDefault(p, { significant: lastSignificant });
  // Every linear label writes as many leading zeros as the largest one needs: one notation.
  const zeros = decimals === undefined ? undefined : Math.max(0, decimals - String(Math.round(Math.max(...scale.ticks.map(Math.abs)) * 10 ** decimals)).length);
  const axisFormat = (p: number): string =>
    formatPriceDefault(p, decimals === undefined ? { significant: 3 } : { decimals, significant: 3, zeros });
  const label = (p: number, fallback: (p: number) => string, places?: number): string =>
    truncate(cleanText(spec.formatPrice ? spec.formatPrice(p, places, places === undefined ? undefined : zeros) : fallback(p)), 16);

  const bodyWidth = Math.max(1, Math.min(MAX_BODY, round(interval * pxPerSecond * 0.7)));
  const volumePane = L.volumeBottom - L.volumeTop;
  const shapes = candles.map((c): CandleShape => {
    const center = xOf(c.time + interval / 2);
    const top = round(scale.y(Math.max(c.open, c.close)));
    const bottom = round(scale.y(Math.min(c.open, c.close)));
    const wickTop = round(scale.y(c.high));
    const wickBottom = round(scale.y(c.low));
    const volumeHeight = maxVolume > 0 && c.volume > 0 ? Math.max(1, round((c.volume / maxVolume) * volumePane)) : 0;
    return {
      time: c.time,
      up: c.close >= c.open,
      x: round(center - bodyWidth / 2),
      width: bodyWidth,
      wickX: Math.floor(center),
      bodyTop: top,
      bodyHeight: Math.max(1, bottom - top),
      wickTop,
      wickHeight: Math.max(1, wickBottom - wickTop),
      volumeHeight,
    };
  });

  // Among subscripted axis labels the last price writes the same zeros: 0.0₄0979 beside 0.0₄100.
  const lastPlaces = zeros !== undefined && zeros >= 4 ? zeros + lastSignificant : undefined;
  const lastPrice = { y: round(scale.y(last.close)), label: label(last.close, lastFormat, lastPlaces), up: last.close >= last.open };
  const priceTicks: ChartLayout["priceTicks"] = [];
  for (const p of scale.ticks) {
    const y = round(scale.y(p));
    const text = label(p, axisFormat, decimals);
    // Formatters with few digits can print neighbours alike; a repeated label would mislead.
    if (priceTicks.some((t) => t.label === text) || Math.abs(y - lastPrice.y) < LAST_LABEL_CLEARANCE) continue;
    if (y < L.priceTop + 6 || y > L.priceBottom - 6) continue;
    priceTicks.push({ y, label: text });
  }

  const labelled = timeTicks(start, end, interval, Math.floor(plotWidth / 120))
    .map((t) => ({ x: round(xOf(t.time)), label: formatTime(t.time, t.kind) }))
    .filter((t) => t.x >= L.left + 24 && t.x <= L.right - 24);

  const notes: string[] = [];
  if (scale.kind === "log") notes.push(truncate(cleanText(words.logScale), L.maxSubtitle));
  if (factor > 1) notes.push(truncate(cleanText(words.merged(factor)), L.maxSubtitle));
  const note = truncate(cleanText(spec.note ?? ""), L.maxSubtitle);
  if (note !== "") notes.push(note);

  return {
    title,
    subtitle,
    notes,
    candles: shapes,
    priceTicks,
    timeTicks: labelled,
    last: lastPrice,
    ...(maxVolume > 0 ? { volumeLabel: `${truncate(cleanText(words.volume), 8)} ${truncate(cleanText((spec.formatVolume ?? formatVolume)(maxVolume)), 10)}` } : {}),
    ...unitAndSource(spec, words),
  };
}
