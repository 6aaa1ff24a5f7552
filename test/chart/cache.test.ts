import { describe, expect, it } from "vitest";
import { ChartImageCache, chartCacheKey } from "../../src/chart/cache.js";
import { renderChartSvg } from "../../src/chart/svg.js";
import type { ChartSpec } from "../../src/chart/types.js";
import { T0, walk } from "./candles.js";
import { deferred } from "../deferred.js";

const spec: ChartSpec = { title: "PEPE · eth · 1h", subtitle: "24h ▲ +1.50%", candles: walk({ count: 30, interval: 3600 }), intervalMinutes: 60 };
const svg = renderChartSvg(spec);

describe("ChartImageCache", () => {
  it("keys a picture by the SVG it is drawn from: same picture, same key", () => {
    expect(chartCacheKey(svg)).toBe(chartCacheKey(renderChartSvg({ ...spec })));
    expect(chartCacheKey(svg)).toMatch(/^[\w-]{43}$/);
  });

  it("renders once for concurrent requests of one chart and reuses the picture", async () => {
    const cache = new ChartImageCache();
    const pending = deferred<Uint8Array>();
    let renders = 0;
    const render = (): Promise<Uint8Array> => (renders++, pending.promise);
    const both = Promise.all([cache.getOrRender(svg, render), cache.getOrRender(svg, render)]);
    pending.resolve(new Uint8Array([1, 2, 3]));
    expect((await both).map((p) => Array.from(p))).toEqual([[1, 2, 3], [1, 2, 3]]);
    expect(Array.from(await cache.getOrRender(svg, render))).toEqual([1, 2, 3]);
    expect(renders).toBe(1);
  });

  it("draws again when a new candle arrives, the last close moves or the 24h change moves", async () => {
    const cache = new ChartImageCache();
    let renders = 0;
    const render = async (): Promise<Uint8Array> => new Uint8Array([++renders]);
    await cache.getOrRender(svg, render);
    const candles = spec.candles;
    const moved = candles.map((c, i) => (i === candles.length - 1 ? { ...c, close: c.close * 1.01, high: c.high * 1.01 } : c));
    const next = [...candles, { ...(candles[candles.length - 1] as (typeof candles)[number]), time: T0 + 30 * 3600 }];
    expect(Array.from(await cache.getOrRender(renderChartSvg({ ...spec, candles: next }), render))).toEqual([2]);
    expect(Array.from(await cache.getOrRender(renderChartSvg({ ...spec, candles: moved }), render))).toEqual([3]);
    expect(Array.from(await cache.getOrRender(renderChartSvg({ ...spec, subtitle: "24h ▼ −0.40%" }), render))).toEqual([4]);
  });

  it("does not keep a failed render", async () => {
    const cache = new ChartImageCache();
    await expect(cache.getOrRender(svg, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(cache.size).toBe(0);
    expect(Array.from(await cache.getOrRender(svg, async () => new Uint8Array([9])))).toEqual([9]);
  });

  it("keeps at most maxEntries pictures, dropping the least recently used", async () => {
    const cache = new ChartImageCache({ maxEntries: 2 });
    const png = async (): Promise<Uint8Array> => new Uint8Array([1]);
    for (const t of ["A", "B", "C"]) await cache.getOrRender(`<svg>${t}</svg>`, png);
    expect(cache.size).toBe(2);
    expect(cache.has("<svg>A</svg>")).toBe(false);
  });

  it("keeps at most maxBytes of pictures", async () => {
    const cache = new ChartImageCache({ maxBytes: 250 });
    for (const t of ["A", "B", "C"]) await cache.getOrRender(`<svg>${t}</svg>`, async () => new Uint8Array(100));
    expect(cache.size).toBe(2);
  });
});
