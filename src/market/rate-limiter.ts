/**
 * Client-side pacing so the bot keeps to its plan's requests per second (service-notes.md:
 * 1 / 5 / 20 by plan) instead of spending attempts on 429s.
 *
 * Requests are spaced `1000 / rps` ms apart rather than drawn from a bucket with a burst:
 * the service counts per second, and a burst at a second's boundary could double the rate it
 * sees. Two lanes share the spacing: a waiting interactive request always goes before a
 * waiting background one, so a digest fan-out never makes a person wait behind it.
 */

/** Which queue a request waits in: people first, scheduled work second. */
export type Lane = "interactive" | "background";

export interface RateLimiterOptions {
  /** Requests per second; `undefined` or 0 means unlimited (every acquire resolves at once). */
  rps?: number;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Waits `ms`. Default a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
}

interface Waiter {
  enqueuedAt: number;
  resolve: (queuedMs: number) => void;
}

/** The default `sleep`: a real timer. */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Spacing limiter with an interactive and a background lane. */
export class RateLimiter {
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly queues: Record<Lane, Waiter[]> = { interactive: [], background: [] };
  private nextFreeAt = Number.NEGATIVE_INFINITY;
  private sleeping = false;

  constructor(options: RateLimiterOptions = {}) {
    const rps = options.rps ?? 0;
    if (!Number.isFinite(rps) || rps < 0) {
      throw new RangeError(`rps must be a positive number of requests per second or undefined for no limit, got ${rps}`);
    }
    this.intervalMs = rps > 0 ? 1000 / rps : 0;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
  }

  /** Requests waiting per lane, for metrics and tests. */
  get pending(): Record<Lane, number> {
    return { interactive: this.queues.interactive.length, background: this.queues.background.length };
  }

  /** Resolves when the request may leave, with how long it waited for quota (ms). */
  acquire(lane: Lane): Promise<number> {
    if (this.intervalMs === 0) return Promise.resolve(0);
    return new Promise((resolve) => {
      this.queues[lane].push({ enqueuedAt: this.now(), resolve });
      this.pump();
    });
  }

  private pump(): void {
    if (this.sleeping) return;
    for (;;) {
      const lane: Lane | undefined =
        this.queues.interactive.length > 0 ? "interactive" : this.queues.background.length > 0 ? "background" : undefined;
      if (lane === undefined) return;
      const t = this.now();
      if (t < this.nextFreeAt) {
        this.sleeping = true;
        void this.sleep(this.nextFreeAt - t).then(() => {
          this.sleeping = false;
          this.pump();
        });
        return;
      }
      const waiter = this.queues[lane].shift() as Waiter;
      this.nextFreeAt = t + this.intervalMs;
      waiter.resolve(t - waiter.enqueuedAt);
    }
  }
}
