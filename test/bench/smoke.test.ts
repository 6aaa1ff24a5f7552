import { describe, expect, it } from "vitest";
import { BENCHMARKS } from "../../bench/index.js";
import { markdownTable } from "../../bench/report.js";
import type { BenchResult, Figure } from "../../bench/types.js";

/** The figures whose metric ends with `suffix` (a benchmark may report one per case); at least one. */
function rows(r: BenchResult, suffix: string): Figure[] {
  const found = r.figures.filter((f) => f.metric.endsWith(suffix));
  expect(found.length, `${r.name}: ${suffix}`).toBeGreaterThan(0);
  return found;
}

/** What each benchmark must show at smoke size whatever the machine's speed. */
const HOLDS: Record<string, (r: BenchResult) => void> = {
  latency: (r) => {
    // Smoke size: 4 chats × 2 commands each.
    const [answers] = rows(r, "answers");
    expect(answers?.value).toBe(8);
    expect(answers?.baseline).toBe(8);
  },
  upstream: (r) => {
    const [calls] = rows(r, "upstream calls");
    expect(calls!.value).toBeLessThan(calls!.baseline!);
    expect(rows(r, "100 identical concurrent /price: price calls")[0]?.value).toBe(1);
    // The headline ratio leaves the static chain list out of both runs.
    const [commands] = rows(r, "commands run");
    const chains = rows(r, "upstream calls: supportedChains")[0]!;
    const perCommand = (all: number, static_: number, n: number): number => (all - static_) / n;
    const expected = perCommand(calls!.value, chains.value, commands!.value) / perCommand(calls!.baseline!, chains.baseline!, commands!.baseline!);
    expect(rows(r, "calls per command vs baseline, without supportedChains")[0]?.value).toBeCloseTo(expected, 9);
  },
  quota: (r) => {
    // Answers carrying data are the fresh and the labelled stale ones, in both columns.
    const [fresh, stale, data] = [rows(r, ": answers fresh")[0]!, rows(r, ": answers stale (labelled)")[0]!, rows(r, ": answers carrying data")[0]!];
    expect(data.value).toBeCloseTo(fresh.value + stale.value, 9);
    expect(data.baseline!).toBeCloseTo(fresh.baseline! + stale.baseline!, 9);
    expect(rows(r, "uncached bot: compute units per 1,000 commands")[0]?.value).toBeGreaterThan(0);
  },
  fanout: (r) => {
    for (const f of rows(r, ": trending calls")) expect(f.target?.met, f.metric).toBe(true);
    for (const f of rows(r, ": lost + doubled messages")) expect(f.value, f.metric).toBe(0);
    for (const f of rows(r, ": limit violations")) expect(f.value, f.metric).toBe(0);
    expect(rows(r, "slots: most sends to one group in a minute").length).toBeGreaterThan(0);
  },
  memory: (r) => {
    expect(rows(r, "entries kept by the default 32 MiB bound")[0]?.value).toBeGreaterThan(0);
    const before = rows(r, "RSS before filling")[0]!.value;
    const full = r.figures.find((f) => /^RSS with [\d,]+ entries$/.test(f.metric))!.value;
    expect(rows(r, "RSS growth")[0]?.value).toBeCloseTo(full - before, 9);
  },
  alerts: (r) => {
    // Smoke size: 40 tokens in one batch call, 10 alerts set to fire.
    expect(rows(r, "upstream calls per check")[0]?.value).toBe(1);
    expect(rows(r, "alerts fired in the check")[0]?.value).toBe(10);
    expect(rows(r, "lost + doubled messages")[0]?.value).toBe(0);
    expect(rows(r, "sends over Telegram's limits")[0]?.value).toBe(0);
  },
  sandbox: (r) => {
    for (const f of rows(r, ": throughput")) expect(f.target?.text, f.metric).toBe("≥ 2,000 req/s");
  },
};

describe("benchmarks at smoke size", () => {
  for (const bench of BENCHMARKS) {
    it(`runs ${bench.name} to a table of finite figures that hold what any machine must show`, async () => {
      const result = await bench.run("smoke");
      expect(result.name).toBe(bench.name);
      expect(result.figures.length).toBeGreaterThan(0);
      for (const f of result.figures) {
        expect(Number.isFinite(f.value), `${bench.name}: ${f.metric}`).toBe(true);
        if (f.baseline !== undefined) expect(Number.isFinite(f.baseline), `${bench.name}: ${f.metric} baseline`).toBe(true);
      }
      HOLDS[bench.name]?.(result);
      expect(markdownTable(result.figures).split("\n")).toHaveLength(result.figures.length + 2);
    }, 60_000);
  }
});
