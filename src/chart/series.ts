import type { Candle } from "./types.js";

/** The largest time a JavaScript Date can hold, in unix seconds; later times cannot be labelled. */
const MAX_TIME = 8.64e12;

/**
 * Candles fit to draw: finite prices and a time a Date can hold, sorted by time, one per bucket, with high/low
 * widened to cover open and close. A candle with a non-finite time or price is dropped; a
 * non-finite or negative volume becomes 0 (the candle stays, its volume bar does not).
 */
export function cleanCandles(candles: readonly Candle[]): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const c of candles) {
    if (![c.time, c.open, c.high, c.low, c.close].every(Number.isFinite) || Math.abs(c.time) > MAX_TIME) continue;
    const volume = Number.isFinite(c.volume) && c.volume > 0 ? c.volume : 0;
    byTime.set(c.time, {
      time: c.time,
      open: c.open,
      close: c.close,
      high: Math.max(c.high, c.open, c.close),
      low: Math.min(c.low, c.open, c.close),
      volume,
    });
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/**
 * The bucket length in seconds: `intervalMinutes` when it is a positive finite number, else
 * the smallest gap between candles, else one hour.
 */
export function intervalSeconds(intervalMinutes: number, sorted: readonly Candle[]): number {
  if (Number.isFinite(intervalMinutes) && intervalMinutes > 0) return intervalMinutes * 60;
  let smallest = Infinity;
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i]?.time ?? 0) - (sorted[i - 1]?.time ?? 0);
    if (gap > 0 && gap < smallest) smallest = gap;
  }
  return Number.isFinite(smallest) ? smallest : 3600;
}

/**
 * Merges neighbouring candles into buckets of a whole multiple of `interval`, aligned to the
 * first candle, so that at most `maxCount` remain and a candle never gets thinner than a pixel
 * or two. Returns the candles and the multiple used (1 when nothing was merged).
 */
export function downsample(
  sorted: readonly Candle[],
  interval: number,
  maxCount: number,
): { candles: Candle[]; factor: number } {
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (!first || !last || sorted.length <= maxCount) return { candles: [...sorted], factor: 1 };
  // Enough buckets of this width span the whole range in at most maxCount steps.
  const factor = Math.max(2, Math.ceil((last.time - first.time + interval) / interval / maxCount));
  const width = interval * factor;
  const merged: Candle[] = [];
  let current: Candle | undefined;
  let bucket = NaN;
  for (const c of sorted) {
    const b = Math.floor((c.time - first.time) / width);
    if (current && b === bucket) {
      current.high = Math.max(current.high, c.high);
      current.low = Math.min(current.low, c.low);
      current.close = c.close;
      current.volume += c.volume;
    } else {
      current = { ...c, time: first.time + b * width };
      bucket = b;
      merged.push(current);
    }
  }
  return { candles: merged, factor };
}
