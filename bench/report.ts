/**
 * The results as a console table and as BENCHMARKS.md. Each benchmark owns one section
 * between markers, so `npm run bench -- charts` replaces the charts section and keeps the rest.
 */
import { availableParallelism, totalmem } from "node:os";
import { CHILD_LIMIT_MS, RUN_LIMIT_MS } from "./budget.js";
import type { BenchResult, Benchmark, Figure } from "./types.js";

/** Where and how the figures were produced. */
export interface RunInfo {
  /** ISO date, e.g. 2026-11-22. */
  date: string;
  /** The command line, e.g. "npm run bench -- charts". */
  command: string;
  cores: number;
  memoryGiB: number;
  node: string;
}

/** This machine and process. */
export function runInfo(command: string): RunInfo {
  return {
    date: new Date().toISOString().slice(0, 10),
    command,
    cores: availableParallelism(),
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
  };
}

/**
 * A number as a person reads it: thousands separated, whole from 100 up, else `significant`
 * significant digits (trailing zeros kept, so 0.8996 reads 0.900, not 0.9).
 */
export function formatNumber(n: number, significant = 3): string {
  if (!Number.isFinite(n)) return "—";
  if (Math.abs(n) >= 100 || Number.isInteger(n)) return n.toLocaleString("en-US", { maximumFractionDigits: 0 });
  return n.toLocaleString("en-US", { minimumSignificantDigits: significant, maximumSignificantDigits: significant });
}

/** The number a target is judged against, e.g. 0.9 in "≥ 0.9"; undefined when it has none. */
function threshold(target: string): number | undefined {
  const m = /\d[\d,]*(?:\.\d+)?/.exec(target);
  return m ? Number(m[0].replace(/,/g, "")) : undefined;
}

/** `f.value` with enough digits that a value just beside its target's threshold does not read as the threshold. */
function formatValue(f: Figure): string {
  const edge = f.target === undefined ? undefined : threshold(f.target.text);
  let text = formatNumber(f.value);
  for (let digits = 4; edge !== undefined && f.value !== edge && Number(text.replace(/,/g, "")) === edge && digits <= 6; digits++) {
    text = formatNumber(f.value, digits);
  }
  return text;
}

function withUnit(text: string | undefined, unit: string): string {
  if (text === undefined) return "";
  return unit === "" || text === "—" ? text : `${text} ${unit}`;
}

function met(f: Figure): string {
  if (f.target === undefined) return "";
  return f.target.met ? "yes" : "**no**";
}

function cells(f: Figure): string[] {
  const baseline = f.baseline === undefined ? undefined : formatNumber(f.baseline);
  return [f.metric, withUnit(formatValue(f), f.unit), withUnit(baseline, f.unit), f.target?.text ?? "", met(f)];
}

const HEAD = ["metric", "chainpulse", "baseline", "target", "met"];

/** The figures as a Markdown table. */
export function markdownTable(figures: readonly Figure[]): string {
  const escape = (s: string): string => s.replace(/\|/g, "\\|");
  const lines = [`| ${HEAD.join(" | ")} |`, `|${HEAD.map((_, i) => (i === 1 || i === 2 ? " ---: " : " --- ")).join("|")}|`];
  for (const f of figures) lines.push(`| ${cells(f).map(escape).join(" | ")} |`);
  return lines.join("\n");
}

/** One result as a plain-text table for the terminal. */
export function consoleTable(r: BenchResult): string {
  const rows = [HEAD, ...r.figures.map((f) => cells(f).map((c) => c.replace(/\*\*/g, "")))];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  const line = (row: string[]): string =>
    row.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  const out = [`${r.title} (${formatNumber(r.elapsedMs / 1000)} s)`, line(rows[0] as string[]), ...rows.slice(1).map(line)];
  for (const n of r.notes) out.push(`  - ${n}`);
  return out.join("\n");
}

function machine(info: RunInfo): string {
  return `${info.cores} cores (nproc), ${info.memoryGiB.toFixed(1)} GiB memory, Node ${info.node}`;
}

/** One benchmark's section of BENCHMARKS.md, markers included. */
export function section(bench: Benchmark, r: BenchResult, info: RunInfo): string {
  const missed = r.figures.filter((f) => f.target !== undefined && !f.target.met).length;
  const judged = r.figures.filter((f) => f.target !== undefined).length;
  return [
    `<!-- bench:${bench.name} -->`,
    `## ${r.title}`,
    "",
    `Measured ${info.date} with \`${info.command}\` on ${machine(info)}; took ${formatNumber(r.elapsedMs / 1000)} s.`,
    "",
    r.setup,
    "",
    markdownTable(r.figures),
    "",
    `Targets met: ${judged - missed} of ${judged}. ${bench.targets}`,
    ...(r.notes.length > 0 ? ["", ...r.notes.map((n) => `- ${n}`)] : []),
    `<!-- /bench:${bench.name} -->`,
  ].join("\n");
}

const INTRO = [
  "# Benchmarks",
  "",
  "Written by `npm run bench` (bench/run.ts): each benchmark measures chainpulse beside a",
  "baseline in the same run and rewrites its own section here; `npm run bench -- <name>`",
  "reruns one. The machine is shared and noisy, so read the ratio of chainpulse to its",
  "baseline in one row rather than absolute figures across runs. Every server is on",
  "loopback; nothing leaves the machine. Each benchmark's own time bounds fit under the",
  `${CHILD_LIMIT_MS / 60_000}-minute limit of the child process it runs in, and all of them under ${RUN_LIMIT_MS / 60_000} minutes.`,
  "Benchmarks judge targets but fail on none; test/bench/smoke.test.ts runs each at a tiny",
  "size and checks what holds on any machine (every command answered, the cache saving calls,",
  "the Redis rows answering from and holding their entries in Redis, no digest lost, doubled or",
  "over a limit). The latency and memory benchmarks' Redis rows start a throw-away `redis-server`",
  "on loopback, so it must be installed, as for the tests.",
].join("\n");

/** BENCHMARKS.md with the sections of `fresh` replaced or added, the others kept, in `order`. */
export function rewriteMarkdown(previous: string | undefined, order: readonly Benchmark[], fresh: ReadonlyMap<string, string>): string {
  const kept = new Map<string, string>();
  for (const m of (previous ?? "").matchAll(/<!-- bench:([a-z-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g)) {
    if (m[1] !== undefined) kept.set(m[1], m[0]);
  }
  const parts = order.map((b) => fresh.get(b.name) ?? kept.get(b.name)).filter((s): s is string => s !== undefined);
  return `${INTRO}\n\n${parts.join("\n\n")}\n`;
}
