/**
 * The TypeScript sources of src/ that tests read as text. The boundary test
 * (test/lint/boundaries.test.ts) plants folders named `planted-…` in src/ for the length of
 * one test while other files run: they are no source of the bot, and one may be gone between
 * listing a folder and reading it. tsconfig.json and eslint.config.js leave them out too.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export const PLANTED_PREFIX = "planted-";

/** Every `.ts` file under `dir`, the planted folders left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name.startsWith(PLANTED_PREFIX) ? [] : sourceFiles(join(dir, e.name));
    return e.name.endsWith(".ts") ? [join(dir, e.name)] : [];
  });
}
