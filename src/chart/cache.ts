import { LRUCache } from "lru-cache";

/** What a chart picture depends on; a new candle or a new title gives a new key. */
export interface ChartKey {
  /** `<address>-<chain>` of the token (or the pair id the candles came from). */
  tokenId: string;
  /** Candle length in minutes. */
  interval: number;
  /** K-line category: u (USD), r (relative to base token), m (relative to main token). */
  category: string;
  /** Start of the newest candle, unix seconds; 0 when there are none. */
  lastCandleTime: number;
  /**
   * The text the picture carries (title and subtitle): the 24h change moves within a candle,
   * and a cached picture must not show another change than the caption beside it.
   */
  text: string;
}

/** The cache key of a chart: the parts joined by "|", the free text last. */
export function chartCacheKey(key: ChartKey): string {
  return `${key.tokenId}|${key.interval}|${key.category}|${key.lastCandleTime}|${key.text}`;
}

/** Options of `ChartImageCache`. */
export interface ChartImageCacheOptions {
  /** Most pictures kept; default 256. */
  maxEntries?: number;
  /** Most PNG bytes kept; default 32 MiB. */
  maxBytes?: number;
  /**
   * How long a picture is reused, in ms; default 60,000. The newest candle keeps moving
   * until its bucket closes, so the key alone would show an old close for a whole interval.
   */
  ttlMs?: number;
  /** Clock for the TTL (tests move a fake one); default `performance`. */
  clock?: { now(): number };
}

type Render = () => Promise<Uint8Array>;

/**
 * Rendered chart PNGs by `ChartKey`, least recently used first out. Concurrent requests for
 * a missing key render once and share the result; a failed render is not cached.
 */
export class ChartImageCache {
  readonly #cache: LRUCache<string, Uint8Array, Render>;

  constructor(options: ChartImageCacheOptions = {}) {
    this.#cache = new LRUCache<string, Uint8Array, Render>({
      max: options.maxEntries ?? 256,
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (png) => Math.max(1, png.byteLength),
      ttl: options.ttlMs ?? 60_000,
      // Read the clock on every lookup: the default caches it for 1 ms behind a timer.
      ttlResolution: 0,
      ...(options.clock ? { perf: options.clock } : {}),
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  /** The cached picture for `key`, or `render()`'s result, stored for next time. */
  async getOrRender(key: ChartKey, render: Render): Promise<Uint8Array> {
    const png = await this.#cache.fetch(chartCacheKey(key), { context: render });
    if (!png) throw new Error("chart render returned nothing");
    return png;
  }

  /** The cached picture for `key`, if any. */
  get(key: ChartKey): Uint8Array | undefined {
    return this.#cache.get(chartCacheKey(key));
  }

  /** Pictures currently kept. */
  get size(): number {
    return this.#cache.size;
  }
}
