import { describe, expect, it } from "vitest";
import { distancePercent, judge, wrongSide } from "../../src/alerts/rules.js";

const MIN = 60_000;
const above = { rule: "above" as const, level: "10", anchorPrice: "8" };
const below = { rule: "below" as const, level: "10", anchorPrice: "12" };
const move = { rule: "move" as const, level: "10", anchorPrice: "100" };

describe("judging a crossing between the last price and this one", () => {
  it("fires an above alert when the price reaches the level, and not while it stays under", () => {
    expect(judge(above, 9, 9.99, 0, 0)).toEqual({ fire: false });
    expect(judge(above, 9.99, 10, 0, 0)).toEqual({ fire: true, from: 9.99 });
  });

  it("fires when the price jumps over the level between two checks", () => {
    expect(judge(above, 8, 50, 0, 0)).toEqual({ fire: true, from: 8 });
    expect(judge(below, 12, 1, 0, 0)).toEqual({ fire: true, from: 12 });
  });

  it("does not fire while the price was already past the level", () => {
    expect(judge(above, 11, 12, 0, 0)).toEqual({ fire: false });
    expect(judge(below, 9, 8, 0, 0)).toEqual({ fire: false });
  });

  it("fires a below alert on the way down only", () => {
    expect(judge(below, 10.5, 10, 0, 0)).toEqual({ fire: true, from: 10.5 });
    expect(judge(below, 9, 11, 0, 0)).toEqual({ fire: false });
  });

  it("fires a move either way from its anchor, not short of it", () => {
    expect(judge(move, 100, 109.9, 0, 0)).toEqual({ fire: false });
    expect(judge(move, 100, 110, 0, 0)).toEqual({ fire: true, from: 100 });
    expect(judge(move, 100, 90, 0, 0)).toEqual({ fire: true, from: 100 });
  });

  it("holds a move back within the cooldown after its last firing", () => {
    const fired = { ...move, lastFiredAt: 0 };
    expect(judge(fired, 100, 150, 14 * MIN, 15 * MIN)).toEqual({ fire: false });
    expect(judge(fired, 100, 150, 15 * MIN, 15 * MIN)).toEqual({ fire: true, from: 100 });
  });
});

describe("distance to firing and the side of a level", () => {
  it("says how far the price has to go, in percent of the current price", () => {
    expect(distancePercent(above, 8)).toBeCloseTo(25);
    expect(distancePercent(below, 12.5)).toBeCloseTo(20);
    expect(distancePercent(move, 104)).toBeCloseTo(6);
    expect(distancePercent(above, 11)).toBe(0);
  });

  it("refuses an above level at or under the price and a below level at or over it", () => {
    expect(wrongSide("above", 10, 10)).toBe("above");
    expect(wrongSide("above", 11, 10)).toBeUndefined();
    expect(wrongSide("below", 10, 9)).toBe("below");
    expect(wrongSide("below", 9, 10)).toBeUndefined();
  });
});
