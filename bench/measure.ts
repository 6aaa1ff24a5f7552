/** Small measuring helpers shared by the benchmarks: percentiles, memory, deadlines. */

const MB = 1024 * 1024;

/** The `q` quantile (0–1) of `values` by nearest rank; NaN for an empty list. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Full garbage collection when node runs with `--expose-gc` (as `npm run bench` does); a no-op otherwise. */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return;
  // Two passes: the first may only queue finalisers whose memory the second frees.
  gc();
  gc();
}

/** Whether heap figures come after a forced collection (else they include garbage). */
export function canCollect(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === "function";
}

/** Resident set size now, MB, after a collection when possible. */
export function rssMb(): number {
  collect();
  return process.memoryUsage().rss / MB;
}

/** Heap in use now, MB, after a collection when possible. */
export function heapMb(): number {
  collect();
  return process.memoryUsage().heapUsed / MB;
}

/** A wall-clock limit for a loop: every benchmark loop checks one besides its count. */
export class Deadline {
  private readonly end: number;

  constructor(ms: number) {
    this.end = performance.now() + ms;
  }

  passed(): boolean {
    return performance.now() >= this.end;
  }
}

/** Resolves after `ms` of real time (only where the thing measured runs in real time). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `task` for indices 0..count-1 with at most `concurrency` in flight; stops starting new ones once `deadline` passed. Returns how many ran. */
export async function pool(count: number, concurrency: number, deadline: Deadline, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !deadline.passed()) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return next;
}

/** `a / b`, or NaN when `b` is 0. */
export function ratio(a: number, b: number): number {
  return b === 0 ? Number.NaN : a / b;
}
