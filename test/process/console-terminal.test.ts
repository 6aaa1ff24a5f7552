/**
 * The console chat as a person meets it: `chainpulse start` on a real pseudo-terminal (made by
 * util-linux `script`, which `.ci/run` installs when missing), keys typed into it, and the
 * screen read back: the prompt, the echo of what was typed, the answers.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PATIENT_ENV, tempDir } from "./bot-process.js";
import { binArgs } from "../bin.js";

/** Bounds for a failing run only: every wait ends on what the screen shows. */
const SCREEN_WAIT_MS = 25_000;

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** What the terminal shows, without colour and cursor sequences and with plain line ends. */
function plain(raw: string): string {
  return raw.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
}

interface Terminal {
  type(keys: string): void;
  /** Resolves with the screen once `test` accepts it. */
  waitForScreen(test: (screen: string) => boolean, what: string): Promise<string>;
  exited: Promise<number | null>;
  kill(): void;
}

function startOnTerminal(): Terminal {
  const dir = tempDir("cp-tty-");
  const log = join(dir, "log");
  const command = `exec ${[process.execPath, ...binArgs("start")].map(quote).join(" ")} 2>>${quote(log)}`;
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TERM: "xterm-256color", DATABASE_PATH: join(dir, "bot.db"), LOG_LEVEL: "warn", ...PATIENT_ENV },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (d: Buffer) => {
    raw += d.toString();
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    type: (keys) => void child.stdin.write(keys),
    waitForScreen(test, what) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!test(plain(raw))) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(plain(raw));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          let logged = "";
          try {
            logged = readFileSync(log, "utf8");
          } catch {
            logged = "(no log)";
          }
          reject(new Error(`the terminal never showed ${what}; screen:\n${plain(raw)}\nlog:\n${logged}`));
        }, SCREEN_WAIT_MS);
        waiters.add(check);
        check();
      });
    },
    exited,
    kill: () => void child.kill("SIGKILL"),
  };
}

let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.kill();
  terminal = undefined;
});

/** The screen ends with a fresh prompt: the console waits for the next line. */
const prompting = (screen: string) => screen.endsWith("\n> ");

describe("the console chat on a terminal", () => {
  it("shows a prompt, echoes what is typed, answers, presses a button by its number and ends on Ctrl-C with exit 0", { timeout: 120_000 }, async () => {
    terminal = startOnTerminal();
    await terminal.waitForScreen(prompting, "the first prompt");

    terminal.type("/price pepe\r");
    const priced = await terminal.waitForScreen((s) => s.includes("\n> /price pepe\n") && /\nPEPE \$/.test(s) && prompting(s), "the echo, the price and a new prompt");
    const card = /\[(\d+)\] Card/.exec(priced)?.[1];
    expect(card, priced).toBeDefined();

    // From the prompt the number is typed at.
    const before = priced.length - "> ".length;
    terminal.type(`${card}\r`);
    const carded = await terminal.waitForScreen((s) => s.slice(before).includes(`> ${card}\n`) && /\(PEPE\)/.test(s.slice(before)) && prompting(s), "the token card");
    expect(carded.slice(before)).toMatch(/Market cap/);

    terminal.type("\u0003");
    expect(await terminal.exited).toBe(0);
  });
});
