import { describe, expect, it } from "vitest";
import { formatMultiple } from "../../src/calls/names.js";

describe("a multiple of the call price", () => {
  it("has as many digits as the figure it shows, so 0.999 and 1.0 read alike", () => {
    expect([0.5234, 0.994, 0.999, 1, 2.44, 9.96, 31.2, 1240].map((x) => formatMultiple(x))).toEqual(["0.52×", "0.99×", "0.99×", "1.0×", "2.4×", "9.9×", "31×", "1,240×"]);
    // A high short of the 2× a hit needs never reads as 2×.
    expect(formatMultiple(1.996)).toBe("1.9×");
    expect(formatMultiple(Number.NaN)).toBe("—");
  });
});
