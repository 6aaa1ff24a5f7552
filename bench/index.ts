/** Every benchmark, in the order of issue 10 and of BENCHMARKS.md. */
import { charts } from "./charts.js";
import { memory } from "./memory.js";
import { sandboxThroughput } from "./sandbox-throughput.js";
import type { Benchmark } from "./types.js";

export const BENCHMARKS: readonly Benchmark[] = [charts, memory, sandboxThroughput];
