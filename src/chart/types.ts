import type { PnlCardSpec } from "./pnl-card.js";

/** One candle, already parsed from the service's decimal strings. */
export interface Candle {
  /** Bucket start, unix seconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** What to draw. */
export interface ChartSpec {
  /** e.g. "PEPE · eth · 1h"; drawn as text, never as markup. */
  title: string;
  /** e.g. "24h +3.2 %". */
  subtitle?: string;
  candles: Candle[];
  intervalMinutes: number;
  /**
   * Price formatter for the axis and the last price (the core's tiny-price notation). Labels
   * of a linear axis pass `decimals`: writing exactly that many (subscripted zeros included)
   * keeps them alike, where dropping trailing zeros would show `$0.0027` beside `$0.00275`;
   * and `zeros`, the leading zeros every label of the axis writes, so that `0.0₄16` stands
   * beside `0.0₄08`, not `0.0₅8`.
   */
  formatPrice?: (price: number, decimals?: number, zeros?: number) => string;
  /** Volume formatter for the volume pane's label, with its unit (`$6.83M`); default a bare `6.83M`. */
  formatVolume?: (volume: number) => string;
  /** What the price axis counts in (`USD`, `WETH`), written above its labels. */
  priceUnit?: string;
  /** Where the numbers come from (`demo data (sandbox)`), written on the picture so a forwarded one still says so. */
  source?: string;
  /** A remark about the drawing the caller made (a finer interval for a short history), shown with the notes. */
  note?: string;
  /** The words the picture draws itself, in the chat's language; English when left out. */
  words?: ChartWords;
}

/** The picture's own words: the caller owns them, so the chart knows no language. */
export interface ChartWords {
  /** Shown instead of candles when the range has none. */
  empty: string;
  /** Note when the price axis is logarithmic. */
  logScale: string;
  /** Note when `factor` intervals are merged into each candle. */
  merged: (factor: number) => string;
  /** Written before the largest volume in the volume pane. */
  volume: string;
  /** The time zone the time axis counts in. */
  timeZone: string;
}

/** Renders charts off the hot path of other chats. */
export interface ChartRenderer {
  render(spec: ChartSpec): Promise<Uint8Array>;
  /** A call's PnL card, the same way; absent from stand-ins that draw charts only (a reply then goes without its picture). */
  renderCard?(spec: PnlCardSpec): Promise<Uint8Array>;
  close(): Promise<void>;
}
