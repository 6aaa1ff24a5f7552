import { describe, expect, it } from "vitest";
import { distancePercent, fires, levelPassed } from "../../src/core/alerts/rules.js";

const MIN = 60_000;
const above = { rule: "above" as const, level: "10", anchorPrice: "8" };
const below = { rule: "below" as const, level: "10", anchorPrice: "12" };
const move = { rule: "move" as const, level: "10", anchorPrice: "100" };

describe("judging a crossing between the last price and this one", () => {
  it("fires an above alert when the price reaches the level, and not while it stays under", () => {
    expect(fires(above, 9, 9.99, 0, 0)).toBe(false);
    expect(fires(above, 9.99, 10, 0, 0)).toBe(true);
  });

  it("fires when the price jumps over the level between two checks", () => {
    expect(fires(above, 8, 50, 0, 0)).toBe(true);
    expect(fires(below, 12, 1, 0, 0)).toBe(true);
  });

  it("does not fire while the price was already past the level", () => {
    expect(fires(above, 11, 12, 0, 0)).toBe(false);
    expect(fires(below, 9, 8, 0, 0)).toBe(false);
  });

  it("fires a below alert on the way down only", () => {
    expect(fires(below, 10.5, 10, 0, 0)).toBe(true);
    expect(fires(below, 9, 11, 0, 0)).toBe(false);
  });

  it("fires a move either way from its anchor, not short of it", () => {
    expect(fires(move, 100, 109.9, 0, 0)).toBe(false);
    expect(fires(move, 100, 110, 0, 0)).toBe(true);
    expect(fires(move, 100, 90, 0, 0)).toBe(true);
  });

  it("never fires a move stored below 0.01% on an unchanged price, nor on garbage anchors", () => {
    const tiny = { ...move, level: "0.000000000001" };
    expect(fires(tiny, 100, 100, 0, 0)).toBe(false);
    expect(fires(tiny, 100, 100.01, 0, 0)).toBe(true);
    for (const anchorPrice of ["Infinity", "0x10", "1e-300", "0"]) expect(fires({ ...move, anchorPrice }, 100, 100, 0, 0)).toBe(false);
  });

  it("holds a move back within the cooldown after its last firing", () => {
    const fired = { ...move, lastFiredAt: 0 };
    expect(fires(fired, 100, 150, 14 * MIN, 15 * MIN)).toBe(false);
    expect(fires(fired, 100, 150, 15 * MIN, 15 * MIN)).toBe(true);
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
    expect(levelPassed("above", 10, 10)).toBe(true);
    expect(levelPassed("above", 11, 10)).toBe(false);
    expect(levelPassed("below", 10, 9)).toBe(true);
    expect(levelPassed("below", 9, 10)).toBe(false);
  });
});
