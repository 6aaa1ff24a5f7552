import { existsSync, readFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CHART_MIN_SLOTS, layoutChart, type ChartLayout } from "../../src/chart/layout.js";
import { RASTERIZE_OPTIONS, renderChartPng } from "../../src/chart/rasterize.js";
import { CHART_LAYOUT as L, CHART_THEME as T } from "../../src/chart/theme.js";
import type { ChartSpec } from "../../src/chart/types.js";
import { candle, T0, walk } from "./candles.js";
import { countDiffering, decodePng, PNG_SIGNATURE, pixelHex, type DecodedPng } from "./png.js";

const HOUR = 3600;

/** Twelve wide hourly candles, alternating down and up, ending up. */
function zigzag(): ChartSpec {
  const candles = Array.from({ length: 12 }, (_, i) =>
    i % 2 === 0 ? candle(T0 + i * HOUR, 120 + i, 100 + i) : candle(T0 + i * HOUR, 100 + i, 120 + i),
  );
  return { title: "ZIG · eth · 1h", subtitle: "24h +3.2 %", candles, intervalMinutes: 60 };
}

function draw(spec: ChartSpec): { png: DecodedPng; layout: ChartLayout; bytes: Uint8Array } {
  const bytes = renderChartPng(spec);
  return { png: decodePng(bytes), layout: layoutChart(spec), bytes };
}

const titleBox = { x: L.left, y: L.titleY - 24, width: 180, height: 30 };
const notesBox = { x: L.notesRight - 110, y: L.notesY - 16, width: 100, height: 20 };

describe("renderChartPng", () => {
  it("writes a 1200×675 PNG", () => {
    const { bytes, png } = draw(zigzag());
    expect(Array.from(bytes.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    expect([png.width, png.height]).toEqual([1200, 675]);
    expect(bytes.byteLength).toBeLessThan(200_000);
  });

  it("paints up bodies in the up colour and down bodies in the down colour", () => {
    const { png, layout } = draw(zigzag());
    const clear = layout.candles.filter((c) => c.bodyHeight > 6 && Math.abs(c.bodyTop + c.bodyHeight / 2 - (layout.last?.y ?? 0)) > 4);
    const up = clear.find((c) => c.up);
    const down = clear.find((c) => !c.up);
    if (!up || !down) throw new Error("the zigzag has clear up and down bodies");
    expect(pixelHex(png, up.x + up.width / 2, up.bodyTop + up.bodyHeight / 2)).toBe(T.up);
    expect(pixelHex(png, down.x + down.width / 2, down.bodyTop + down.bodyHeight / 2)).toBe(T.down);
  });

  it("leaves the background where nothing is drawn", () => {
    const { png, layout } = draw(zigzag());
    // The first candle's slot starts at the plot's left edge, its body half a slot further in.
    const x = L.left + 3;
    const rows = [L.priceTop + 2, (L.priceTop + L.priceBottom) / 2 + 1, L.priceBottom - 2].filter(
      (y) => !layout.priceTicks.some((t) => Math.abs(t.y - y) < 2) && Math.abs((layout.last?.y ?? -9) - y) > 2,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const y of rows) expect(pixelHex(png, x, y)).toBe(T.background);
    expect(pixelHex(png, 600, 90)).toBe(T.background);
  });

  it("draws the title", () => {
    const { png } = draw(zigzag());
    expect(countDiffering(png, titleBox, T.background)).toBeGreaterThan(300);
  });

  it("loads no system fonts, only font files shipped by an npm dependency", () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { dependencies: Record<string, string> };
    const font = RASTERIZE_OPTIONS.font;
    expect(font?.loadSystemFonts).toBe(false);
    expect(font?.fontDirs ?? []).toEqual([]);
    expect(font?.fontFiles?.length).toBeGreaterThan(0);
    for (const file of font?.fontFiles ?? []) {
      expect(existsSync(file), file).toBe(true);
      const [top, scope = "", name = ""] = relative(root, file).split(sep);
      expect(top).toBe("node_modules");
      expect(Object.keys(pkg.dependencies)).toContain(scope.startsWith("@") ? `${scope}/${name}` : scope);
    }
  });

  it("draws volume bars beneath the candles", () => {
    const { png, layout } = draw(zigzag());
    const c = layout.candles[3];
    if (!c) throw new Error("zigzag has candles");
    expect(pixelHex(png, c.x + c.width / 2, L.volumeBottom - 2)).not.toBe(T.background);
  });

  it("says 'no trades in this range' on an otherwise empty picture", () => {
    const { png, layout } = draw({ title: "NEW · sol · 5m", candles: [], intervalMinutes: 5 });
    expect(layout.emptyMessage).toBe("no trades in this range");
    const plot = { x: 0, y: L.priceTop, width: L.width, height: L.volumeBottom - L.priceTop };
    const middle = { x: 400, y: 330, width: 400, height: 40 };
    const inMiddle = countDiffering(png, middle, T.background);
    expect(inMiddle).toBeGreaterThan(300);
    expect(countDiffering(png, plot, T.background)).toBe(inMiddle);
  });

  it("draws one candle as a candle on the right of the axis", () => {
    const { png, layout } = draw({ title: "ONE", candles: [candle(T0, 10, 20)], intervalMinutes: 60 });
    const [only] = layout.candles;
    if (!only) throw new Error("one candle laid out");
    // The last of the axis's fewest slots (CHART_MIN_SLOTS): a candle's width from the right edge.
    expect(only.x).toBeGreaterThan(L.right - (L.right - L.left) / CHART_MIN_SLOTS - 30);
    expect(only.width).toBeGreaterThan(10);
    expect(pixelHex(png, only.x + only.width / 2, only.bodyTop + 3)).toBe(T.up);
  });

  it("draws a flat series as a line at its price with distinct axis labels", () => {
    const flat = Array.from({ length: 30 }, (_, i) => ({ time: T0 + i * 900, open: 1, high: 1, low: 1, close: 1, volume: 5 }));
    const { png, layout } = draw({ title: "USDC", candles: flat, intervalMinutes: 15 });
    const labels = layout.priceTicks.map((t) => t.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(layout.last?.label).toBe("$1");
    expect(layout.last?.y).toBeGreaterThan(L.priceTop + 100);
    expect(layout.last?.y).toBeLessThan(L.priceBottom - 100);
    expect(countDiffering(png, { x: L.right + 4, y: (layout.last?.y ?? 0) - 8, width: 60, height: 16 }, T.background)).toBeGreaterThan(100);
  });

  it("switches to a log scale above a 1,000× range and says so", () => {
    const rising = walk({ count: 120, interval: 86400, price: 1e-6, volatility: 0.05 }).map((c, i) => {
      const f = 1.08 ** i;
      return { ...c, open: c.open * f, high: c.high * f, low: c.low * f, close: c.close * f };
    });
    const log = draw({ title: "MOON · bsc · 1d", candles: rising, intervalMinutes: 1440 });
    const linear = draw(zigzag());
    expect(log.layout.notes).toContain("log scale");
    expect(linear.layout.notes).toEqual([]);
    expect(countDiffering(log.png, notesBox, T.background)).toBeGreaterThan(150);
    expect(countDiffering(linear.png, notesBox, T.background)).toBe(0);
  });

  it("draws a hostile title as text", () => {
    const title = `<script>alert(1)</script> & "q" '\u202eevil\u200b${"X".repeat(10_000)}`;
    const { png, layout } = draw({ title, subtitle: "a\u0000b\u0007c", candles: walk({ count: 50, interval: 300 }), intervalMinutes: 5 });
    expect(layout.title.startsWith("<script>alert(1)</script> & \"q\" 'evilX")).toBe(true);
    expect(countDiffering(png, { x: L.left, y: L.titleY - 24, width: 600, height: 30 }, T.background)).toBeGreaterThan(1000);
  });

  it("renders every candle count from none to thousands without throwing", () => {
    for (const count of [0, 1, 2, 3, 299, 1000, 5000]) {
      const { png } = draw({ title: `N${count}`, candles: walk({ count, interval: 60 }), intervalMinutes: 1 });
      expect(png.width).toBe(1200);
    }
  });
});
