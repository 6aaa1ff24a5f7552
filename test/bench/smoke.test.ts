import { describe, expect, it } from "vitest";
import { BENCHMARKS } from "../../bench/index.js";
import { markdownTable } from "../../bench/report.js";

describe("benchmarks at smoke size", () => {
  for (const bench of BENCHMARKS) {
    it(`runs ${bench.name} to a table of finite figures`, async () => {
      const result = await bench.run("smoke");
      expect(result.name).toBe(bench.name);
      expect(result.figures.length).toBeGreaterThan(0);
      for (const f of result.figures) {
        expect(Number.isFinite(f.value), `${bench.name}: ${f.metric}`).toBe(true);
        if (f.baseline !== undefined) expect(Number.isFinite(f.baseline), `${bench.name}: ${f.metric} baseline`).toBe(true);
      }
      expect(markdownTable(result.figures).split("\n")).toHaveLength(result.figures.length + 2);
    }, 60_000);
  }
});
