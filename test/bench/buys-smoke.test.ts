import { describe, expect, it } from "vitest";
import { buys, DRAIN_SECONDS, EVERY_OWED } from "../../bench/buys.js";
import { markdownTable } from "../../bench/report.js";
import type { BenchResult, Figure } from "../../bench/types.js";

function row(r: BenchResult, suffix: string): Figure {
  const found = r.figures.find((f) => f.metric.endsWith(suffix));
  expect(found, suffix).toBeDefined();
  return found as Figure;
}

describe("the buy feed benchmark at smoke size", () => {
  // 8 chats following 3 tokens for half a simulated minute on the free plan, beside the commands:
  // its own file, as its simulated clock waits on loopback calls at every step.
  it("posts or folds every owed swap once, with fewer swap calls than the naive feed", async () => {
    const r = await buys.run("smoke");
    expect(r.name).toBe("buys");
    // Over every owed swap, a feed that lost more than the percentile's share has a delay of never.
    const number = (f: Figure, x: number) => (f.metric.includes(EVERY_OWED) ? !Number.isNaN(x) && x >= 0 : Number.isFinite(x));
    for (const f of r.figures) {
      expect(number(f, f.value), f.metric).toBe(true);
      if (f.baseline !== undefined) expect(number(f, f.baseline), `${f.metric} baseline`).toBe(true);
    }
    const owed = row(r, ": swaps at or over the minimum, owed to chats").value;
    expect(owed).toBeGreaterThan(0);
    expect(row(r, ": posted + folded").value).toBe(owed);
    expect(row(r, ": lost").value).toBe(0);
    expect(row(r, ": doubled").value).toBe(0);
    expect(row(r, ": the same transaction again under other amounts").value).toBe(0);
    // Settled before the bound: every pair polled through the window and nothing owed waiting.
    expect(row(r, ": drain after the window until nothing owed waits").value).toBeLessThan(DRAIN_SECONDS);
    expect(row(r, ": upstream 429s").value).toBe(0);
    // Nothing lost: over every owed swap the feed's delay is the one over those it made ready.
    expect(row(r, `: ${EVERY_OWED}, p95`).value).toBe(row(r, ": delay trade → ready to post, p95").value);
    const calls = row(r, ": swap calls per hour");
    expect(calls.value).toBeGreaterThan(0);
    expect(calls.value).toBeLessThan(calls.baseline as number);
    expect(row(r, ": commands beside it").value).toBeGreaterThan(0);
    expect(markdownTable(r.figures).split("\n")).toHaveLength(r.figures.length + 2);
  }, 180_000);
});
