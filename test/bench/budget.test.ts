import { describe, expect, it } from "vitest";
import { budgetProblems, CHILD_LIMIT_MS, RUN_LIMIT_MS } from "../../bench/budget.js";
import { BENCHMARKS } from "../../bench/index.js";
import type { Benchmark } from "../../bench/types.js";

describe("benchmark time bounds", () => {
  it("fit every benchmark under the child limit and all of them under twenty-five minutes", () => {
    expect(RUN_LIMIT_MS).toBeLessThanOrEqual(25 * 60_000);
    for (const b of BENCHMARKS) expect(b.limitSeconds * 1000, b.name).toBeLessThan(CHILD_LIMIT_MS);
    expect(BENCHMARKS.reduce((s, b) => s + b.limitSeconds, 0) * 1000).toBeLessThan(RUN_LIMIT_MS);
    expect(budgetProblems(BENCHMARKS)).toEqual([]);
  });

  it("names a benchmark whose own bounds outlast its child", () => {
    const slow: Benchmark = { name: "slow", title: "Slow", targets: "", limitSeconds: CHILD_LIMIT_MS / 1000, run: async () => Promise.reject(new Error("not run")) };
    expect(budgetProblems([slow]).join(" ")).toContain("slow may run");
  });
});
