/** Every benchmark, in the order of issue 10 and of BENCHMARKS.md. */
import { charts } from "./charts.js";
import { latency } from "./latency.js";
import { fanout } from "./fanout.js";
import { upstream } from "./upstream.js";
import { memory } from "./memory.js";
import { sandboxThroughput } from "./sandbox-throughput.js";
import { alerts } from "./alerts.js";
import { answersUnderQuota } from "./answers-under-quota.js";
import { workers } from "./workers.js";
import { calls } from "./calls.js";
import { buys } from "./buys.js";
import type { Benchmark } from "./types.js";

export const BENCHMARKS: readonly Benchmark[] = [latency, upstream, fanout, charts, memory, sandboxThroughput, alerts, answersUnderQuota, workers, calls, buys];
