/** `chainpulse ask … --lang zh` as a script runs it: the built binary in demo mode. */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAskArgs } from "../../src/cli/ask.js";
import { binArgs } from "../bin.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainpulse-ask-lang-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function ask(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      binArgs("ask", ...args),
      { cwd: dir, env: { PATH: process.env["PATH"], DATABASE_PATH: ":memory:", LOG_LEVEL: "warn" }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

describe("chainpulse ask --lang", { timeout: 90_000 }, () => {
  it("reads --lang zh and --lang=en, and refuses a language it has no file for", () => {
    expect(parseAskArgs(["/help", "--lang", "zh"])).toMatchObject({ message: "/help", lang: "zh" });
    expect(parseAskArgs(["--lang=en", "/help"])).toMatchObject({ message: "/help", lang: "en" });
    expect(parseAskArgs(["/help", "--lang", "xx"])).toBe("--lang takes one of en, zh");
    expect(parseAskArgs(["/help", "--lang"])).toBe("--lang takes one of en, zh");
  });

  it("answers in Chinese with --lang zh and exits 0", async () => {
    const { code, stdout } = await ask(["/start", "--lang", "zh"]);
    expect(code).toBe(0);
    expect(stdout).toContain("你好，我是 chainpulse");
    expect(stdout).toContain("演示数据（沙盒）");
  });

  it("exits 2 naming the languages for an unknown --lang", async () => {
    const { code, stderr } = await ask(["/start", "--lang", "fr"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--lang takes one of en, zh");
  });
});
