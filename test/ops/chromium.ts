/**
 * Debian's Chromium for the browser tests, driven by playwright-core (which brings no browser):
 * CHROMIUM_PATH when set, else the distribution's paths. Absent, the test fails saying how to
 * get it rather than passing without a browser.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { DEFAULT_WHERE, onPath } from "../engines/programs.js";

/** CHROMIUM_PATH, else where `npm test` installs it (test/engines/programs.ts): Debian's path, then the PATH. */
export function chromiumPath(): string {
  const given = process.env.CHROMIUM_PATH;
  if (given !== undefined && given !== "") {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH is ${given}, where there is no file`);
    return given;
  }
  const found = DEFAULT_WHERE.chromium.find((p) => existsSync(p)) ?? onPath("chromium", DEFAULT_WHERE.path);
  if (found === undefined) {
    throw new Error(`no Chromium at ${DEFAULT_WHERE.chromium.join(" or ")} or on the PATH: install the distribution's package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return found;
}

/** A headless Chromium on a fresh profile (playwright's user data dir) that talks to nothing but the pages it is sent to. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "cp-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
