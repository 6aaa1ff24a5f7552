import { describe, expect, it } from "vitest";
import { ChartImageCache, chartCacheKey, type ChartKey } from "../../src/chart/cache.js";

const key: ChartKey = { tokenId: "0xabc-eth", interval: 60, category: "u", lastCandleTime: 1795305600, text: "PEPE · eth · 1h\n24h ▲ +1.50%" };

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("ChartImageCache", () => {
  it("keys pictures by token, interval, category, last candle time and the text they carry", () => {
    expect(chartCacheKey(key)).toBe("0xabc-eth|60|u|1795305600|PEPE · eth · 1h\n24h ▲ +1.50%");
  });

  it("renders once for concurrent requests of one chart and reuses the picture", async () => {
    const cache = new ChartImageCache();
    const pending = deferred<Uint8Array>();
    let renders = 0;
    const render = (): Promise<Uint8Array> => (renders++, pending.promise);
    const both = Promise.all([cache.getOrRender(key, render), cache.getOrRender(key, render)]);
    pending.resolve(new Uint8Array([1, 2, 3]));
    expect((await both).map((p) => Array.from(p))).toEqual([[1, 2, 3], [1, 2, 3]]);
    expect(Array.from(await cache.getOrRender(key, render))).toEqual([1, 2, 3]);
    expect(renders).toBe(1);
  });

  it("draws again when a new candle arrives, the category changes or the 24h change moves", async () => {
    const cache = new ChartImageCache();
    let renders = 0;
    const render = async (): Promise<Uint8Array> => new Uint8Array([++renders]);
    await cache.getOrRender(key, render);
    expect(Array.from(await cache.getOrRender({ ...key, lastCandleTime: key.lastCandleTime + 3600 }, render))).toEqual([2]);
    expect(Array.from(await cache.getOrRender({ ...key, category: "r" }, render))).toEqual([3]);
    expect(Array.from(await cache.getOrRender({ ...key, text: "PEPE · eth · 1h\n24h ▼ −0.40%" }, render))).toEqual([4]);
  });

  it("forgets a picture after its time to live", async () => {
    let now = 1_000;
    const cache = new ChartImageCache({ ttlMs: 60_000, clock: { now: () => now } });
    let renders = 0;
    const render = async (): Promise<Uint8Array> => new Uint8Array([++renders]);
    await cache.getOrRender(key, render);
    now += 59_000;
    expect(cache.get(key)).toEqual(new Uint8Array([1]));
    now += 2_000;
    expect(cache.get(key)).toBeUndefined();
    expect(Array.from(await cache.getOrRender(key, render))).toEqual([2]);
  });

  it("does not keep a failed render", async () => {
    const cache = new ChartImageCache();
    await expect(cache.getOrRender(key, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(cache.size).toBe(0);
    expect(Array.from(await cache.getOrRender(key, async () => new Uint8Array([9])))).toEqual([9]);
  });

  it("keeps at most maxEntries pictures, dropping the least recently used", async () => {
    const cache = new ChartImageCache({ maxEntries: 2 });
    const png = async (): Promise<Uint8Array> => new Uint8Array([1]);
    for (const t of [1, 2, 3]) await cache.getOrRender({ ...key, lastCandleTime: t }, png);
    expect(cache.size).toBe(2);
    expect(cache.get({ ...key, lastCandleTime: 1 })).toBeUndefined();
  });
});
