import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";

/** What `tsc -p tsconfig.build.json` reads besides the sources. */
const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];
/** Written by every build (tsconfig.build.json's tsBuildInfoFile); its time is when dist/ was last made whole. */
const STAMP = join("dist", ".tsbuildinfo");

function newestUnder(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Whether `dist/` was built after every source and config last changed. A folder's time counts
 * too, so a deleted or renamed source makes dist stale.
 */
export function distIsCurrent(root: string): boolean {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const inputs = Math.max(newestUnder(join(root, "src")), ...CONFIGS.map((c) => statSync(join(root, c)).mtimeMs));
  return inputs < built;
}

/**
 * Builds `dist/` for the tests that start the real process, unless it is current (`npm ci`'s
 * `prepare` has just built it, or an earlier run did). Says which. Type errors do not stop the
 * run here: tsc still emits, and `npm test` type-checks on its own.
 */
export function ensureDist(root: string, say: (line: string) => void): "current" | "built" {
  if (distIsCurrent(root)) return "current";
  const started = Date.now();
  const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "ignore" });
  // 0: clean; 2: type errors, everything emitted. An incremental build with nothing to emit
  // leaves the stamp as it was, so it is marked now; a build that emitted nothing is not.
  const emitted = tsc.status === 0 || tsc.status === 2;
  const now = new Date();
  if (emitted && existsSync(join(root, STAMP))) utimesSync(join(root, STAMP), now, now);
  say(`tests: built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return "built";
}
