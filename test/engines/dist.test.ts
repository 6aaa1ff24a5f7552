import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { distIsCurrent, ensureDist } from "./dist.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** A project of one source with this repository's build config; every file dated `at` (seconds). */
function project(at: number): string {
  const root = mkdtempSync(join(tmpdir(), "chainpulse-dist-"));
  mkdirSync(join(root, "src", "core"), { recursive: true });
  writeFileSync(join(root, "src", "core", "a.ts"), "export const a: number = 1;\n");
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", target: "ES2022", lib: ["ES2022"], strict: true, types: [] } }));
  writeFileSync(
    join(root, "tsconfig.build.json"),
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { rootDir: "src", outDir: "dist", incremental: true, tsBuildInfoFile: "dist/.tsbuildinfo" }, include: ["src"] }),
  );
  symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"));
  for (const f of ["src/core/a.ts", "src/core", "src", "tsconfig.json", "tsconfig.build.json"]) utimesSync(join(root, f), at, at);
  return root;
}

function stamp(root: string, at: number): void {
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(join(root, "dist", ".tsbuildinfo"), "{}");
  utimesSync(join(root, "dist", ".tsbuildinfo"), at, at);
}

describe("the dist/ the process tests run", () => {
  it("is current only when built after every source, config and folder last changed", () => {
    const root = project(1_000);
    expect(distIsCurrent(root)).toBe(false);
    stamp(root, 2_000);
    expect(distIsCurrent(root)).toBe(true);
    utimesSync(join(root, "src", "core", "a.ts"), 3_000, 3_000);
    expect(distIsCurrent(root)).toBe(false);
    stamp(root, 4_000);
    // A source deleted: only its folder's time says so.
    utimesSync(join(root, "src", "core"), 5_000, 5_000);
    expect(distIsCurrent(root)).toBe(false);
    stamp(root, 6_000);
    utimesSync(join(root, "tsconfig.build.json"), 7_000, 7_000);
    expect(distIsCurrent(root)).toBe(false);
  });

  // A real tsc run: seconds of CPU, which a busy machine stretches.
  it("is built when stale and left alone when current, saying which", { timeout: 120_000 }, () => {
    const root = project(1_000);
    const said: string[] = [];
    expect(ensureDist(root, (l) => said.push(l))).toBe("built");
    expect(existsSync(join(root, "dist", "core", "a.js"))).toBe(true);
    expect(said).toEqual([expect.stringMatching(/^tests: built dist\/ in \d+\.\d s$/)]);
    rmSync(join(root, "dist", "core", "a.js"));
    expect(ensureDist(root, (l) => said.push(l))).toBe("current");
    expect(existsSync(join(root, "dist", "core", "a.js"))).toBe(false);
    expect(said).toHaveLength(1);
  });
});
