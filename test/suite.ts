/**
 * `npm test`: the type check, the linter's rules that need no types (`test/lint/untyped.ts`:
 * the import map and the cycle check) and the vitest suite at once, since much of the suite's
 * time is spent waiting on servers and child processes and the two checks fill that time with
 * CPU work; one after another they added about a minute to every run. The type-aware rules
 * (`npm run lint`) would build the TypeScript program a second time beside the type check's,
 * more than half a minute of CPU on every run. The checks'
 * output is held and printed after the suite's, so the live test output stays readable.
 * Arguments go to vitest (`npm test -- test/core/commands.test.ts`). Exits non-zero if any
 * of the three failed.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

interface Outcome {
  name: string;
  code: number;
  seconds: number;
  output: string;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/** A package's bin script, run by this Node, so no shell or PATH lookup is involved. */
function binOf(pkg: string, bin: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), bin);
}

function run(name: string, args: readonly string[], live: boolean): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: live ? "inherit" : ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout?.on("data", (c: Buffer) => chunks.push(c));
    child.stderr?.on("data", (c: Buffer) => chunks.push(c));
    const done = (code: number): void =>
      resolve({ name, code, seconds: (Date.now() - started) / 1000, output: Buffer.concat(chunks).toString("utf8") });
    child.on("error", (err) => {
      chunks.push(Buffer.from(`${err.message}\n`));
      done(1);
    });
    child.on("close", (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}

const checks = [
  run("typecheck", [binOf("typescript", "bin/tsc"), "--noEmit", "--incremental", "--tsBuildInfoFile", "dist/.typecheck.tsbuildinfo"], false),
  run("eslint without types", ["--import", "tsx", join(root, "test", "lint", "untyped.ts")], false),
];
const suite = await run("vitest", [binOf("vitest", "vitest.mjs"), "run", ...process.argv.slice(2)], true);
const outcomes = [...(await Promise.all(checks)), suite];

for (const o of outcomes.slice(0, 2)) {
  if (o.output.trim() !== "") process.stdout.write(`\n${o.name}:\n${o.output.trimEnd()}\n`);
}
process.stdout.write("\n");
for (const o of outcomes) process.stdout.write(`${o.name}: ${o.code === 0 ? "passed" : `FAILED (exit ${o.code})`} in ${o.seconds.toFixed(1)} s\n`);
process.exitCode = outcomes.some((o) => o.code !== 0) ? 1 : 0;
