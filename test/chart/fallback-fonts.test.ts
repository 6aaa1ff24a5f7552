/**
 * Names in Arabic, Hebrew and emoji on the pictures: drawn with the bundled Noto fonts, each
 * loaded only for a picture that has a character of it, still without any system font.
 */
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { renderPnlSvg, type PnlCardSpec } from "../../src/chart/pnl-card.js";
import { CHART_FONT_FILES, EMOJI_FONT_FILE, RASTERIZE_OPTIONS, rasterizeOptions, rasterizeSvg } from "../../src/chart/rasterize.js";
import { fontCoverage } from "../../src/chart/font-coverage.js";
import { CHART_THEME as T } from "../../src/chart/theme.js";
import { decodePng, type DecodedPng } from "./png.js";

const card = (subtitle: string): PnlCardSpec => ({ title: "PEPE · eth", subtitle, headline: "2.5×", headlineLabel: "high since the call", up: true, rows: [] });

/** The subtitle's line, where the member's name is drawn. */
const nameBox = { x: 40, y: 88, width: 560, height: 22 };

/** Columns of the box with ink, and all its inked pixels. */
function ink(png: DecodedPng): { columns: number; pixels: number } {
  const bg = [1, 3, 5].map((k) => parseInt(T.background.slice(k, k + 2), 16));
  let columns = 0;
  let pixels = 0;
  for (let x = nameBox.x; x < nameBox.x + nameBox.width; x++) {
    let inked = 0;
    for (let y = nameBox.y; y < nameBox.y + nameBox.height; y++) {
      const i = (y * png.width + x) * 4;
      if (bg.some((v, k) => Math.abs((png.pixels[i + k] ?? 0) - v) > 40)) inked++;
    }
    if (inked > 0) columns++;
    pixels += inked;
  }
  return { columns, pixels };
}

/** Pixels of the name's line that differ between two pictures. */
function changed(a: DecodedPng, b: DecodedPng): number {
  let n = 0;
  for (let y = nameBox.y; y < nameBox.y + nameBox.height; y++) {
    for (let x = nameBox.x; x < nameBox.x + nameBox.width; x++) {
      const i = (y * a.width + x) * 4;
      if ([0, 1, 2].some((k) => Math.abs((a.pixels[i + k] ?? 0) - (b.pixels[i + k] ?? 0)) > 40)) n++;
    }
  }
  return n;
}

const interOnly = (svg: string): DecodedPng =>
  decodePng(new Resvg(svg, { ...RASTERIZE_OPTIONS, font: { ...RASTERIZE_OPTIONS.font, fontFiles: CHART_FONT_FILES.slice(0, 2) } }).render().asPng());

describe("Arabic, Hebrew and emoji on the pictures", () => {
  it.each([
    ["Arabic", "محمد علي", "NotoNaskhArabic-Regular.ttf"],
    ["Hebrew", "שלום עליכם", "NotoSansHebrew-Regular.ttf"],
    ["emoji", "🚀🚀 🌕🐸", "NotoEmoji_400Regular.ttf"],
  ])("draws a member named in %s with its font, where Inter alone draws boxes", (_, name, file) => {
    const svg = renderPnlSvg(card(name));
    const files = rasterizeOptions(svg).font?.fontFiles ?? [];
    expect(files.some((f) => f.endsWith(file))).toBe(true);
    const drawn = decodePng(rasterizeSvg(svg));
    expect(changed(drawn, interOnly(svg))).toBeGreaterThan(150);
    const { columns, pixels } = ink(drawn);
    expect(columns).toBeGreaterThan(40);
    expect(pixels).toBeGreaterThan(200);
  });

  it("loads no fallback for a picture Inter draws whole, and only the one a name needs", () => {
    expect(rasterizeOptions(renderPnlSvg(card("Ana Ёлка é"))).font?.fontFiles).toEqual(CHART_FONT_FILES.slice(0, 2));
    const files = rasterizeOptions(renderPnlSvg(card("🚀 ana"))).font?.fontFiles ?? [];
    expect(files).toEqual([...CHART_FONT_FILES.slice(0, 2), EMOJI_FONT_FILE]);
  });

  it("reads a BMP font's characters from its format 4 table", () => {
    const arabic = fontCoverage(CHART_FONT_FILES.find((f) => f.endsWith("NotoNaskhArabic-Regular.ttf")) as string);
    for (const c of "محمد") expect(arabic(c.codePointAt(0) ?? 0), c).toBe(true);
    for (const c of "狗🚀") expect(arabic(c.codePointAt(0) ?? 0), c).toBe(false);
  });
});
