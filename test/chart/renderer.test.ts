import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ChartError } from "../../src/chart/errors.js";
import { renderChartPng } from "../../src/chart/rasterize.js";
import { createChartRenderer } from "../../src/chart/renderer.js";
import type { ChartRenderer, ChartSpec } from "../../src/chart/types.js";
import { walk } from "./candles.js";
import { decodePng } from "./png.js";

const spec: ChartSpec = {
  title: "PEPE · eth · 1h",
  subtitle: "24h +3.2 %",
  candles: walk({ count: 300, interval: 3600, price: 0.00001234 }),
  intervalMinutes: 60,
  formatPrice: (p) => `≈${p.toExponential(2)}`,
};

const open: ChartRenderer[] = [];
function renderer(options: Parameters<typeof createChartRenderer>[0]): ChartRenderer {
  const r = createChartRenderer(options);
  open.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

describe("createChartRenderer", () => {
  it("draws in a worker the same bytes as the synchronous render, formatter included", async () => {
    const png = await renderer({}).render(spec);
    expect(Buffer.from(png).equals(Buffer.from(renderChartPng(spec)))).toBe(true);
    expect(decodePng(png).width).toBe(1200);
  });

  it("rejects with 'charts are busy' when the queue is full, and still draws what it accepted", async () => {
    const r = renderer({ workers: 1, maxQueue: 1 });
    const first = r.render({ ...spec, title: "FIRST" });
    const second = r.render({ ...spec, title: "SECOND" });
    const third = r.render({ ...spec, title: "THIRD" });
    await expect(third).rejects.toThrow(ChartError);
    await expect(third).rejects.toMatchObject({ kind: "busy", retryable: true, message: "charts are busy, try again in a moment" });
    const [a, b] = await Promise.all([first, second]);
    expect([decodePng(a).height, decodePng(b).height]).toEqual([675, 675]);
    await expect(r.render({ ...spec, title: "THIRD" })).resolves.toBeInstanceOf(Uint8Array);
  });

  it("draws one picture for identical specs asked at once, and serves it again without a worker", async () => {
    const r = renderer({ workers: 1, maxQueue: 0 });
    const [a, b, c] = await Promise.all([r.render(spec), r.render({ ...spec }), r.render({ ...spec })]);
    expect(Buffer.from(a).equals(Buffer.from(b)) && Buffer.from(b).equals(Buffer.from(c))).toBe(true);
    // The one worker is busy with another picture and the queue takes none: only a kept picture can answer.
    const other = r.render({ ...spec, title: "OTHER" });
    await expect(r.render(spec)).resolves.toEqual(a);
    await other;
  });

  it("spreads renders over several workers", async () => {
    const r = renderer({ workers: 2, maxQueue: 0 });
    const both = await Promise.all([r.render(spec), r.render({ ...spec, title: "OTHER" })]);
    expect(both.map((png) => decodePng(png).width)).toEqual([1200, 1200]);
    await expect(Promise.all(["A", "B", "C"].map((title) => r.render({ ...spec, title })))).rejects.toMatchObject({ kind: "busy" });
  });

  it("rejects waiting and later renders once closed", async () => {
    const r = renderer({ workers: 1, maxQueue: 4 });
    const running = r.render(spec).catch((e: unknown) => e);
    const waiting = expect(r.render(spec)).rejects.toMatchObject({ kind: "closed" });
    await r.close();
    await waiting;
    await expect(r.render(spec)).rejects.toMatchObject({ kind: "closed" });
    const outcome = await running;
    expect(outcome instanceof Uint8Array || (outcome instanceof ChartError && outcome.kind === "closed")).toBe(true);
  });

  it("runs its worker from the built dist/ under plain node, and an idle worker lets the process exit", async () => {
    // test/global-setup.ts builds dist/ before the run; this script never calls close().
    const dist = new URL("../../dist/chart/", import.meta.url).href;
    const script = `
      const { createChartRenderer } = await import(${JSON.stringify(`${dist}renderer.js`)});
      const { renderChartPng } = await import(${JSON.stringify(`${dist}rasterize.js`)});
      const spec = { title: "BUILT", candles: [{ time: 1795305600, open: 1, high: 2, low: 0.5, close: 1.5, volume: 3 }], intervalMinutes: 60 };
      const png = await createChartRenderer().render(spec);
      console.log(png.length, Buffer.from(png).equals(Buffer.from(renderChartPng(spec))));`;
    const dir = await mkdtemp(join(tmpdir(), "chart-dist-"));
    const file = join(dir, "render.mjs");
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 20_000 }).finally(() =>
      rm(dir, { recursive: true, force: true }),
    );
    expect(stdout.trim()).toMatch(/^\d{4,} true$/);
  });
});
