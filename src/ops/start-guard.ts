/**
 * Crash-loop guard. A supervisor that restarts a bot with a bad token every second would burn
 * Discord's 1,000 logins a day and get the token reset. Failed starts are recorded next to the
 * database; each start after recent failures first waits, doubling up to a ceiling.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleepFor } from "node:timers/promises";

export interface StartGuardOptions {
  /** File that records failed starts, e.g. `data/.start-failures.json`. */
  file: string;
  /** Wait after the first failure; doubles per further failure. Default 5 s. */
  baseDelayMs?: number;
  /** Longest wait. Default 5 minutes. */
  maxDelayMs?: number;
  /** Failures older than this are forgotten. Default 1 hour. */
  windowMs?: number;
  now?: () => number;
  /** Waits `ms`, or less when `signal` aborts; it resolves either way. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface Record_ {
  failures: number;
  lastFailureAt: number;
}

export interface StartGuard {
  /** Where failed starts are recorded. */
  readonly file: string;
  /** How long the next start must wait (0 when there were no recent failures). */
  delayMs(): Promise<number>;
  /** Waits that long, or until `signal` aborts (a stop during the wait must not be held up by it). */
  waitBeforeStart(signal?: AbortSignal): Promise<number>;
  /** A start failed for a reason a restart will not fix by itself (bad token, conflict). */
  recordFailure(): Promise<void>;
  /** The bot came up: forget past failures. */
  recordSuccess(): Promise<void>;
}

/** Node's timer, which rejects with an AbortError when `signal` aborts: ending early is the point here. */
const abortableSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleepFor(ms, undefined, { signal }).catch(() => undefined);

export function createStartGuard(opts: StartGuardOptions): StartGuard {
  const base = opts.baseDelayMs ?? 5_000;
  const max = opts.maxDelayMs ?? 300_000;
  const windowMs = opts.windowMs ?? 3_600_000;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;

  const read = async (): Promise<Record_ | undefined> => {
    try {
      const r = JSON.parse(await readFile(opts.file, "utf8")) as Partial<Record_>;
      if (typeof r.failures === "number" && typeof r.lastFailureAt === "number") {
        return { failures: r.failures, lastFailureAt: r.lastFailureAt };
      }
    } catch {
      // No record, or an unreadable one: treat as no recent failures.
    }
    return undefined;
  };

  const delayMs = async (): Promise<number> => {
    const r = await read();
    if (!r || r.failures <= 0 || now() - r.lastFailureAt > windowMs) return 0;
    const wanted = Math.min(max, base * 2 ** Math.min(r.failures - 1, 30));
    // At most the backoff itself: a failure stamped in the future (the clock was set back) must
    // not hold the start for longer.
    return Math.min(wanted, Math.max(0, r.lastFailureAt + wanted - now()));
  };

  return {
    file: opts.file,
    delayMs,
    async waitBeforeStart(signal) {
      const ms = await delayMs();
      if (ms > 0 && !signal?.aborted) await sleep(ms, signal);
      return ms;
    },
    async recordFailure() {
      const r = await read();
      const recent = r && now() - r.lastFailureAt <= windowMs ? r.failures : 0;
      await mkdir(dirname(opts.file), { recursive: true });
      await writeFile(opts.file, JSON.stringify({ failures: recent + 1, lastFailureAt: now() }));
    },
    async recordSuccess() {
      await rm(opts.file, { force: true });
    },
  };
}
