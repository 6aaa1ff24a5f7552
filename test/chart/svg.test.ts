import { describe, expect, it } from "vitest";
import { LAST_LABEL_CLEARANCE, layoutChart } from "../../src/chart/layout.js";
import { renderChartSvg } from "../../src/chart/svg.js";
import { CHART_LAYOUT as L } from "../../src/chart/theme.js";
import type { Candle } from "../../src/chart/types.js";
import { candle, decimalsOf, T0, walk } from "./candles.js";

const HOSTILE = `<script>alert("x")</script> & 'q' \u202eRTL\u2066iso\u2069 zero\u200bwidth\u200d\ufeff ${"W".repeat(10_000)}`;

describe("renderChartSvg", () => {
  it("escapes a hostile title and subtitle so they stay text", () => {
    const svg = renderChartSvg({ title: HOSTILE, subtitle: "<b>bold</b>\u0000\u0007\n&amp;", candles: walk({ count: 20, interval: 60 }), intervalMinutes: 1 });
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos;");
    expect(svg).toContain("&lt;b&gt;bold&lt;/b&gt; &amp;amp;");
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("<b>");
    for (const invisible of ["\u0000", "\u0007", "\u202e", "\u2066", "\u2069", "\u200b", "\u200d", "\ufeff"]) {
      expect(svg).not.toContain(invisible);
    }
    expect(svg.length).toBeLessThan(20_000);
  });

  it("cuts an overly long title to the title width and marks the cut", () => {
    const layout = layoutChart({ title: HOSTILE, candles: [], intervalMinutes: 1 });
    expect(Array.from(layout.title)).toHaveLength(L.maxTitle);
    expect(layout.title.endsWith("…")).toBe(true);
    expect(layout.title).toContain("'q' RTLiso zerowi");
  });

  it("escapes what the price formatter returns", () => {
    const svg = renderChartSvg({ title: "T", candles: walk({ count: 5, interval: 60 }), intervalMinutes: 1, formatPrice: () => "<i>&</i>" });
    expect(svg).toContain("&lt;i&gt;&amp;&lt;/i&gt;");
    expect(svg).not.toContain("<i>");
  });

  it("labels axes with the caller's price formatter", () => {
    const layout = layoutChart({ title: "T", candles: walk({ count: 30, interval: 60, price: 0.000001234 }), intervalMinutes: 1, formatPrice: (p) => `P${p.toExponential(1)}` });
    expect(layout.priceTicks.length).toBeGreaterThan(0);
    for (const t of layout.priceTicks) expect(t.label).toMatch(/^P\d\.\de-\d+$/);
    expect(layout.last?.label).toMatch(/^P/);
  });
});

describe("layoutChart", () => {
  it("drops candles holding NaN or Infinity and never writes them into the picture", () => {
    const good = walk({ count: 10, interval: 60 });
    const bad: Candle[] = [
      { ...candle(T0 + 600, 1, 2), high: NaN },
      { ...candle(T0 + 660, 1, 2), close: Infinity },
      { ...candle(T0 + 720, 1, 2), time: NaN },
      { ...candle(T0 + 780, 1, 2), low: -Infinity },
    ];
    const layout = layoutChart({ title: "T", candles: [...good, ...bad], intervalMinutes: 1 });
    expect(layout.candles.map((c) => c.time)).toEqual(good.map((c) => c.time));
    const svg = renderChartSvg({ title: "T", candles: [...good, ...bad], intervalMinutes: 1 });
    expect(svg).not.toMatch(/NaN|Infinity/);
  });

  it("shows the empty message when every candle is unusable", () => {
    const layout = layoutChart({ title: "T", candles: [{ ...candle(T0, 1, 2), open: NaN }], intervalMinutes: 1 });
    expect(layout.emptyMessage).toBe("no trades in this range");
    expect(layout.candles).toEqual([]);
  });

  it("keeps a candle whose volume is not a number but draws no volume bar for it", () => {
    const layout = layoutChart({ title: "T", candles: [candle(T0, 1, 2, 50), candle(T0 + 60, 2, 3, NaN)], intervalMinutes: 1 });
    expect(layout.candles.map((c) => c.volumeHeight > 0)).toEqual([true, false]);
  });

  it("places candles by time so a gap in trading shows as empty space", () => {
    const before = walk({ count: 10, interval: 3600 });
    const after = walk({ count: 10, interval: 3600, start: T0 + 40 * 3600 });
    const layout = layoutChart({ title: "T", candles: [...before, ...after], intervalMinutes: 60 });
    const xs = layout.candles.map((c) => c.x);
    const slot = (xs[1] ?? 0) - (xs[0] ?? 0);
    expect(slot).toBeGreaterThan(10);
    expect((xs[10] ?? 0) - (xs[9] ?? 0)).toBeGreaterThanOrEqual(30 * slot - 2);
  });

  it("sorts candles given out of order and keeps one per time", () => {
    const candles = walk({ count: 5, interval: 60 });
    const layout = layoutChart({ title: "T", candles: [...candles].reverse().concat(candles[2] ?? []), intervalMinutes: 1 });
    expect(layout.candles.map((c) => c.time)).toEqual(candles.map((c) => c.time));
  });

  it("merges neighbouring candles when there are more than the width can show, and says so", () => {
    const layout = layoutChart({ title: "T", candles: walk({ count: 5000, interval: 60 }), intervalMinutes: 1 });
    expect(layout.candles.length).toBeLessThanOrEqual((L.right - L.left) / 2);
    expect(layout.notes.some((n) => /^\d+ intervals per candle$/.test(n))).toBe(true);
  });

  it("labels intraday times as HH:MM", () => {
    const layout = layoutChart({ title: "T", candles: walk({ count: 120, interval: 60, start: T0 + 3600 }), intervalMinutes: 1 });
    expect(layout.timeTicks.length).toBeGreaterThanOrEqual(3);
    for (const t of layout.timeTicks) expect(t.label).toMatch(/^\d\d:\d\d$/);
  });

  it("labels daily candles with dates", () => {
    const layout = layoutChart({ title: "T", candles: walk({ count: 90, interval: 86400 }), intervalMinutes: 1440 });
    expect(layout.timeTicks.length).toBeGreaterThanOrEqual(3);
    for (const t of layout.timeTicks) expect(t.label).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
  });

  it("labels weekly candles over years with months", () => {
    const layout = layoutChart({ title: "T", candles: walk({ count: 200, interval: 7 * 86400 }), intervalMinutes: 10080 });
    expect(layout.timeTicks.length).toBeGreaterThanOrEqual(3);
    for (const t of layout.timeTicks) expect(t.label).toMatch(/^([A-Z][a-z]{2} )?\d{4}$/);
  });

  it("writes every price-axis label with the same number of decimals", () => {
    for (const price of [0.0027, 0.0000047, 1, 3000]) {
      const labels = layoutChart({ title: "T", candles: walk({ count: 60, interval: 300, price }), intervalMinutes: 5 }).priceTicks.map((t) => t.label);
      expect(labels.length, `${price}`).toBeGreaterThanOrEqual(3);
      expect(new Set(labels.map(decimalsOf)).size, labels.join(" ")).toBe(1);
    }
  });

  it("asks the caller's formatter for as many decimals as the tick step needs, no more", () => {
    const asked = new Set<number | undefined>();
    const layout = layoutChart({
      title: "T", candles: walk({ count: 60, interval: 300, price: 0.0027 }), intervalMinutes: 5,
      formatPrice: (p, decimals) => (asked.add(decimals), p.toFixed(decimals ?? 12)),
    });
    const [decimals, ...others] = [...asked].filter((d) => d !== undefined);
    expect(others).toEqual([]);
    const prices = layout.priceTicks.map((t) => Number(t.label));
    const step = Math.min(...prices.slice(1).map((p, i) => p - (prices[i] ?? 0)));
    // One step is 1, 2 or 5 in the last decimal written.
    expect([1, 2, 5]).toContain(Math.round(step * 10 ** (decimals ?? 0)));
  });

  it("keeps price-axis labels clear of the last-price label", () => {
    let near = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const layout = layoutChart({ title: "T", candles: walk({ count: 200, interval: 900, price: 0.00007, seed }), intervalMinutes: 15 });
      const gaps = layout.priceTicks.map((t) => Math.abs(t.y - (layout.last?.y ?? 0)));
      expect(Math.min(...gaps), `seed ${seed}`).toBeGreaterThanOrEqual(LAST_LABEL_CLEARANCE);
      if (Math.min(...gaps) < 24) near++;
    }
    // Some ticks sit just outside the clearance, so these walks do reach the bound.
    expect(near).toBeGreaterThan(0);
  });

  it("puts the last-price line at the last close", () => {
    const candles = [candle(T0, 10, 20), candle(T0 + 60, 20, 15)];
    const layout = layoutChart({ title: "T", candles, intervalMinutes: 1 });
    const last = layout.candles[1];
    expect(layout.last?.up).toBe(false);
    expect(layout.last?.label).toBe("$15");
    expect(Math.abs((layout.last?.y ?? 0) - ((last?.bodyTop ?? 0) + (last?.bodyHeight ?? 0)))).toBeLessThanOrEqual(1);
  });
});

describe("the note's box", () => {
  it("holds a Chinese note as wide as it is drawn, not as wide as as many Latin letters", () => {
    const note = "只有四小时的历史，所以画的是更短的周期";
    const svg = renderChartSvg({ title: "T", candles: walk({ count: 30, interval: 60 }), intervalMinutes: 1, note });
    const width = Number(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="28"/.exec(svg)?.[1]);
    const wide = Array.from(note).filter((c) => /[\u3000-\u9fff\uff00-\uffef]/u.test(c)).length;
    // A Chinese character is drawn about 1 em wide: the box must hold at least that.
    expect(width).toBeGreaterThan(wide * L.fontSize.note);
  });
});
