/**
 * The time bounds of `npm run bench`, which must nest: each benchmark's own bounds under the
 * limit of the child it runs in, and all of them under the whole run's.
 */
import type { Benchmark } from "./types.js";

/** Longest one benchmark's child process may run before it is stopped, whatever its own bounds say. */
export const CHILD_LIMIT_MS = 8 * 60_000;

/**
 * Longest the whole run may take: every benchmark at full size, one after the other. Twenty
 * minutes since the buy feed's benchmark came: it runs three plans of a simulated window, each
 * beside its naive baseline, and no other benchmark's bound was loose enough to give it room.
 * Twenty-five since a group's posts fill the two minutes of its pace the fold allows: about
 * three times the posts wait to be sent, and sending them is most of that benchmark's time.
 */
export const RUN_LIMIT_MS = 25 * 60_000;

/** What does not nest, one sentence each; empty when every bound fits. */
export function budgetProblems(benchmarks: readonly Benchmark[]): string[] {
  const problems = benchmarks
    .filter((b) => b.limitSeconds * 1000 >= CHILD_LIMIT_MS)
    .map((b) => `${b.name} may run ${b.limitSeconds} s, not under the ${CHILD_LIMIT_MS / 1000} s child limit.`);
  const total = benchmarks.reduce((s, b) => s + b.limitSeconds, 0);
  if (total * 1000 >= RUN_LIMIT_MS) problems.push(`All benchmarks together may run ${total} s, not under the ${RUN_LIMIT_MS / 1000} s run limit.`);
  return problems;
}
