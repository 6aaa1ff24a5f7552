/**
 * `chainpulse <argv>` run in this test process through `main`, the function `bin/chainpulse.js`
 * calls, with only the given environment and working directory: what it writes to stdout and
 * stderr and the exit code it resolves to. A spawned binary costs a Node start and every module
 * load again (most of a second of CPU each); the few tests that spawn the real binary prove its
 * contract (exit codes, streams), and the rest of a command's behaviour is checked here.
 *
 * Not for `start` past its settings check: a running bot would install signal handlers in the
 * test process. Log lines go to the stderr file descriptor itself, so they are not captured.
 */
import { main } from "../src/main.js";

export interface MainResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One run at a time: the environment, the working directory and the streams are the process's own. */
let running: Promise<unknown> = Promise.resolve();

export function runMain(argv: string[], env: Record<string, string> = {}, cwd = process.cwd()): Promise<MainResult> {
  const run = running.then(() => runAlone(argv, env, cwd));
  running = run.catch(() => undefined);
  return run;
}

async function runAlone(argv: string[], env: Record<string, string>, cwd: string): Promise<MainResult> {
  const saved = { env: process.env, cwd: process.cwd(), out: process.stdout.write, err: process.stderr.write };
  let stdout = "";
  let stderr = "";
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = rest.find((r): r is () => void => typeof r === "function");
      done?.();
      return true;
    }) as typeof process.stdout.write;
  // As a spawned binary gets it: PATH and the test's variables, nothing from the developer's shell.
  process.env = { PATH: saved.env.PATH ?? "", ...env };
  process.chdir(cwd);
  process.stdout.write = capture((t) => (stdout += t));
  process.stderr.write = capture((t) => (stderr += t));
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.chdir(saved.cwd);
    process.env = saved.env;
  }
}
