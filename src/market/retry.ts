/**
 * Retries as a layer of their own: what may help (timeouts, network errors, 5xx, 429) is tried
 * again after an exponential, jittered back-off or the service's `Retry-After`, and only when
 * the next try can still finish — within the call's budget, and before the deadline of a
 * person waiting for it.
 */
import type { Logger } from "pino";
import { MarketError } from "./errors.js";

export interface RetryOptions {
  /** Attempts per call including the first. Default 3; 1 disables retries. */
  maxAttempts?: number;
  /** No attempt starts or runs past this many ms after the first one left. Default 15000. */
  budgetMs?: number;
  /** Back-off before retry n is `baseDelayMs · 2^(n-1)`, jittered down to half of that. Default 200. */
  baseDelayMs?: number;
}

export interface RetryDeps {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random: () => number;
  logger?: Logger;
}

/** One call to retry: its endpoint (for logs) and the asker's deadline, if a person waits. */
export interface RetryCall {
  endpoint: string;
  deadline?: number;
}

/** Shortest time worth starting an attempt in before a deadline. */
const MIN_ATTEMPT_MS = 250;

export class Retry {
  private readonly maxAttempts: number;
  private readonly budgetMs: number;
  private readonly baseDelayMs: number;

  constructor(options: RetryOptions, private readonly deps: RetryDeps) {
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.budgetMs = options.budgetMs ?? 15_000;
    this.baseDelayMs = options.baseDelayMs ?? 200;
  }

  /**
   * Runs `attempt` until it succeeds or a retry cannot help or cannot finish in time; rejects
   * with the last error. `attempt` calls `leaving()` as its request leaves (after any wait for
   * its turn) to learn how long it may take: the budget runs from the first one's leaving.
   */
  async run<T>(call: RetryCall, attempt: (n: number, leaving: () => number) => Promise<T>): Promise<T> {
    const { now, sleep, logger } = this.deps;
    let budgetEnd: number | undefined;
    const leaving = (): number => {
      const t = now();
      budgetEnd ??= t + this.budgetMs;
      return Math.max(1, budgetEnd - t);
    };
    let earlier: MarketError | undefined;
    for (let n = 1; ; n++) {
      try {
        return await attempt(n, leaving);
      } catch (error) {
        // A retry the scheduler could not fit before the deadline is the bot's own wait: the call
        // failed for what the service did to the attempt before (a 503 is not "this bot is busy").
        if (error instanceof MarketError && error.kind === "busy" && earlier !== undefined && earlier.kind !== "busy") throw earlier;
        if (error instanceof MarketError) earlier = error;
        if (!(error instanceof MarketError) || !error.retryable || n >= this.maxAttempts) throw error;
        const delayMs = error.retryAfterMs ?? this.backoff(n);
        const t = now();
        if (t + delayMs >= (budgetEnd ?? t + this.budgetMs)) throw error;
        if (call.deadline !== undefined && t + delayMs + MIN_ATTEMPT_MS > call.deadline) throw error;
        logger?.debug({ endpoint: call.endpoint, kind: error.kind, status: error.status, attempt: n, delayMs }, "market call failed, retrying");
        await sleep(delayMs);
      }
    }
  }

  private backoff(attempt: number): number {
    const full = this.baseDelayMs * 2 ** (attempt - 1);
    // Half fixed, half random: spreads retries of many callers hit by the same outage.
    return Math.round(full / 2 + this.deps.random() * (full / 2));
  }
}
