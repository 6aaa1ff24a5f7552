/**
 * `npm run bench [-- <name> …]`: runs every benchmark (or the named ones) in turn, each in a
 * fresh child process so one's memory does not show in the next one's RSS, prints a table
 * for each and rewrites their sections of BENCHMARKS.md.
 */
import { fork } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { budgetProblems, CHILD_LIMIT_MS } from "./budget.js";
import { BENCHMARKS } from "./index.js";
import { canCollect } from "./measure.js";
import { consoleTable, rewriteMarkdown, runInfo, section } from "./report.js";
import type { BenchResult, Benchmark } from "./types.js";

const OUTPUT = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));
const CHILD_FLAG = "--child";

/** Runs `bench` in a child node with this process's flags; resolves with its result. */
function inChild(bench: Benchmark): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, bench.name], { execArgv: process.execArgv, stdio: "inherit" });
    let result: BenchResult | undefined;
    const timer = setTimeout(() => child.kill(), CHILD_LIMIT_MS);
    child.on("message", (m) => (result = m as BenchResult));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`${bench.name} ended without a result (${signal ?? `exit code ${code}`})`));
    });
  });
}

async function child(name: string): Promise<number> {
  const bench = BENCHMARKS.find((b) => b.name === name);
  if (!bench || !process.send) return 2;
  const result = await bench.run("full");
  await new Promise<void>((resolve, reject) => process.send?.(result, (e: Error | null) => (e ? reject(e) : resolve())));
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const known = BENCHMARKS.map((b) => b.name);
  const unknown = argv.filter((a) => !known.includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark ${unknown.join(", ")}; choose from ${known.join(", ")}\n`);
    return 2;
  }
  const problems = budgetProblems(BENCHMARKS);
  if (problems.length > 0) {
    process.stderr.write(`${problems.join("\n")}\n`);
    return 2;
  }
  if (!canCollect()) process.stderr.write("note: run with --expose-gc (npm run bench does) for exact heap figures\n");
  const chosen = argv.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => argv.includes(b.name));
  const info = runInfo(["npm run bench", ...(argv.length > 0 ? ["--", ...argv] : [])].join(" "));
  const sections = new Map<string, string>();
  let failed = 0;
  for (const bench of chosen) {
    process.stdout.write(`running ${bench.title} …\n`);
    try {
      const result = await inChild(bench);
      process.stdout.write(`${consoleTable(result)}\n\n`);
      sections.set(bench.name, section(bench, result, info));
    } catch (e) {
      failed++;
      process.stderr.write(`${bench.title} failed: ${e instanceof Error ? e.message : String(e)}\n\n`);
    }
  }
  const previous = existsSync(OUTPUT) ? readFileSync(OUTPUT, "utf8") : undefined;
  writeFileSync(OUTPUT, rewriteMarkdown(previous, BENCHMARKS, sections));
  process.stdout.write(`wrote ${sections.size} section(s) of BENCHMARKS.md\n`);
  return failed > 0 ? 1 : 0;
}

const args = process.argv.slice(2);
process.exitCode = args[0] === CHILD_FLAG ? await child(args[1] ?? "") : await main(args);
