import type { TimeLabelKind } from "./format.js";

/** Maps prices to vertical pixels, linear or logarithmic, with the prices worth a grid line. */
export interface PriceScale {
  kind: "linear" | "log";
  /** Pixel row of a price; larger prices are higher up (smaller y). */
  y(price: number): number;
  /** Prices for grid lines and axis labels, ascending. */
  ticks: number[];
  /** Smallest gap between neighbouring ticks, to decide how many digits a label needs. */
  step: number;
}

/** Above this ratio between the highest high and the lowest low the price axis is logarithmic. */
export const LOG_SCALE_RATIO = 1000;

function niceStep(span: number, target: number): number {
  const raw = span / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return nice * magnitude;
}

/**
 * A price scale over [low, high] drawn between pixel rows `top` and `bottom`, with a little
 * headroom. A flat series (low = high) gets a band around its price instead of a zero span.
 */
export function priceScale(low: number, high: number, top: number, bottom: number): PriceScale {
  if (low > 0 && high / low > LOG_SCALE_RATIO) return logScale(low, high, top, bottom);
  let min = low;
  let max = high;
  if (max - min <= Math.abs(max) * 1e-12) {
    const band = max !== 0 ? Math.abs(max) * 0.05 : 1;
    min -= band;
    max += band;
  }
  const pad = (max - min) * 0.06;
  min = low >= 0 ? Math.max(0, min - pad) : min - pad;
  max += pad;
  const step = niceStep(max - min, 6);
  const ticks: number[] = [];
  for (let k = Math.ceil(min / step); k * step <= max && ticks.length < 50; k++) ticks.push(k * step);
  const span = max - min;
  return { kind: "linear", y: (p) => bottom - ((p - min) / span) * (bottom - top), ticks, step };
}

function logScale(low: number, high: number, top: number, bottom: number): PriceScale {
  const pad = (Math.log10(high) - Math.log10(low)) * 0.05;
  const min = Math.log10(low) - pad;
  const max = Math.log10(high) + pad;
  const decades = max - min;
  const every = Math.max(1, Math.ceil(decades / 8));
  const multiples = decades <= 5 ? [1, 2, 5] : [1];
  const ticks: number[] = [];
  for (let k = Math.floor(min); k <= Math.ceil(max); k++) {
    if (k % every !== 0) continue;
    for (const m of multiples) {
      const value = m * Number(`1e${k}`);
      const l = Math.log10(value);
      if (l >= min && l <= max) ticks.push(value);
    }
  }
  const smallest = ticks.length > 1 ? Math.min(...ticks.slice(1).map((t, i) => t - (ticks[i] ?? 0))) : low;
  return {
    kind: "log",
    y: (p) => bottom - ((Math.log10(p) - min) / decades) * (bottom - top),
    ticks,
    step: smallest,
  };
}

/** A labelled instant on the time axis. */
export interface TimeTick {
  time: number;
  kind: TimeLabelKind;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;
const SECOND_STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY];
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120, 300, 600, 1200, 3000, 6000, 12000, 30000, 60000, 120000];
/** 1970-01-05 was a Monday: weekly ticks fall on Mondays. */
const WEEK_OFFSET = 4 * DAY;

/** Unix seconds at the start of month number `index` (year × 12 + month), UTC. */
function monthStart(index: number): number {
  const d = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  d.setUTCFullYear(Math.floor(index / 12), ((index % 12) + 12) % 12, 1);
  return d.getTime() / 1000;
}

/**
 * Ticks for the time axis over [start, end] (unix seconds, UTC) at round instants, about
 * `target` of them. Clock times (`14:00`) for intraday candles, switching to the date at
 * midnight; dates for daily candles; months or years for long ranges.
 */
export function timeTicks(start: number, end: number, intervalSeconds: number, target: number): TimeTick[] {
  const span = Math.max(end - start, 1);
  const step = SECOND_STEPS.find((s) => span / s <= target);
  if (step !== undefined) {
    const offset = step >= 7 * DAY ? WEEK_OFFSET : 0;
    const ticks: TimeTick[] = [];
    for (let t = Math.ceil((start - offset) / step) * step + offset; t <= end; t += step) {
      const midnight = t % DAY === 0;
      const kind = intervalSeconds < DAY && step < DAY && !midnight ? "clock" : "day";
      ticks.push({ time: t, kind });
    }
    return ticks;
  }
  const months = MONTH_STEPS.find((m) => span / (m * 30.44 * DAY) <= target) ?? MONTH_STEPS[MONTH_STEPS.length - 1] ?? 12;
  const from = new Date(start * 1000);
  let index = Math.ceil((from.getUTCFullYear() * 12 + from.getUTCMonth()) / months) * months;
  const ticks: TimeTick[] = [];
  for (;;) {
    const t = monthStart(index);
    if (!(t <= end) || ticks.length > target * 2) return ticks;
    if (t >= start) ticks.push({ time: t, kind: months >= 12 ? "year" : "month" });
    index += months;
  }
}
