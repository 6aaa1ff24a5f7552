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
  /** Price formatter for axis labels (the core's tiny-price notation). */
  formatPrice?: (price: number) => string;
}

/** Renders charts off the hot path of other chats. */
export interface ChartRenderer {
  render(spec: ChartSpec): Promise<Uint8Array>;
  close(): Promise<void>;
}
