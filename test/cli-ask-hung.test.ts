/**
 * Issue 27, point 8: `chainpulse ask` against a market that hangs prints its answer at the
 * answer deadline and exits then, instead of lingering until the hung call's timeout: the
 * call still out is cut, since nobody is left to answer.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../src/sandbox/index.js";
import { binArgs } from "./bin.js";

let dir: string;
let sandbox: Sandbox;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainpulse-ask-hung-"));
  sandbox = await startSandbox({ seed: 1, faults: [{ kind: "hang", endpoints: ["batchPrices"] }] });
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe("chainpulse ask while the market hangs", () => {
  // The hung call's timeout is 120 s and the child is killed at 60 s: an ask that waited for it fails here.
  // The deadline leaves the search before the hung call seconds to answer on a loaded machine: with
  // 1.5 s, a search answered late left the price call no time to start, and the answer was "busy".
  it("exits once its answer is printed, not when the hung call gives up", { timeout: 90_000 }, async () => {
    const env = {
      PATH: process.env.PATH ?? "", DATABASE_PATH: ":memory:", LOG_LEVEL: "warn", ANSWER_DEADLINE_MS: "5000",
      MARKET_API_URL: sandbox.url, MARKET_API_KEY: sandbox.v2Key, MARKET_TIMEOUT_MS: "120000",
    };
    const result = await new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
      execFile(process.execPath, binArgs("ask", "/price pepe"), { cwd: dir, env, timeout: 60_000 }, (error, stdout) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, signal: error?.signal ?? null, stdout }),
      );
    });
    expect(result.signal).toBeNull();
    expect(result.stdout).toContain("The market service is not answering");
    expect(result.code).toBe(1);
  });
});
