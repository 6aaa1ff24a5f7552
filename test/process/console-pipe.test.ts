/** `printf '/price pepe\n' | chainpulse start` with no tokens and no key: the console chat on demo data. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnBot, tempDir } from "./bot-process.js";

describe("the console chat through a pipe", () => {
  it("answers /price pepe with a price on demo data and exits 0 at the end of its input", async () => {
    const dir = tempDir();
    const bot = spawnBot({ DATABASE_PATH: join(dir, "bot.db"), LOG_LEVEL: "warn" }, { cwd: dir, stdin: "/price pepe\n" });
    const exit = await bot.exited;
    expect(bot.stdout()).toMatch(/^PEPE \$[\d.,₀-₉]+/m);
    expect(bot.stdout()).toContain("demo data (sandbox)");
    expect(exit).toEqual({ code: 0, signal: null });
  });
});
