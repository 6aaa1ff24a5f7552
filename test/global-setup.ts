import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Tests that start the real process run `bin/chainpulse.js`, which loads `dist/`: build it
 * once per run (incremental) so those tests never run stale code. Type errors do not stop the
 * run here — tsc still emits, and `npm test` type-checks on its own before vitest starts.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "ignore",
  });
}
