/**
 * Chinese in the picture: token names such as 狗狗币 are drawn with the bundled Noto Sans SC
 * (Inter has no CJK glyphs), still without any system font.
 */
import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { fontCoverage } from "../../src/chart/font-coverage.js";
import { CHART_FONT_FILES, CJK_FONT_FILE, RASTERIZE_OPTIONS, rasterizeOptions, renderChartPng } from "../../src/chart/rasterize.js";
import { renderChartSvg } from "../../src/chart/svg.js";
import { CHART_LAYOUT as L, CHART_THEME as T } from "../../src/chart/theme.js";
import type { ChartSpec } from "../../src/chart/types.js";
import { walk } from "./candles.js";
import { decodePng, type DecodedPng } from "./png.js";

const spec = (title: string): ChartSpec => ({ title, subtitle: "24h +3.2 %", candles: walk({ count: 40, interval: 3600 }), intervalMinutes: 60 });

/** The same picture rasterised without the CJK font: what the chart drew before it was bundled. */
function drawWithoutCjkFont(s: ChartSpec): DecodedPng {
  const font = RASTERIZE_OPTIONS.font ?? {};
  const options: ResvgRenderOptions = { ...RASTERIZE_OPTIONS, font: { ...font, fontFiles: (font.fontFiles ?? []).filter((f) => f !== CJK_FONT_FILE) } };
  return decodePng(new Resvg(renderChartSvg(s), options).render().asPng());
}

/** The same picture rasterised with every bundled font, whatever it contains. */
function drawWithEveryFont(s: ChartSpec): DecodedPng {
  return decodePng(new Resvg(renderChartSvg(s), RASTERIZE_OPTIONS).render().asPng());
}

/** Pixels of the box that differ between two pictures by more than `threshold` in some channel. */
function countChanged(a: DecodedPng, b: DecodedPng, box: { x: number; y: number; width: number; height: number }, threshold = 40): number {
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * a.width + x) * 4;
      if ([0, 1, 2].some((k) => Math.abs((a.pixels[i + k] ?? 0) - (b.pixels[i + k] ?? 0)) > threshold)) count++;
    }
  }
  return count;
}

/** Pixels of the box that are not background, per column: where strokes are drawn. */
function inkColumns(png: DecodedPng, box: { x: number; y: number; width: number; height: number }): number[] {
  const bg = [1, 3, 5].map((k) => parseInt(T.background.slice(k, k + 2), 16));
  return Array.from({ length: box.width }, (_, dx) => {
    let ink = 0;
    for (let y = box.y; y < box.y + box.height; y++) {
      const i = (y * png.width + box.x + dx) * 4;
      if (bg.some((v, k) => Math.abs((png.pixels[i + k] ?? 0) - v) > 40)) ink++;
    }
    return ink;
  });
}

/** The first three characters of the title, at 26 px: about 80 px wide. */
const hanBox = { x: L.left, y: L.titleY - 28, width: 84, height: 36 };

describe("Chinese in the chart picture", () => {
  it("draws a Chinese token name as glyphs where the font-less render shows tofu boxes", () => {
    const title = "狗狗币 · eth · 1h";
    const withFont = decodePng(renderChartPng(spec(title)));
    const without = drawWithoutCjkFont(spec(title));
    expect(countChanged(withFont, without, hanBox)).toBeGreaterThan(300);
    // Glyphs: strokes spread across all three characters, not three hollow boxes.
    const ink = inkColumns(withFont, hanBox);
    expect(ink.filter((n) => n > 0).length).toBeGreaterThan(60);
    expect(ink.reduce((a, n) => a + n, 0)).toBeGreaterThan(400);
  });

  it("leaves a picture without Chinese exactly as Inter alone draws it", () => {
    const s = spec("PEPE · eth · 1h");
    const withFont = decodePng(renderChartPng(s));
    const without = drawWithoutCjkFont(s);
    expect(countChanged(withFont, without, { x: 0, y: 0, width: L.width, height: L.height }, 0)).toBe(0);
  });

  it("reads from each font's own table which characters it draws", () => {
    const [regular, semiBold, cjk] = CHART_FONT_FILES.map(fontCoverage);
    for (const covers of [regular, semiBold]) {
      for (const c of "AéЖΩ①→") expect(covers?.(c.codePointAt(0) ?? 0), c).toBe(true);
      for (const c of "狗Ａ🟢") expect(covers?.(c.codePointAt(0) ?? 0), c).toBe(false);
    }
    for (const c of "狗Ａ") expect(cjk?.(c.codePointAt(0) ?? 0), c).toBe(true);
  });

  it("leaves the CJK font out only of a picture Inter draws whole, and the picture is the same", () => {
    const interOnly = spec("Ёлка · Ω ① → é");
    expect(rasterizeOptions(renderChartSvg(interOnly)).font?.fontFiles).not.toContain(CJK_FONT_FILE);
    expect(countChanged(decodePng(renderChartPng(interOnly)), drawWithEveryFont(interOnly), { x: 0, y: 0, width: L.width, height: L.height }, 0)).toBe(0);
    // A fullwidth letter is not Han, yet only the CJK font has it.
    for (const title of ["狗狗币", "ＰＥＰＥ"]) {
      expect(rasterizeOptions(renderChartSvg(spec(title))).font?.fontFiles, title).toContain(CJK_FONT_FILE);
      expect(countChanged(decodePng(renderChartPng(spec(title))), drawWithEveryFont(spec(title)), hanBox, 0), title).toBe(0);
    }
  });

  it("names Inter first and the CJK font as the fallback in the picture's font list", () => {
    expect(renderChartSvg(spec("狗狗币"))).toContain(`font-family="Inter, 'Noto Sans S Chinese'"`);
    expect(RASTERIZE_OPTIONS.font?.defaultFontFamily).toBe("Inter");
    expect(RASTERIZE_OPTIONS.font?.fontFiles).toContain(CJK_FONT_FILE);
  });
});
