import type { Candle } from "../../src/chart/types.js";

/** 2026-11-22 00:00 UTC. */
export const T0 = 1795305600;

/** A deterministic random walk of `count` candles from `start`, `interval` seconds apart. */
export function walk(options: { count: number; interval: number; start?: number; price?: number; volatility?: number; seed?: number }): Candle[] {
  let seed = options.seed ?? 7;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const vol = options.volatility ?? 0.02;
  let price = options.price ?? 1;
  return Array.from({ length: options.count }, (_, i) => {
    const open = price;
    const close = open * (1 + (random() - 0.49) * vol);
    price = close;
    return {
      time: (options.start ?? T0) + i * options.interval,
      open,
      close,
      high: Math.max(open, close) * (1 + (random() * vol) / 2),
      low: Math.min(open, close) * (1 - (random() * vol) / 2),
      volume: 1000 + random() * 1e5,
    };
  });
}

/** A candle from `open` to `close` with wicks one unit beyond. */
export function candle(time: number, open: number, close: number, volume = 100): Candle {
  return { time, open, close, high: Math.max(open, close) + 1, low: Math.min(open, close) - 1, volume };
}

/** How many decimals a price label shows, subscripted zeros included: `$0.0₅50` has 7. */
export function decimalsOf(label: string): number {
  const tiny = /0\.0([₀-₉]+)(\d+)/.exec(label);
  if (tiny) return Number([...(tiny[1] ?? "")].map((d) => "₀₁₂₃₄₅₆₇₈₉".indexOf(d)).join("")) + (tiny[2] ?? "").length;
  return /\.(\d+)/.exec(label)?.[1]?.length ?? 0;
}
