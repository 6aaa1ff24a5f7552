import { beforeEach, describe, expect, it } from "vitest";
import type { OpsSample } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();

const row = (worker: string, at: number, counters = "[]"): OpsSample => ({ worker, at, since: at - 60_000, counters, gauges: '[["g",1]]' });

describe.each(ENGINES)("the operator's page samples on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });

  it("gives every worker's samples from a moment on, oldest first, to another connection", async () => {
    const a = await db.open();
    const b = await db.open();
    await a.opsSamples.addSample(row("w1", 120_000, '[["chainpulse_answers_total\\u0000freshness=fresh",3]]'));
    await b.opsSamples.addSample(row("w2", 60_000));
    await b.opsSamples.addSample(row("w2", 180_000));
    expect(await b.opsSamples.samplesSince(60_000)).toEqual([row("w2", 60_000), row("w1", 120_000, '[["chainpulse_answers_total\\u0000freshness=fresh",3]]'), row("w2", 180_000)]);
    expect((await a.opsSamples.samplesSince(120_001)).map((s) => [s.worker, s.at])).toEqual([["w2", 180_000]]);
  });

  it("replaces a worker's sample at the same moment and prunes only older ones", async () => {
    const store = await db.open();
    await store.opsSamples.addSample(row("w1", 60_000));
    await store.opsSamples.addSample({ ...row("w1", 60_000), counters: '[["x",2]]' });
    await store.opsSamples.addSample(row("w1", 120_000));
    expect((await store.opsSamples.samplesSince(0)).map((s) => s.counters)).toEqual(['[["x",2]]', "[]"]);
    expect(await store.opsSamples.pruneSamples(120_000)).toBe(1);
    expect((await store.opsSamples.samplesSince(0)).map((s) => s.at)).toEqual([120_000]);
  });
});
