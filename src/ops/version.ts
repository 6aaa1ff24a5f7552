/** The version the operator's page shows: package.json's, found above this module in src/ and dist/ alike. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "chainpulse" && pkg.version !== undefined) return pkg.version;
    } catch {
      // No package.json here: look in the folder above.
    }
    const up = dirname(dir);
    if (up === dir) return "unknown";
    dir = up;
  }
}
