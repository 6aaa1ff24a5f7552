/**
 * How the tests run `bin/chainpulse.js`: as a user would, under this Node, with V8's optimizing
 * compiler off. A test's bot lives for seconds; TurboFan spent about a fifth of each one's CPU
 * compiling code the bot never ran long enough to gain from, and the suite is CPU-bound on a
 * busy machine (test/process ran in 129 CPU-s with it off against 152 with it on). The code run
 * is the same, interpreted and baseline-compiled. The benchmarks start their bots as shipped.
 */
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/chainpulse.js", import.meta.url));

/** Node's arguments for `chainpulse <args>`. */
export function binArgs(...args: string[]): string[] {
  return ["--no-opt", BIN, ...args];
}
