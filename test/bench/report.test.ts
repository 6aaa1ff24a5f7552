import { describe, expect, it } from "vitest";
import { markdownTable, rewriteMarkdown, section, type RunInfo } from "../../bench/report.js";
import type { BenchResult, Benchmark } from "../../bench/types.js";

const info: RunInfo = { date: "2026-11-22", command: "npm run bench", cores: 2, memoryGiB: 8, node: "v20.0.0" };

function bench(name: string): Benchmark {
  return { name, title: `Bench ${name}`, targets: "Targets.", limitSeconds: 1, run: async () => result(name, 1) };
}

function result(name: string, value: number): BenchResult {
  return { name, title: `Bench ${name}`, setup: `Setup of ${name}.`, figures: [{ metric: "m", unit: "", value }], notes: [], elapsedMs: 1 };
}

describe("benchmark report", () => {
  it("replaces the rerun benchmark's section of BENCHMARKS.md and keeps the others", () => {
    const order = [bench("a"), bench("b"), bench("c")];
    const first = rewriteMarkdown(undefined, order, new Map(order.map((b) => [b.name, section(b, result(b.name, 111), info)])));
    const second = rewriteMarkdown(first, order, new Map([["b", section(order[1]!, result("b", 222), info)]]));
    expect(second).toContain("Setup of a.");
    expect(second).toContain("Setup of c.");
    expect(second.match(/<!-- bench:b -->/g)).toHaveLength(1);
    expect(second.match(/\| m \| 222 \|/g)).toHaveLength(1);
    expect(second.match(/\| m \| 111 \|/g)).toHaveLength(2);
    expect(second.indexOf("<!-- bench:a -->")).toBeLessThan(second.indexOf("<!-- bench:b -->"));
    expect(second.indexOf("<!-- bench:b -->")).toBeLessThan(second.indexOf("<!-- bench:c -->"));
  });

  it("prints a ratio with three significant digits, trailing zeros kept", () => {
    expect(markdownTable([{ metric: "r", unit: "", value: 0.8996 }])).toContain("| r | 0.900 |");
    expect(markdownTable([{ metric: "r", unit: "", value: 0.97812 }])).toContain("| r | 0.978 |");
  });

  it("prints a ratio just under its target with digits enough to tell it from the target", () => {
    const table = markdownTable([{ metric: "share", unit: "", value: 0.8996, target: { text: "≥ 0.9", met: false } }]);
    expect(table).toContain("| share | 0.8996 |");
  });
});
