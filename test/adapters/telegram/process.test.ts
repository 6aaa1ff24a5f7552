/**
 * The bot as `npm start` runs it (`bin/chainpulse.js start`, built `dist/`), with
 * TELEGRAM_API_ROOT on the fake Bot API, no market key (the sandbox market) and stdin at
 * end-of-file: it long-polls, answers, stops cleanly on SIGTERM, and exits non-zero with one
 * line on a bad token or when another instance takes over.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, fakeUser, privateChat, startFakeTelegram } from "../../fakes/telegram-api.js";
import { binArgs } from "../../bin.js";
import { PATIENT_ENV } from "../../process/bot-process.js";

const dir = mkdtempSync(join(tmpdir(), "chainpulse-telegram-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

let runs = 0;

function start(env: Record<string, string>): Running {
  // A data folder per run: the crash-loop guard keeps its record beside the database, and
  // one test's refused start must not delay the next.
  const data = join(dir, `run-${++runs}`);
  mkdirSync(data);
  const child = spawn(process.execPath, binArgs("start"), {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", DATABASE_PATH: join(data, "bot.db"), LOG_LEVEL: "warn", ...PATIENT_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stderr: () => err, exited };
}

// Each test starts the real process: on a loaded machine its start alone may take many seconds.
describe("chainpulse start with a Telegram bot token", { timeout: 90_000 }, () => {
  let fake: FakeTelegram;
  let running: Running | undefined;
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    running = undefined;
    await fake.close();
  });

  it("long-polls with stdin at end-of-file, answers a command, and exits 0 on SIGTERM", async () => {
    fake = await startFakeTelegram();
    running = start({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot });
    await fake.waitFor((c) => c.method === "getUpdates", { pending: true, timeoutMs: 40_000 });
    expect(fake.commands.map((c) => c.command)).toContain("price");
    const ask = fake.sendText(privateChat(fakeUser()), "/price pepe");
    // The patient deadline: on a loaded machine the sandbox's first answers can outlast the default 2.5 s.
    const reply = await fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 45_000 });
    expect(reply.text).toContain("PEPE");
    expect(reply.text).toContain("demo data");
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("exits non-zero with one line naming the fix, without the token, when the token is refused", async () => {
    fake = await startFakeTelegram();
    const token = "999999:wrong-token-for-this-test";
    running = start({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: fake.apiRoot });
    expect(await running.exited).not.toBe(0);
    expect(running.stderr()).toContain("Telegram refused the bot token (401 Unauthorized): check TELEGRAM_BOT_TOKEN");
    expect(running.stderr()).not.toContain("wrong-token-for-this-test");
  });

  it("exits non-zero when another instance starts polling with the same token", async () => {
    fake = await startFakeTelegram();
    running = start({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot });
    await fake.waitFor((c) => c.method === "getUpdates", { pending: true, timeoutMs: 20_000 });
    fake.conflict();
    expect(await running.exited).not.toBe(0);
    expect(running.stderr()).toContain("another process is polling with this bot token (409 Conflict)");
  });
});
