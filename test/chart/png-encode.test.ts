import { describe, expect, it } from "vitest";
import { encodePng } from "../../src/chart/png-encode.js";
import { decodePng } from "./png.js";

describe("encodePng", () => {
  it("writes RGBA pixels that decode back to the same pixels", () => {
    const pixels = Uint8Array.from({ length: 3 * 2 * 4 }, (_, i) => (i * 37) % 256);
    const png = decodePng(encodePng(pixels, 3, 2));
    expect([png.width, png.height]).toEqual([3, 2]);
    expect(Array.from(png.pixels)).toEqual(Array.from(pixels));
  });

  it("refuses a pixel buffer of the wrong size", () => {
    expect(() => encodePng(new Uint8Array(10), 3, 2)).toThrow("expected 24 bytes of RGBA, got 10");
  });
});
