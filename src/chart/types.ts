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
   * keeps them alike, where dropping trailing zeros would show `$0.0027` beside `$0.00275`.
   */
  formatPrice?: (price: number, decimals?: number) => string;
}

/** Renders charts off the hot path of other chats. */
export interface ChartRenderer {
  render(spec: ChartSpec): Promise<Uint8Array>;
  close(): Promise<void>;
}
