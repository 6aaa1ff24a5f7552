import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createStartGuard } from "../../src/ops/start-guard.js";

function guard() {
  let now = 1_000_000;
  const slept: number[] = [];
  const g = createStartGuard({
    file: join(mkdtempSync(join(tmpdir(), "cp-guard-")), "data", ".start-failures.json"),
    baseDelayMs: 5_000,
    maxDelayMs: 60_000,
    windowMs: 3_600_000,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  });
  return { g, slept, advance: (ms: number) => (now += ms) };
}

describe("start guard", () => {
  it("lets a first start through without waiting", async () => {
    const { g, slept } = guard();
    expect(await g.waitBeforeStart()).toBe(0);
    expect(slept).toEqual([]);
  });

  it("doubles the wait after each failed start, up to the ceiling", async () => {
    const { g } = guard();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      await g.recordFailure();
      waits.push(await g.waitBeforeStart());
    }
    expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
  });

  it("forgets failures after a successful start", async () => {
    const { g } = guard();
    await g.recordFailure();
    await g.recordFailure();
    await g.recordSuccess();
    expect(await g.delayMs()).toBe(0);
  });

  it("forgets failures older than its window", async () => {
    const { g, advance } = guard();
    await g.recordFailure();
    advance(3_600_001);
    expect(await g.delayMs()).toBe(0);
  });

  it("waits no longer than its backoff when the last failure is stamped in the future (the clock was set back)", async () => {
    const { g, advance } = guard();
    await g.recordFailure();
    advance(-30 * 60_000);
    expect(await g.delayMs()).toBe(5_000);
  });

  it("stops waiting as soon as the stop signal comes, with its own timer", async () => {
    const g = createStartGuard({
      file: join(mkdtempSync(join(tmpdir(), "cp-guard-")), "data", ".start-failures.json"),
      baseDelayMs: 300_000,
      now: () => 1_000_000,
    });
    await g.recordFailure();
    const stop = new AbortController();
    const waiting = g.waitBeforeStart(stop.signal);
    stop.abort();
    expect(await waiting).toBe(300_000);
    expect(await g.waitBeforeStart(stop.signal)).toBe(300_000);
  });
});
