/**
 * Paced delivery for one platform. A few workers (the in-flight bound) pull jobs from one
 * queue, so 10,000 subscribers never become 10,000 sleeping timers. Pace: a global spacing
 * (messages a second), a per-chat sliding window (messages a minute), and a 429 pauses the
 * whole queue for its retry-after — grammY's maintainers advise exactly this instead of
 * transformer-throttler's unbounded queues.
 */
import type { SendOutcome } from "../adapters/types.js";

export interface DeliveryJob {
  chatId: string;
  /** After this (epoch ms) the job is dropped, not sent late. */
  deadline: number;
  send(): Promise<SendOutcome>;
}

/** `stopped`: the queue stopped before the job started; it was not sent. */
export type DeliveryResult = SendOutcome | { kind: "expired" } | { kind: "stopped" };

export interface PacedQueueOptions {
  /** Messages a second across all chats; undefined = no global pace (discord.js paces REST itself). */
  ratePerSecond?: number;
  /** Messages a minute to one chat; undefined = no per-chat window. Telegram groups: 20. */
  perChatPerMinute?: number;
  /** Sends in flight at once. */
  maxInFlight: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Time a job waited for the pace before it was sent (metrics). */
  onWait?: (ms: number) => void;
  /** A 429 paused the queue (metrics). */
  onRateLimited?: (afterMs: number) => void;
}

export interface PacedQueue {
  push(job: DeliveryJob): Promise<DeliveryResult>;
  /** Stop taking jobs: queued ones resolve `stopped`; resolves when the ones in flight are done. */
  stop(): Promise<void>;
  pending(): number;
  inFlight(): number;
}

interface Entry {
  job: DeliveryJob;
  queuedAt: number;
  resolve(r: DeliveryResult): void;
}

const MINUTE = 60_000;

export function createPacedQueue(opts: PacedQueueOptions): PacedQueue {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const spacing = opts.ratePerSecond ? 1000 / opts.ratePerSecond : 0;
  const queue: Entry[] = [];
  /**
   * Per chat, when its recent sends reached the platform. A send counts from its start until it
   * is answered, then from the answer: a send held up in flight may arrive late, and counting
   * from its start would let the next minute's sends land inside the same 60 s at the platform.
   */
  const recent = new Map<string, { at: number }[]>();
  let nextStartAt = 0;
  let pausedUntil = 0;
  let workers = 0;
  let sending = 0;
  let stopped = false;
  let idle: (() => void) | undefined;
  let wakeAll!: () => void;
  const stopping = new Promise<void>((r) => (wakeAll = r));
  // A stop must not wait out a 30-second retry-after: sleeping workers wake at once.
  const pause = (ms: number) => Promise.race([sleep(ms), stopping]);

  /** Ms until `chatId` may get another message (0 = now). */
  const chatWait = (chatId: string, t: number): number => {
    if (!opts.perChatPerMinute) return 0;
    const stamps = (recent.get(chatId) ?? []).filter((x) => x.at > t - MINUTE);
    if (stamps.length === 0) recent.delete(chatId);
    else recent.set(chatId, stamps);
    return stamps.length < opts.perChatPerMinute ? 0 : Math.min(...stamps.map((x) => x.at)) + MINUTE - t;
  };

  /** The first entry whose chat may be sent to now, or how long until one may. */
  const takeNext = (t: number): { entry?: Entry; waitMs: number } => {
    let soonest = Infinity;
    for (let i = 0; i < queue.length; i++) {
      const e = queue[i]!;
      const w = chatWait(e.job.chatId, t);
      if (w === 0) {
        queue.splice(i, 1);
        return { entry: e, waitMs: 0 };
      }
      soonest = Math.min(soonest, w);
      // Scanning further costs more than waiting: digests rarely send twice to one chat.
      if (i >= 64) break;
    }
    return { waitMs: Number.isFinite(soonest) ? soonest : 0 };
  };

  const worker = async (): Promise<void> => {
    workers++;
    try {
      while (!stopped && queue.length > 0) {
        const t = now();
        const gate = Math.max(pausedUntil, nextStartAt) - t;
        if (gate > 0) {
          await pause(gate);
          continue;
        }
        const { entry, waitMs } = takeNext(t);
        if (!entry) {
          await pause(Math.max(waitMs, 1));
          continue;
        }
        if (t > entry.job.deadline) {
          entry.resolve({ kind: "expired" });
          continue;
        }
        nextStartAt = Math.max(t, nextStartAt) + spacing;
        const stamp = { at: t };
        if (opts.perChatPerMinute) recent.set(entry.job.chatId, [...(recent.get(entry.job.chatId) ?? []), stamp]);
        opts.onWait?.(t - entry.queuedAt);
        sending++;
        let out: SendOutcome;
        try {
          out = await entry.job.send();
        } catch (e) {
          out = { kind: "failed", reason: e instanceof Error ? e.message : String(e) };
        } finally {
          sending--;
          stamp.at = now();
        }
        if (out.kind === "retry") {
          // Never resend inside the window: the whole queue waits, this job goes first after it.
          pausedUntil = Math.max(pausedUntil, now() + out.afterMs);
          opts.onRateLimited?.(out.afterMs);
          queue.unshift(entry);
          continue;
        }
        entry.resolve(out);
      }
    } finally {
      workers--;
      if (workers === 0 && idle) idle();
    }
  };

  const wake = (): void => {
    while (workers < opts.maxInFlight && workers < queue.length) void worker();
  };

  return {
    push(job) {
      if (stopped) return Promise.resolve({ kind: "stopped" });
      return new Promise<DeliveryResult>((resolve) => {
        queue.push({ job, queuedAt: now(), resolve });
        wake();
      });
    },
    async stop() {
      stopped = true;
      wakeAll();
      for (const e of queue.splice(0)) e.resolve({ kind: "stopped" });
      if (workers > 0) await new Promise<void>((r) => (idle = r));
    },
    pending: () => queue.length,
    inFlight: () => sending,
  };
}
