import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ensurePrograms } from "./engines/programs.js";

/**
 * Before any test file: the programs the tests run beside Node (Redis, PostgreSQL, `script`,
 * Chromium) are installed if this machine lacks them, saying so, so that a fresh clone needs
 * only `npm ci` and `npm test`. Then `dist/` is built (incremental) for the tests that start the
 * real process through `bin/chainpulse.js`, so they never run stale code. Type errors do not
 * stop the run here — tsc still emits, and `npm test` type-checks on its own before vitest.
 */
export default function setup(): void {
  ensurePrograms({ say: (line) => console.log(line) });
  const root = fileURLToPath(new URL("..", import.meta.url));
  spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "ignore",
  });
}
