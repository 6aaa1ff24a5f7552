import { describe, expect, it } from "vitest";
import { renderPnlSvg, type PnlCardSpec } from "../../src/chart/pnl-card.js";
import { rasterizeSvg } from "../../src/chart/rasterize.js";
import { CHART_LAYOUT as L, CHART_THEME as T } from "../../src/chart/theme.js";
import { decodePng, pixelHex, type DecodedPng } from "./png.js";

const card = (value: string, label = "High since"): PnlCardSpec => ({
  title: "NYDRAFROG · base",
  subtitle: "called by Ana",
  headline: "2.5×",
  headlineLabel: "high since the call",
  up: true,
  rows: [{ label, value }],
});

const draw = (spec: PnlCardSpec): DecodedPng => decodePng(rasterizeSvg(renderPnlSvg(spec)));

const ink = (png: DecodedPng, x: number, y: number): boolean => pixelHex(png, x, y) !== T.background.toLowerCase();

/** The first and last picture rows with text in the rows' half (from x = 600): ink, but not a rule across it. */
function textRows(png: DecodedPng): { top: number; bottom: number } {
  let top = png.height;
  let bottom = -1;
  for (let y = 0; y < png.height; y++) {
    let inked = 0;
    for (let x = 600; x < png.width; x++) if (ink(png, x, y)) inked++;
    if (inked > 0 && inked < 400) {
      top = Math.min(top, y);
      bottom = y;
    }
  }
  return { top, bottom };
}

/** Whether two pictures have the same pixels in rows `top`…`bottom` of the rows' half. */
function sameRows(a: DecodedPng, b: DecodedPng, top: number, bottom: number): boolean {
  for (let y = top; y <= bottom; y++) {
    for (let x = 600; x < a.width; x++) if (pixelHex(a, x, y) !== pixelHex(b, x, y)) return false;
  }
  return true;
}

/** Columns where two pictures differ. */
function differingColumns(a: DecodedPng, b: DecodedPng): number[] {
  const cols: number[] = [];
  for (let x = 0; x < a.width; x++) {
    for (let y = 0; y < a.height; y++) {
      if (pixelHex(a, x, y) !== pixelHex(b, x, y)) {
        cols.push(x);
        break;
      }
    }
  }
  return cols;
}

describe("the PnL card", () => {
  it.each([
    ["a high long after the call", "$0.0₅1354 (2.5×, 2d 9h after the call)", "High since"],
    ["a read not yet made", "not yet — prices are read every 60 min", "Read"],
    ["a long phrase in Chinese", "未读取（喊单只在发出后 7 天内读取价格）未读取（喊单只在发出后 7 天内读取价格）", "读取于"],
  ])("draws %s whole or cut with an ellipsis, inside the picture, never over its label", (_, text, name) => {
    // The rows' half of a card whose one value is empty holds its label's text and a rule.
    const bare = draw(card("", name));
    const full = draw(card(text, name));
    const label = textRows(bare);
    expect(label.bottom).toBeGreaterThan(label.top);
    // Those rows are the same picture with the value drawn: nothing of it lies over the label.
    expect(sameRows(bare, full, label.top, label.bottom)).toBe(true);
    // The value is drawn, and none of it past the column's right edge.
    const value = differingColumns(bare, full);
    expect(value.length).toBeGreaterThan(100);
    expect(Math.max(...value)).toBeLessThanOrEqual(L.notesRight + 1);
    const svg = renderPnlSvg(card(text, name));
    const drawn = /<text[^>]*>([^<]*)<\/text>/g;
    const texts = [...svg.matchAll(drawn)].map((m) => m[1]);
    expect(texts.some((t) => t === text || (t?.endsWith("…") === true && text.startsWith(t.slice(0, -1))))).toBe(true);
  });

  it("keeps a long headline in its half, left of the rows", () => {
    const png = draw({ ...card("1"), headline: "12,345,678.9×", rows: [] });
    let right = 0;
    for (let y = 160; y < 300; y++) for (let x = 40; x < png.width; x++) if (ink(png, x, y)) right = Math.max(right, x);
    expect(right).toBeGreaterThan(400);
    expect(right).toBeLessThan(630);
  });
});
