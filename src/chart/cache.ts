import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/**
 * The cache key of a picture: a digest of the SVG document it is rasterised from. The SVG is
 * everything the picture shows (candles, title, change, labels), so one key is one picture,
 * and a moving last candle or 24h change is a new key without any time to live.
 */
export function chartCacheKey(svg: string): string {
  return createHash("sha256").update(svg).digest("base64url");
}

/** Bounds of `ChartImageCache`. */
export interface ChartImageCacheOptions {
  /** Most pictures kept; default 256. */
  maxEntries?: number;
  /** Most PNG bytes kept; default 32 MiB. */
  maxBytes?: number;
}

type Render = () => Promise<Uint8Array>;

/**
 * Rendered chart PNGs by their SVG, least recently used first out, bounded in count and bytes.
 * Concurrent requests for a missing picture render once and share the result; a failed
 * render is not kept. Owned by the renderer: it lives and dies with it.
 */
export class ChartImageCache {
  readonly #cache: LRUCache<string, Uint8Array, Render>;

  constructor(options: ChartImageCacheOptions = {}) {
    this.#cache = new LRUCache<string, Uint8Array, Render>({
      max: options.maxEntries ?? 256,
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (png) => Math.max(1, png.byteLength),
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  /** The cached picture of `svg`, or `render()`'s result, stored for next time. */
  async getOrRender(svg: string, render: Render): Promise<Uint8Array> {
    const png = await this.#cache.fetch(chartCacheKey(svg), { context: render });
    if (!png) throw new Error("chart render returned nothing");
    return png;
  }

  /** Whether the picture of `svg` is kept. */
  has(svg: string): boolean {
    return this.#cache.has(chartCacheKey(svg));
  }

  /** Pictures currently kept. */
  get size(): number {
    return this.#cache.size;
  }
}
