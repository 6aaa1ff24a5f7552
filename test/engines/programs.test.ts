import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_WHERE, ensurePrograms, missingPrograms, type Where } from "./programs.js";

/** A machine that has never seen the engines: a PATH holding only node, no PostgreSQL folder, no Chromium. */
function freshMachine(): Where {
  const bin = mkdtempSync(join(tmpdir(), "chainpulse-fresh-bin-"));
  symlinkSync(process.execPath, join(bin, "node"));
  return { path: bin, postgresRoot: join(bin, "no-postgresql"), chromium: [] };
}

describe("the programs npm test brings", () => {
  it("finds every program it needs missing on a fresh machine, and says what it would install and how", () => {
    const where = freshMachine();
    expect(missingPrograms(where).map((p) => p.name)).toEqual(["redis-server", "initdb", "script", "chromium"]);
    const lines: string[] = [];
    const r = ensurePrograms({ where, dryRun: true, say: (l) => lines.push(l) });
    expect(r.installed).toEqual([]);
    const sudo = userInfo().uid === 0 ? "" : "sudo -n ";
    expect(lines).toEqual([
      "tests: missing redis-server (the Redis tests), initdb (the PostgreSQL tests), script (the console test's pseudo-terminal), chromium (the operator page test); installing redis-server postgresql bsdutils chromium",
      `tests: would run: ${sudo}apt-get update -qq`,
      `tests: would run: ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server postgresql bsdutils chromium`,
    ]);
  });

  it("refuses in one sentence naming the packages when it cannot install them", () => {
    // No apt-get on this PATH: the run must stop before any test, not fail in nineteen files.
    expect(() => ensurePrograms({ where: freshMachine(), say: () => undefined })).toThrow(
      /^tests need redis-server .* and this machine has no apt-get: install the Debian packages redis-server postgresql bsdutils chromium/,
    );
  });

  it("installs nothing and says nothing where every program is there", () => {
    // The global setup ran before this file, so this machine has them all now.
    const lines: string[] = [];
    expect(missingPrograms(DEFAULT_WHERE)).toEqual([]);
    expect(ensurePrograms({ say: (l) => lines.push(l) })).toEqual({ installed: [] });
    expect(lines).toEqual([]);
  });
});
