/**
 * Paced delivery for one platform. A few workers (the in-flight bound) pull jobs from one
 * queue, so 10,000 subscribers never become 10,000 sleeping timers. The pace — a global
 * spacing (messages a second), a per-chat sliding window (messages a minute) and spacing (the
 * least time between two messages to a chat), and a pause of the whole queue for a 429's
 * retry-after, as grammY's maintainers advise instead of transformer-throttler's unbounded
 * queues — is kept by a ledger: in process by default, in Redis when several processes send
 * for the same bot.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { SendOutcome } from "../adapters/types.js";
import { MAX_CANDIDATES, memoryPaceLedger, type PaceLedger } from "./pace-ledger.js";

/**
 * A job that took its turn and did not send, because its row was not claimed (send protocol):
 * another sender has it, the lease ran out, or the sender no longer claims.
 */
export interface Unclaimed {
  kind: "unclaimed";
  why: "taken" | "unleased" | "not-claiming";
}

export interface DeliveryJob {
  chatId: string;
  /** After this (epoch ms) the job is dropped, not sent late. */
  deadline: number;
  /** False once the job is no longer wanted (its poster lost the lease): dropped as `stopped` before it takes a slot. */
  live?(): boolean;
  /**
   * Goes before its chat's jobs that are not (a price alert before a backlog of buy posts), and
   * is looked at before every chat's backlog; among themselves, urgent jobs and the rest each
   * keep their order. Default false.
   */
  urgent?: boolean;
  send(): Promise<SendOutcome | Unclaimed>;
}

/** `stopped`: the queue stopped, or the job was no longer live, before it started; it was not sent. */
export type DeliveryResult = SendOutcome | Unclaimed | { kind: "expired" } | { kind: "stopped" };

export interface PacedQueueOptions {
  /** Messages a second across all chats; undefined = no global pace. Read by the default ledger. */
  ratePerSecond?: number;
  /** Messages a minute to one chat; undefined = no per-chat window. Telegram groups: 20. Read by the default ledger. */
  perChatPerMinute?: number;
  /** Least ms between two messages to one chat; undefined = none. Telegram: 1000. Read by the default ledger. */
  perChatSpacingMs?: number;
  /**
   * Slots of a chat's minute (`perChatPerMinute`) the queue leaves to what else takes from the
   * same ledger: the replies to commands, which a group's backlog of posts must not hold up.
   * Default 0.
   */
  reservePerChat?: number;
  /** The books of the pace. Default: in process, from the two rates above. */
  ledger?: PaceLedger;
  /** Sends in flight at once. */
  maxInFlight: number;
  now?: () => number;
  /** Waits `ms`, or less when `signal` aborts: a worker woken by a push or a stop ends its wait's timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Time a job waited for the pace before it was sent (metrics). */
  onWait?: (ms: number) => void;
  /** A 429 paused the queue (metrics). */
  onRateLimited?: (afterMs: number) => void;
}

export interface PacedQueue {
  push(job: DeliveryJob): Promise<DeliveryResult>;
  /** Stop taking jobs: queued ones resolve `stopped`; resolves when the ones in flight are done. */
  stop(): Promise<void>;
  /** Jobs queued, not yet started; with `chatId`, that chat's only. */
  pending(chatId?: string): number;
  inFlight(): number;
}

interface Entry {
  job: DeliveryJob;
  queuedAt: number;
  resolve(r: DeliveryResult): void;
}

/** Jobs looked at per turn (chats' first jobs, and those dropped on the way), so that a turn never scans the whole queue. */
const MAX_SCANNED = 16 * MAX_CANDIDATES;

/**
 * A wait at least this long is cut short by a push. A shorter one is the global spacing's (25 a
 * second: 40 ms), which holds every chat alike: looking again would only ask the ledger again.
 */
const ROUSED_FROM_MS = 100;

/** What one turn at the ledger gave a worker: a job to send now, or how long to wait. */
type Step = { entry: Entry; stamp: string; at: number } | { waitMs: number };

export function createPacedQueue(opts: PacedQueueOptions): PacedQueue {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => undefined));
  const ledger = opts.ledger ?? memoryPaceLedger(opts);
  /**
   * Each chat's jobs in order (its urgent ones first), the chats in the order a turn looks at
   * them: the one served longest ago first, a chat moving to the back when a job of it is sent.
   * A turn looks at chats, not jobs: with one queue of jobs, a few chats' backlogs filled the
   * jobs a turn looks at, and the chats behind them waited though they had room.
   */
  let chats = new Map<string, Entry[]>();
  let queued = 0;
  /**
   * Chats whose send failed for a reason of their own (a channel's rate limit, a 5xx or a lost
   * connection), held until then: the other chats, and the replies sharing the ledger, go on.
   */
  const held = new Map<string, number>();
  /** Puts `chatId` first in the order a turn looks at chats (an urgent job, a retried one). */
  const toFront = (chatId: string, fifo: Entry[]): void => {
    const rest = chats;
    rest.delete(chatId);
    chats = new Map([[chatId, fifo]]);
    for (const [id, f] of rest) chats.set(id, f);
  };
  /** Takes `entry` out of its chat's jobs; false when it is no longer queued. */
  const remove = (entry: Entry): boolean => {
    const fifo = chats.get(entry.job.chatId);
    const at = fifo?.indexOf(entry) ?? -1;
    if (fifo === undefined || at < 0) return false;
    fifo.splice(at, 1);
    queued--;
    if (fifo.length === 0) chats.delete(entry.job.chatId);
    return true;
  };
  let workers = 0;
  let sending = 0;
  let stopped = false;
  let idle: (() => void) | undefined;
  let wakeAll!: () => void;
  // A stop must not wait out a 30-second retry-after: sleeping workers wake at once.
  const stopping = new Promise<void>((r) => (wakeAll = r));
  /**
   * Settled by the next push of a chat with no job queued, or of an urgent job (its chat moves
   * to the front): a worker waiting out its candidates' chats looks again, as that chat may have
   * room. A job behind its chat's own queued ones finds no room they have not found, so it wakes
   * nobody: in a burst of buy posts every push woke every worker to look through the queue again
   * for nothing.
   */
  let pushed: { promise: Promise<void>; settle: () => void } | undefined;
  // A wait cut short ends its timer: under a stream of pushes, each rest would otherwise leave
  // one running for the rest of its wait (up to a minute), and a stop would wait them out.
  const rest = async (ms: number): Promise<void> => {
    const done = new AbortController();
    const waits = [sleep(ms, done.signal), stopping];
    if (ms >= ROUSED_FROM_MS) {
      if (pushed === undefined) {
        let settle!: () => void;
        pushed = { promise: new Promise<void>((r) => (settle = r)), settle };
      }
      waits.push(pushed.promise);
    }
    try {
      await Promise.race(waits);
    } finally {
      done.abort();
    }
  };

  let turn: Promise<unknown> = Promise.resolve();
  /** One worker at a time asks the ledger, so two are never handed the same job. */
  const takeTurn = (): Promise<Step> => {
    const step = turn.then(async (): Promise<Step> => {
      const t = now();
      // A job past its deadline, or no longer wanted, is dropped before it can use up a slot:
      // looked at when it comes up, so a turn costs at most MAX_SCANNED checks however long the
      // queue (a scan of all 2,000 jobs of a digest slot at every turn was most of the slot's
      // CPU). A chat's first job alone stands for it: a chat whose backlog waits for its minute
      // or its second fills no more than one candidate's place, so other chats go ahead.
      const candidates: Entry[] = [];
      let looked = 0;
      let heldFor = Infinity;
      for (const [chatId, fifo] of chats) {
        if (candidates.length >= MAX_CANDIDATES || looked >= MAX_SCANNED) break;
        const until = held.get(chatId) ?? 0;
        if (until > t) {
          heldFor = Math.min(heldFor, until - t);
          continue;
        }
        for (let head = fifo[0]; head !== undefined && looked < MAX_SCANNED; head = fifo[0]) {
          looked++;
          const dropped: DeliveryResult | undefined =
            t > head.job.deadline ? { kind: "expired" } : head.job.live?.() === false ? { kind: "stopped" } : undefined;
          if (dropped === undefined) {
            candidates.push(head);
            break;
          }
          fifo.shift();
          queued--;
          head.resolve(dropped);
        }
        if (fifo.length === 0) chats.delete(chatId);
      }
      if (candidates.length === 0) return { waitMs: heldFor === Infinity ? 0 : Math.max(1, Math.ceil(heldFor)) };
      const slot = await ledger.take(candidates.map((e) => e.job.chatId), t, opts.reservePerChat ?? 0);
      if ("waitMs" in slot) return { waitMs: Math.max(slot.waitMs, 1) };
      const entry = candidates[slot.index] as Entry;
      // Gone meanwhile: the queue stopped and answered it.
      if (!remove(entry)) return { waitMs: 0 };
      // Served: the chat goes behind the others, so that chats with room take turns.
      const fifo = chats.get(entry.job.chatId);
      if (fifo !== undefined) {
        chats.delete(entry.job.chatId);
        chats.set(entry.job.chatId, fifo);
      }
      return { entry, stamp: slot.stamp, at: t };
    });
    turn = step.catch(() => undefined);
    return step;
  };

  const worker = async (): Promise<void> => {
    workers++;
    try {
      while (!stopped && queued > 0) {
        const step = await takeTurn();
        if (!("entry" in step)) {
          if (step.waitMs > 0) await rest(step.waitMs);
          continue;
        }
        const { entry, stamp } = step;
        if (stopped) {
          entry.resolve({ kind: "stopped" });
          break;
        }
        opts.onWait?.(step.at - entry.queuedAt);
        sending++;
        let out: SendOutcome | Unclaimed;
        try {
          out = await entry.job.send();
        } catch (e) {
          out = { kind: "failed", reason: e instanceof Error ? e.message : String(e) };
        } finally {
          sending--;
        }
        await ledger.answered(entry.job.chatId, stamp, now());
        if (out.kind === "retry") {
          // Never resend inside the window, and this job goes first after it. A platform's rate
          // limit holds the whole queue; a limit or a failure of this chat's own holds this chat.
          const until = now() + out.afterMs;
          // Holds past are dropped here, the one place they are added: the map stays small.
          for (const [chatId, at] of held) if (at <= now()) held.delete(chatId);
          if (out.scope === "chat" || out.reason !== undefined) held.set(entry.job.chatId, Math.max(held.get(entry.job.chatId) ?? 0, until));
          else await ledger.pause(until);
          if (out.reason === undefined) opts.onRateLimited?.(out.afterMs);
          // A stop has already answered the queue: queued again, nothing would ever answer it.
          if (stopped) {
            entry.resolve({ kind: "stopped" });
            break;
          }
          const fifo = chats.get(entry.job.chatId) ?? [];
          fifo.unshift(entry);
          queued++;
          toFront(entry.job.chatId, fifo);
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
    while (workers < opts.maxInFlight && workers < queued) void worker();
  };

  return {
    push(job) {
      if (stopped) return Promise.resolve({ kind: "stopped" });
      return new Promise<DeliveryResult>((resolve) => {
        const entry = { job, queuedAt: now(), resolve };
        const fifo = chats.get(job.chatId);
        const newChat = fifo === undefined;
        queued++;
        if (job.urgent === true) {
          // After the chat's urgent jobs, before the rest, and the chat looked at first: behind
          // other chats' backlogs, no turn would see it until they drained.
          const jobs = fifo ?? [];
          let at = 0;
          while (at < jobs.length && jobs[at]?.job.urgent === true) at++;
          jobs.splice(at, 0, entry);
          toFront(job.chatId, jobs);
        } else if (fifo === undefined) chats.set(job.chatId, [entry]);
        else fifo.push(entry);
        if (newChat || job.urgent === true) {
          pushed?.settle();
          pushed = undefined;
        }
        wake();
      });
    },
    async stop() {
      stopped = true;
      wakeAll();
      const all = [...chats.values()].flat();
      chats = new Map();
      queued = 0;
      for (const e of all) e.resolve({ kind: "stopped" });
      if (workers > 0) await new Promise<void>((r) => (idle = r));
    },
    pending: (chatId) => (chatId === undefined ? queued : (chats.get(chatId)?.length ?? 0)),
    inFlight: () => sending,
  };
}
