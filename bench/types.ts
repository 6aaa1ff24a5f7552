/**
 * What a benchmark hands back: figures for chainpulse beside its baseline, each with the
 * target it is judged by, so the runner can print one table and rewrite BENCHMARKS.md.
 */

/** `full` is what `npm run bench` runs; `smoke` is the tiny run of test/bench/smoke.test.ts. */
export type Size = "full" | "smoke";

/** A target and whether this run met it. */
export interface Verdict {
  /** e.g. "≤ 1.25× baseline", "0", "≤ 150 MB". */
  text: string;
  met: boolean;
}

/** One measured quantity. */
export interface Figure {
  metric: string;
  /** "ms", "MB", "req/s", "calls", ... or "" for a plain count or ratio. */
  unit: string;
  /** chainpulse's value. */
  value: number;
  /** The baseline's value in the same run, when the benchmark has one for this metric. */
  baseline?: number;
  /** Absent for figures reported for context only. */
  target?: Verdict;
}

export interface BenchResult {
  name: string;
  title: string;
  /** What was run, in one or two sentences: workload, baseline, and any scaling down. */
  setup: string;
  figures: Figure[];
  /** What the numbers say, written from them: above all what holds a missed target back. */
  notes: string[];
  /** Wall time of the whole benchmark, ms. */
  elapsedMs: number;
}

export interface Benchmark {
  /** Used on the command line: `npm run bench -- charts`. */
  name: string;
  title: string;
  /** What each target means, for BENCHMARKS.md. */
  targets: string;
  /**
   * Longest the full run may take, setup included: the sum of its own bounds. bench/run.ts
   * checks that it fits under the per-child limit and that all of them fit in the whole run's.
   */
  limitSeconds: number;
  /** The test file that runs its smoke size, when not test/bench/smoke.test.ts (a run too slow to share that file's time). */
  smokeTest?: string;
  run(size: Size): Promise<BenchResult>;
}
