import { fileURLToPath } from "node:url";
import { ensureDist } from "./engines/dist.js";
import { ensurePrograms } from "./engines/programs.js";

/**
 * Before any test file: the programs the tests run beside Node (Redis, PostgreSQL, `script`,
 * Chromium) are installed if this machine lacks them, saying so, so that a fresh clone needs
 * only `npm ci` and `npm test`. Then `dist/` is built for the tests that start the real process
 * through `bin/chainpulse.js`, unless it is newer than every source, so they never run stale code.
 */
export default function setup(): void {
  const say = (line: string): void => console.log(line);
  ensurePrograms({ say });
  ensureDist(fileURLToPath(new URL("..", import.meta.url)), say);
}
