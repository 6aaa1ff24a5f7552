/**
 * The real bot as operators run it: `node bin/chainpulse.js start` in a child process, with
 * only the environment the test gives (no inherited settings, no stray .env: it runs in an
 * empty temporary folder).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitBound } from "../fakes/wait-bound.js";
import { binArgs } from "../bin.js";

export interface BotProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when stderr (the log) has a line matching `re`; fails after `waitBound(timeoutMs ?? START_BOUND_MS)`. */
  waitForLog(re: RegExp, timeoutMs?: number): Promise<string>;
  /** Calls `listener` each time the log grows; returns the unsubscribe. */
  onLog(listener: () => void): () => void;
  /**
   * The port its ops server listens on, from the line that says so: a bot started with
   * HTTP_PORT=0 takes a free port itself, where a port picked free beforehand could be taken by
   * another process before the bot binds it.
   */
  servedPort(timeoutMs?: number): Promise<number>;
}

/**
 * Settings that keep a bot's answers from depending on how busy the machine is: the answer
 * deadline (2.5 s by default, after which the bot says the market is not answering) and the
 * market timeout are wall-clock bounds, and a loaded CI machine can miss them on loopback.
 * Tests that exercise those bounds set their own values. (Not for `ask`: the cache's deadline
 * timer keeps that process alive until the deadline passes.)
 */
export const PATIENT_ENV: Readonly<Record<string, string>> = { ANSWER_DEADLINE_MS: "60000", MARKET_TIMEOUT_MS: "30000" };

/**
 * The default bound of a wait on a bot's log: most lines come after its start, seconds of CPU
 * for a node process, which beside a second test suite on 2 busy cores took over 25 s.
 */
const START_BOUND_MS = 60_000;

/** The start line that names the ops server's port (pino writes msg last: a line that has it whole is whole). */
const SERVED = /"msg":"health, readiness and metrics are served"\}/;

/** The port a log line names if it is the ops server's start line. */
export function servedPortOf(line: string): number | undefined {
  return SERVED.test(line) ? (JSON.parse(line) as { port: number }).port : undefined;
}

export function tempDir(prefix = "cp-proc-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function spawnBot(env: Record<string, string>, opts: { cwd?: string; stdin?: string } = {}): BotProcess {
  const child = spawn(process.execPath, binArgs("start"), {
    cwd: opts.cwd ?? tempDir(),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "info", ...PATIENT_ENV, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  const logListeners = new Set<() => void>();
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
    for (const l of [...logListeners]) l();
    for (const w of [...waiters]) {
      const line = err.split("\n").find((l) => w.re.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  /** Exited with its output read to the end. */
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForLog(re, requestedMs) {
      const timeoutMs = waitBound(requestedMs ?? START_BOUND_MS);
      const found = err.split("\n").find((l) => re.test(l));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line matching ${re} within ${timeoutMs} ms; stderr:\n${err}`)), timeoutMs);
        waiters.push({ re, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      });
    },
    onLog(listener) {
      logListeners.add(listener);
      return () => logListeners.delete(listener);
    },
    async servedPort(timeoutMs) {
      const gone = closed.then(() => {
        const line = err.split("\n").find((l) => SERVED.test(l));
        if (line === undefined) throw new Error(`the bot exited before it served its port; stderr:\n${err}`);
        return line;
      });
      return servedPortOf(await Promise.race([this.waitForLog(SERVED, timeoutMs), gone]))!;
    },
  };
}

/** Polls `url` until `accept` says yes; fails after `waitBound(timeoutMs)`. */
export async function waitForHttp(url: string, accept: (res: Response) => boolean | Promise<boolean>, requestedMs?: number): Promise<Response> {
  const until = Date.now() + waitBound(requestedMs);
  let last = "no answer";
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (await accept(res.clone())) return res;
      last = `${res.status} ${await res.text()}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered as expected; last: ${last}`);
}
