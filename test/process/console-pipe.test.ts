/** `printf '/price pepe\n' | chainpulse start` with no tokens and no key: the console chat on demo data. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawnBot, tempDir, type BotProcess } from "./bot-process.js";
import { binArgs } from "../bin.js";


/** `chainpulse ask` in `dir` with the settings' defaults: the database is ./data of that folder. */
function askIn(dir: string, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, binArgs("ask", message), { cwd: dir, env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn" }, timeout: 60_000 }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
}

// Each start of the bot (and of ask) is a child process: seconds on a busy machine.
describe("the console chat through a pipe", { timeout: 90_000 }, () => {
  // One bot reads the lines of the first two tests, in turn: a start costs seconds of CPU.
  let piped: { bot: BotProcess; exit: { code: number | null; signal: NodeJS.Signals | null } };
  beforeAll(async () => {
    const dir = tempDir();
    const bot = spawnBot({ DATABASE_PATH: join(dir, "bot.db"), LOG_LEVEL: "warn" }, { cwd: dir, stdin: "/price pepe\n/subscribe solana\n/subscriptions\n" });
    piped = { bot, exit: await bot.exited };
  }, 90_000);

  it("answers /price pepe with a price on demo data and exits 0 at the end of its input", () => {
    const { bot, exit } = piped;
    expect(bot.stdout()).toMatch(/^PEPE \$[\d.,₀-₉]+/m);
    expect(bot.stdout()).toContain("demo data (sandbox)");
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it("says that digests are posted on Telegram and Discord when /subscribe is typed, and keeps none", () => {
    const { bot, exit } = piped;
    expect(exit).toEqual({ code: 0, signal: null });
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
