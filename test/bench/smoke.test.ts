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
    // The same commands with the state in a real redis-server: every one answered, from the
    // cache read out of Redis (no upstream call in either run), the budgets and blocked chats
    // asked there too (more commands than cache reads).
    expect(rows(r, "state in Redis: answers")[0]).toMatchObject({ value: 8, baseline: 8 });
    expect(rows(r, "state in Redis: upstream calls while answering")[0]).toMatchObject({ value: 0, baseline: 0 });
    expect(rows(r, "state in Redis: cache reads from Redis per answer")[0]?.value).toBeGreaterThanOrEqual(1);
    const commands = rows(r, "state in Redis: Redis commands sent per answer")[0]!.value;
    expect(commands).toBeGreaterThan(rows(r, "state in Redis: cache reads from Redis per answer")[0]!.value);
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
    const uncached = rows(r, "uncached bot: compute units per 1,000 commands")[0]!.value;
    expect(uncached).toBeGreaterThan(0);
    // Every measured command is counted once: answered with data, with the busy sentence, or not by the stop (smoke size: 2/s for 2 s).
    const busy = rows(r, ": answers busy (a sentence with the wait)")[0]!;
    const unanswered = rows(r, ": commands unanswered at the stop")[0]!;
    expect(data.value + busy.value + 100 * (unanswered.value / 4)).toBeGreaterThanOrEqual(100 - 1e-9);
    // Both bots ran the background on their key (smoke size: alerts on 20 tokens, a slot over 2 chains).
    expect(rows(r, ": background alert check, tokens priced")[0]).toMatchObject({ value: 20, baseline: 20 });
    expect(rows(r, ": background digest slot, chains asked")[0]).toMatchObject({ value: 2, baseline: 2 });
    // The plan's pace keeps the bot within its quota: never refused, and far below the uncached bot's units.
    // At most two: the sandbox counts whole seconds by when it reads a request, and the bot, the
    // sandbox and the test share one event loop, so on a machine loaded enough to hold a
    // request's reading late, two calls spaced 1.05 s apart can be read in one second (a CI run
    // beside two other loads saw this twice). A pace that did not keep the plan would be
    // refused over and over in the window. The benchmark's own run keeps the target at 0
    // (BENCHMARKS.md).
    expect(rows(r, ": upstream 429s")[0]?.value).toBeLessThanOrEqual(2);
    expect(rows(r, ": compute units per 1,000 commands (people and refresh lanes)")[0]!.value).toBeLessThan(uncached);
    // The alert check's units are a row of their own (smoke size: 20 tokens, one batch call of 100 units, in a window of 4 commands).
    expect(rows(r, ": background alert checks, compute units per 1,000 commands")[0]).toMatchObject({ value: 25_000, baseline: 25_000 });
    // The bot was warmed through the service before the window (smoke size: 200 commands, 100 simulated seconds of the free plan),
    // never faster than the plan allows over that simulated time.
    const warm = rows(r, ": warm-up, upstream calls over its simulated 2 min")[0];
    expect(warm!.value).toBeGreaterThan(0);
    expect(warm!.target?.met).toBe(true);
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
    // The Redis row (smoke size: 400 entries) holds every entry in the real redis-server, which grew by them.
    expect(rows(r, "cache in Redis: entries in Redis")[0]?.value).toBe(400);
    expect(rows(r, "cache in Redis: redis-server memory growth")[0]?.value).toBeGreaterThan(0);
    const inRedis = r.figures.find((f) => /^cache in Redis: RSS with [\d,]+ entries$/.test(f.metric))!;
    expect(inRedis.baseline).toBe(full);
    expect(rows(r, "cache in Redis: RSS growth")[0]?.value).toBeCloseTo(inRedis.value - rows(r, "cache in Redis: RSS before filling")[0]!.value, 9);
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
  calls: (r) => {
    // Smoke size: every K-line call is one per token the period reads, none for a token not called in 7 days.
    for (const f of rows(r, ": K-line calls in one sweep")) expect(f.target?.met, f.metric).toBe(true);
    for (const f of rows(r, "not called in 7 days")) expect(f.value, f.metric).toBe(0);
    for (const f of rows(r, ": tokens called in 7 days")) expect(f.value, f.metric).toBe(36);
  },
  workers: (r) => {
    // Every warm setup (in process; 1, 2, 3 workers on Redis and PostgreSQL; one chat at a time) answered every command it sent.
    const warm = (f: Figure) => !f.metric.includes("cold cache");
    const sent = rows(r, ": commands sent").filter(warm);
    const answered = rows(r, ": commands answered").filter(warm);
    expect(answered).toHaveLength(5);
    answered.forEach((f, i) => {
      expect(f.value, f.metric).toBeGreaterThan(0);
      expect(f.value, f.metric).toBe(sent[i]?.value);
    });
    for (const f of rows(r, ": throughput").filter((f) => f.unit === "cmd/s")) expect(f.value, f.metric).toBeGreaterThan(0);
    // The shared state lives in Redis: each answer there costs Redis commands (claim of the update, budgets, cache reads).
    expect(rows(r, "Redis + PostgreSQL: Redis commands per answer")[0]!.value).toBeGreaterThanOrEqual(3);
    // Three workers on a cold cache at 5 rps answer (a card's first picture in a new process may take longer than
    // the drive waits on a loaded machine), with prices, the trending list fetched once for all of them.
    expect(rows(r, "cold cache at 5 rps: commands answered")[0]!.value).toBeGreaterThan(0);
    expect(rows(r, "cold cache at 5 rps: answers with prices")[0]!.value).toBeGreaterThanOrEqual(90);
    expect(rows(r, "cold cache at 5 rps: trending list calls")[0]!.value).toBeGreaterThanOrEqual(1);
    expect(rows(r, "cold cache at 5 rps: trending list calls")[0]!.value).toBeLessThanOrEqual(2);
  },
};

/**
 * Bound on one benchmark's smoke run. The workers benchmark starts four bot processes,
 * PostgreSQL and Redis, and waits up to 90 s for them to be ready and 60 s for its warm-up:
 * with two suites beside a busy core it ran past 60 s. Only a broken run should reach it.
 */
const SMOKE_RUN_MS = 240_000;

describe("benchmarks at smoke size", () => {
  for (const bench of BENCHMARKS.filter((b) => b.smokeTest === undefined)) {
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
    }, SMOKE_RUN_MS);
  }
});
