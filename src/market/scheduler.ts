/**
 * One scheduler per API key: every upstream call waits here for its turn. Calls leave spaced
 * a little over `1000 / rps` ms apart (the service counts per second, so a burst at a second's
 * boundary would double the rate it sees), in strict lanes (scheduler-lanes.ts), within the day's
 * compute units (quota-ledger.ts).
 *
 * Nothing queues without bound: a call identical to one already queued is that call; a lane
 * past its length refuses more; a call with a deadline that cannot start in time is refused
 * at once with how long a new one would wait, so the asker can answer from the cache instead.
 * What the service says is believed: a 429 pauses the key for its `Retry-After`, a 403 daily
 * limit stops every call until the quota returns.
 */
import type { Logger } from "pino";
import { MarketError } from "./errors.js";
import { DailyUnits } from "./quota-ledger.js";
import { LANES, type Lane } from "./scheduler-lanes.js";
import { inProcessGate, type SpacingGate } from "./spacing-gate.js";

export { LANES, DIGEST_LANE, type Lane } from "./scheduler-lanes.js";

/** One call as the scheduler sees it. */
export interface Job<T> {
  lane: Lane;
  /** Endpoint name, for errors and metrics. */
  endpoint: string;
  /** Compute units the call costs. */
  units: number;
  /** Same key while queued = same call: the later asker shares the earlier one's answer. */
  key?: string;
  /** Epoch ms by which the asker needs the answer; a call that cannot start in time is refused. */
  deadline?: number;
  /** Refused too when one more turn of the pace would not fit after it before `deadline` (Ask.leaveOneTurn). */
  leaveOneTurn?: boolean;
  send(): Promise<T>;
}

/** A call leaving the queue, for metrics. */
export interface DispatchEvent {
  lane: Lane;
  endpoint: string;
  /** Time it waited in its lane. */
  waitedMs: number;
  units: number;
}

export interface SchedulerOptions {
  /** The plan's requests per second; undefined or 0 = no spacing. */
  rps?: number;
  /** The day's compute units; default counts without pacing. */
  units?: DailyUnits;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Longest queue per lane. Defaults: people 1000, alerts 5000, feed 1000, digest 5000, refresh 1000. */
  maxQueued?: Partial<Record<Lane, number>>;
  /**
   * Lanes held to a share of `rps` (0 < share ≤ 1): their calls leave at most `share · rps` a
   * second, whatever else is waiting, so a lane that could always fill the plan (the buy feed)
   * leaves the rest to the lanes below it. Default none.
   */
  laneShares?: Partial<Record<Lane, number>>;
  /** Shortest useful attempt: a call that cannot start this long before its deadline is refused. Default 250. */
  minAttemptMs?: number;
  logger?: Logger;
  onDispatch?: (e: DispatchEvent) => void;
  /** Each call's turn among all workers spending this key; default none beyond this scheduler's spacing. */
  gate?: SpacingGate;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Queued {
  lane: Lane;
  endpoint: string;
  units: number;
  key?: string;
  deadline?: number;
  send(): Promise<unknown>;
  enqueuedAt: number;
  waiters: Waiter[];
}

const DEFAULT_MAX_QUEUED: Readonly<Record<Lane, number>> = { people: 1000, alerts: 5000, feed: 1000, digest: 5000, refresh: 1000 };
/** Without `Retry-After`, a 429 pauses the key this long: the service counts per second. */
const RATE_PAUSE_MS = 1000;
/**
 * Calls leave 5 % further apart than the plan's rate: the service counts whole seconds of
 * arrival, and a call delayed a few ms on its way would otherwise share a second with the next.
 */
export const SPACING_MARGIN = 1.05;
/** Longest single sleep, so a long pause or pacing wait looks at the queue again now and then. */
const MAX_SLEEP_MS = 60_000;
/** Weight of the latest wait for a shared turn in the running estimate of the next one. */
const TURN_WEIGHT = 0.5;

/** The default `sleep`: a real timer. */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const rank = (lane: Lane): number => LANES.indexOf(lane);

function clockOf(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

export class Scheduler {
  readonly rps: number | undefined;
  readonly units: DailyUnits;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxQueued: Record<Lane, number>;
  private readonly minAttemptMs: number;
  private readonly logger: Logger | undefined;
  private readonly onDispatch: ((e: DispatchEvent) => void) | undefined;
  private readonly gate: SpacingGate;
  private readonly queues: Record<Lane, Queued[]> = { people: [], alerts: [], feed: [], digest: [], refresh: [] };
  /** Spacing of each lane held to a share: ms between two of its calls. */
  private readonly laneIntervalMs = new Map<Lane, number>();
  /** When a lane held to a share may send again. */
  private readonly laneFreeAt = new Map<Lane, number>();
  private readonly byKey = new Map<string, Queued>();
  private nextFreeAt = Number.NEGATIVE_INFINITY;
  /** A 429's `Retry-After`: nothing leaves before this. */
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** The daily limit was reached: nothing is sent before this. */
  private quotaBackAt = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** When the scheduled wake-up falls, if one is scheduled. */
  private wakingAt = Number.NEGATIVE_INFINITY;
  /**
   * A call of this scheduler waits for its turn in the shared gate, since this epoch ms. The
   * next one leaves the queue only after it: calls of several workers would otherwise pile up
   * in the gate past their askers' deadlines, where nothing refuses them in time.
   */
  private turningSince: number | undefined;
  /** How long a shared turn takes lately, ms: the other workers' calls before each of ours. */
  private turnMs = 0;

  constructor(opts: SchedulerOptions) {
    const rps = opts.rps ?? 0;
    if (!Number.isFinite(rps) || rps < 0) {
      throw new RangeError(`rps must be a positive number of requests per second or undefined for no limit, got ${rps}`);
    }
    this.rps = rps > 0 ? rps : undefined;
    this.intervalMs = rps > 0 ? (1000 / rps) * SPACING_MARGIN : 0;
    this.now = opts.now;
    this.sleep = opts.sleep;
    this.units = opts.units ?? new DailyUnits({ now: opts.now });
    this.maxQueued = { ...DEFAULT_MAX_QUEUED, ...opts.maxQueued };
    this.minAttemptMs = opts.minAttemptMs ?? 250;
    this.logger = opts.logger;
    this.onDispatch = opts.onDispatch;
    this.gate = opts.gate ?? inProcessGate;
    for (const lane of LANES) {
      const share = opts.laneShares?.[lane];
      if (share === undefined) continue;
      if (!Number.isFinite(share) || share <= 0 || share > 1) throw new RangeError(`the ${lane} lane's share must be above 0 and at most 1, got ${share}`);
      if (this.intervalMs > 0) this.laneIntervalMs.set(lane, this.intervalMs / share);
    }
  }

  /** Calls a second `lane` may send: the plan's rate, or its share of it; undefined without a rate. */
  laneRate(lane: Lane): number | undefined {
    if (this.rps === undefined) return undefined;
    const spacing = this.laneIntervalMs.get(lane);
    return spacing === undefined ? this.rps : this.rps * (this.intervalMs / spacing);
  }

  /** Calls waiting per lane. */
  get depth(): Record<Lane, number> {
    return {
      people: this.queues.people.length, alerts: this.queues.alerts.length, feed: this.queues.feed.length,
      digest: this.queues.digest.length, refresh: this.queues.refresh.length,
    };
  }

  /** When the daily limit was reached and has not yet returned, the epoch ms it returns. */
  get quotaReturnsAt(): number | undefined {
    return this.now() < this.quotaBackAt ? this.quotaBackAt : undefined;
  }

  /**
   * Refuses every queued call and every later one: a stop does not wait behind calls that
   * would leave one a second. Calls already sent finish.
   */
  close(): void {
    this.closed = true;
    for (const lane of LANES) {
      for (const q of this.queues[lane].splice(0)) {
        this.forget(q);
        const error = this.closing(q.endpoint);
        for (const w of q.waiters) w.reject(error);
      }
    }
  }

  /** Resolves with `job.send()`'s answer once its turn comes; rejects with a `MarketError` when refused. */
  run<T>(job: Job<T>): Promise<T> {
    if (this.closed) return Promise.reject(this.closing(job.endpoint));
    const t = this.now();
    const refusal = this.refusal(job, t);
    if (refusal !== undefined) return Promise.reject(refusal);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { resolve: resolve as (v: unknown) => void, reject };
      const same = job.key === undefined ? undefined : this.byKey.get(job.key);
      if (same !== undefined) {
        this.merge(same, job, waiter);
      } else {
        const queue = this.queues[job.lane];
        if (queue.length >= this.maxQueued[job.lane]) {
          reject(this.busy(job.endpoint, job.lane, t, `the ${job.lane} lane already holds ${queue.length} calls`));
          return;
        }
        const queued: Queued = { ...job, enqueuedAt: t, waiters: [waiter] };
        queue.push(queued);
        if (job.key !== undefined) this.byKey.set(job.key, queued);
      }
      this.pump();
    });
  }

  /** Why `job` cannot be queued now, if it cannot. */
  private refusal(job: Job<unknown>, t: number): MarketError | undefined {
    if (t < this.quotaBackAt) return this.quotaSpent(job.endpoint, t);
    if (job.deadline === undefined) return undefined;
    const start = this.earliestStart(job.lane, job.units, t);
    if (start + this.minAttemptMs + (job.leaveOneTurn === true ? this.intervalMs : 0) <= job.deadline) return undefined;
    if (this.pausedUntil >= start) {
      return new MarketError({
        kind: "rate_limited",
        endpoint: job.endpoint,
        message: `the service asked for a pause until ${new Date(this.pausedUntil).toISOString()} (Retry-After)`,
        retryAfterMs: this.pausedUntil - t,
        ratePerSecond: this.rps,
      });
    }
    // The pace is the reason when it holds the call longer than the calls ahead would: the
    // start above already includes the pace, so measured against it any call ahead read as busy.
    const paced = this.units.waitFor(job.lane, job.units);
    if (paced > 0 && t + paced >= this.earliestStart(job.lane, 0, t)) return this.paced(job.endpoint, paced);
    return this.busy(job.endpoint, job.lane, t, `it could start at the earliest in ${Math.round(start - t)} ms`);
  }

  private paced(endpoint: string, wait: number): MarketError {
    return new MarketError({
      kind: "quota",
      endpoint,
      message: `not sent: the day's compute units are paced: ${this.units.spent} of ${this.units.daily} spent`,
      retryAfterMs: wait,
    });
  }

  /**
   * Why a queued call whose deadline passed was never sent, in the words of what held it: the
   * day's pace, the service's pause, or the calls ahead of it. The service received nothing.
   */
  private held(q: Queued, lane: Lane, t: number): MarketError {
    const paced = this.units.waitFor(lane, q.units);
    if (paced > 0) return this.paced(q.endpoint, paced);
    if (this.pausedUntil > t) {
      return new MarketError({
        kind: "rate_limited", endpoint: q.endpoint, message: "not sent: the service asked for a pause (Retry-After)", retryAfterMs: this.pausedUntil - t, ratePerSecond: this.rps,
      });
    }
    return this.busy(q.endpoint, lane, t, "its deadline passed while it waited");
  }

  /** The earliest a new call of `lane` could leave: after everything of its lane and above. */
  private earliestStart(lane: Lane, units: number, t: number): number {
    let ahead = 0;
    for (const l of LANES) {
      if (rank(l) > rank(lane)) break;
      ahead += this.queues[l].length;
    }
    const turn = this.gate.shared ? this.turnMs : 0;
    const turnFree = this.turningSince === undefined ? Number.NEGATIVE_INFINITY : this.turningSince + turn;
    const gate = Math.max(t, this.nextFreeAt, this.pausedUntil, turnFree, t + this.units.waitFor(lane, units));
    return gate + ahead * Math.max(this.intervalMs, turn) + turn;
  }

  private busy(endpoint: string, lane: Lane, t: number, why: string): MarketError {
    return new MarketError({
      kind: "busy",
      endpoint,
      message: `not sent: ${why}`,
      retryAfterMs: Math.max(this.intervalMs, this.earliestStart(lane, 0, t) - t),
      ratePerSecond: this.rps,
    });
  }

  private closing(endpoint: string): MarketError {
    return new MarketError({ kind: "network", endpoint, message: "not sent: the client is closing" });
  }

  private quotaSpent(endpoint: string, t: number): MarketError {
    return new MarketError({
      kind: "quota",
      endpoint,
      status: 403,
      message: `not sent: the daily limit was reached; it returns at ${clockOf(this.quotaBackAt)} UTC`,
      retryAfterMs: this.quotaBackAt - t,
    });
  }

  /** `job` is the queued call `same`: it moves up to the higher lane and waits as long as the more patient asker. */
  private merge(same: Queued, job: Job<unknown>, waiter: Waiter): void {
    same.waiters.push(waiter);
    same.deadline = same.deadline === undefined || job.deadline === undefined ? undefined : Math.max(same.deadline, job.deadline);
    if (rank(job.lane) >= rank(same.lane)) return;
    const from = this.queues[same.lane];
    from.splice(from.indexOf(same), 1);
    same.lane = job.lane;
    this.queues[job.lane].push(same);
  }

  private pump(): void {
    for (;;) {
      const t = this.now();
      this.expire(t);
      const gate = Math.max(this.nextFreeAt, this.pausedUntil);
      let wakeAt = Number.POSITIVE_INFINITY;
      let next: Queued | undefined;
      for (const lane of LANES) {
        const head = this.queues[lane][0];
        if (head === undefined) continue;
        const laneFree = this.laneFreeAt.get(lane) ?? Number.NEGATIVE_INFINITY;
        if (t < laneFree) {
          wakeAt = Math.min(wakeAt, laneFree);
          continue;
        }
        const paced = this.units.waitFor(lane, head.units);
        if (paced === 0) {
          next = head;
          break;
        }
        wakeAt = Math.min(wakeAt, t + paced);
      }
      // A call held past its deadline is refused then, saying what held it, not left for its
      // asker to give up on as if the service had not answered.
      wakeAt = Math.min(wakeAt, this.nextExpiry());
      // A call waiting for its shared turn wakes the queue when it gets it.
      if (next !== undefined && this.turningSince !== undefined) next = undefined;
      if (next !== undefined && t < gate) wakeAt = Math.min(wakeAt, gate);
      else if (next !== undefined) {
        this.dispatch(next, t);
        continue;
      }
      if (wakeAt === Number.POSITIVE_INFINITY) return;
      const ms = Math.min(MAX_SLEEP_MS, Math.max(1, wakeAt - t));
      // One wake-up at a time, unless new work needs an earlier one (a person behind a paced refresh).
      if (this.wakingAt > t && this.wakingAt <= t + ms) return;
      const at = t + ms;
      this.wakingAt = at;
      void this.sleep(ms).then(() => {
        if (this.wakingAt === at) this.wakingAt = Number.NEGATIVE_INFINITY;
        this.pump();
      });
      return;
    }
  }

  /** Refuses queued calls whose askers can no longer be answered in time. */
  private expire(t: number): void {
    for (const lane of LANES) {
      const queue = this.queues[lane];
      for (let i = 0; i < queue.length; ) {
        const q = queue[i] as Queued;
        if (q.deadline === undefined || t + this.minAttemptMs <= q.deadline) {
          i++;
          continue;
        }
        queue.splice(i, 1);
        this.forget(q);
        const error = this.held(q, lane, t);
        for (const w of q.waiters) w.reject(error);
      }
    }
  }

  /** When the first queued call's deadline leaves too little time for an attempt. */
  private nextExpiry(): number {
    let at = Number.POSITIVE_INFINITY;
    for (const lane of LANES) for (const q of this.queues[lane]) if (q.deadline !== undefined) at = Math.min(at, q.deadline - this.minAttemptMs + 1);
    return at;
  }

  private forget(q: Queued): void {
    if (q.key !== undefined && this.byKey.get(q.key) === q) this.byKey.delete(q.key);
  }

  private dispatch(q: Queued, t: number): void {
    this.queues[q.lane].shift();
    this.forget(q);
    this.nextFreeAt = t + this.intervalMs;
    const spacing = this.laneIntervalMs.get(q.lane);
    if (spacing !== undefined) this.laneFreeAt.set(q.lane, t + spacing);
    this.units.charge(q.units, q.lane);
    try {
      this.onDispatch?.({ lane: q.lane, endpoint: q.endpoint, waitedMs: t - q.enqueuedAt, units: q.units });
    } catch (e) {
      this.logger?.warn({ err: e instanceof Error ? e.message : String(e) }, "scheduler onDispatch hook threw");
    }
    // The shared turn comes after this scheduler's own: a call waits here only for other workers' calls.
    const sent = (this.gate.shared ? this.sharedTurn(t) : this.gate.turn()).then(() => q.send());
    sent.then(
      (value) => {
        for (const w of q.waiters) w.resolve(value);
      },
      (error: unknown) => {
        const told = this.learn(error);
        for (const w of q.waiters) w.reject(told);
      },
    );
  }

  /** The gate's turn for one call, the queue held until it comes, its wait learnt for the estimates of later calls. */
  private async sharedTurn(t: number): Promise<void> {
    this.turningSince = t;
    try {
      await this.gate.turn();
    } finally {
      this.turnMs = this.turnMs * (1 - TURN_WEIGHT) + Math.max(0, this.now() - t) * TURN_WEIGHT;
      this.turningSince = undefined;
      this.pump();
    }
  }

  /**
   * What a failed call tells about the key: a pause asked for, or the day's units spent. Returns
   * the error its callers get: the call that met the daily limit is told when the quota returns,
   * as every call refused after it is, so its answer says when too.
   */
  private learn(error: unknown): unknown {
    if (!(error instanceof MarketError)) return error;
    const t = this.now();
    if (error.kind === "rate_limited") {
      this.pausedUntil = Math.max(this.pausedUntil, t + (error.retryAfterMs ?? RATE_PAUSE_MS));
      return error;
    }
    if (error.kind !== "quota" || error.status !== 403) return error;
    if (t >= this.quotaBackAt) this.quotaReached(error, t);
    if (error.retryAfterMs !== undefined || t >= this.quotaBackAt) return error;
    return new MarketError({
      kind: "quota", endpoint: error.endpoint, status: error.status, code: error.code, msg: error.msg, path: error.path,
      message: `the daily limit was reached; it returns at ${clockOf(this.quotaBackAt)} UTC`, retryAfterMs: this.quotaBackAt - t, cause: error,
    });
  }

  /** The day's units are spent: every call waits for the quota to return, queued ones are refused. */
  private quotaReached(error: MarketError, t: number): void {
    this.quotaBackAt = t + (error.retryAfterMs ?? this.units.untilReset());
    this.units.exhausted();
    const inMinutes = Math.round((this.quotaBackAt - t) / 60_000);
    this.logger?.warn(
      { endpoint: error.endpoint, returnsAt: new Date(this.quotaBackAt).toISOString(), inMinutes },
      `market daily quota spent: answers come from the cache until it returns at ${clockOf(this.quotaBackAt)} UTC (in ${inMinutes} min)`,
    );
    for (const lane of LANES) {
      for (const q of this.queues[lane].splice(0)) {
        this.forget(q);
        const refused = this.quotaSpent(q.endpoint, t);
        for (const w of q.waiters) w.reject(refused);
      }
    }
  }
}
