/** `printf '/price pepe\n' | chainpulse start` with no tokens and no key: the console chat on demo data. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnBot, tempDir } from "./bot-process.js";

const BIN = fileURLToPath(new URL("../../bin/chainpulse.js", import.meta.url));

/** `chainpulse ask` in `dir` with the settings' defaults: the database is ./data of that folder. */
function askIn(dir: string, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, "ask", message], { cwd: dir, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn" }, timeout: 60_000 }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
}

// Each test starts the bot (and one also ask) in a child process: seconds on a busy machine.
describe("the console chat through a pipe", { timeout: 90_000 }, () => {
  it("answers /price pepe with a price on demo data and exits 0 at the end of its input", async () => {
    const dir = tempDir();
    const bot = spawnBot({ DATABASE_PATH: join(dir, "bot.db"), LOG_LEVEL: "warn" }, { cwd: dir, stdin: "/price pepe\n" });
    const exit = await bot.exited;
    expect(bot.stdout()).toMatch(/^PEPE \$[\d.,₀-₉]+/m);
    expect(bot.stdout()).toContain("demo data (sandbox)");
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it("says that digests are posted on Telegram and Discord when /subscribe is typed, and keeps none", async () => {
    const dir = tempDir();
    const bot = spawnBot({ DATABASE_PATH: join(dir, "bot.db"), LOG_LEVEL: "warn" }, { cwd: dir, stdin: "/subscribe solana\n/subscriptions\n" });
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.stdout()).toContain("⚠ Digests are posted in Telegram groups and Discord channels, not here: add the bot to one and /subscribe there.");
    expect(bot.stdout()).toContain("This chat has no digests.");
  });

  it("shows a default chain set with ask, as the README says: both keep the console chat in ./data", async () => {
    const dir = tempDir();
    expect(await askIn(dir, "/settings chain bsc")).toMatch(/default chain bsc/);
    const bot = spawnBot({ LOG_LEVEL: "warn" }, { cwd: dir, stdin: "/settings\n" });
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.stdout()).toMatch(/Default chain\s+bsc/);
  });
});
