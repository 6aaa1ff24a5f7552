/**
 * `MarketClient`: the data service over HTTP (market-api.md, service-notes.md). Three layers,
 * each readable and testable alone: the retry (retry.ts) around the scheduler of the key's
 * quota (scheduler.ts) around one HTTP attempt (transport.ts). One client serves every lane:
 * itself for people, `lane(...)` and `background()` views for scheduled work; a call inside an
 * ask (ask.ts) takes the ask's lane and deadline.
 */
import type { SpacingGate } from "./spacing-gate.js";
import type { Logger } from "pino";
import type { z } from "zod";
import type { MarketApi } from "./api.js";
import { currentAsk, timeLeft } from "./ask.js";
import { unitsOf } from "./cost.js";
import { decodeBody } from "./decode.js";
import { MarketEndpoints, type CallSpec, type Caller } from "./endpoints.js";
import { MarketError, type MarketErrorKind } from "./errors.js";
import { DailyUnits, type UnitLedger } from "./quota-ledger.js";
import { Retry, type RetryOptions } from "./retry.js";
import { DIGEST_LANE, realSleep, Scheduler, type DispatchEvent, type Lane } from "./scheduler.js";
import { Transport, type ServiceEndpoint } from "./transport.js";

export type { ServiceEndpoint } from "./transport.js";
export type { RetryOptions } from "./retry.js";
export type { DispatchEvent, Lane } from "./scheduler.js";

/** One call (one chunk of a batch, all its attempts) or one refusal before sending, for metrics. */
export interface MarketCallEvent {
  /** Method name, e.g. `tokenDetail`. */
  endpoint: string;
  outcome: "ok" | MarketErrorKind;
  /** From the call's start to its end, including quota waits and retries. */
  ms: number;
  /** Time spent waiting for the scheduler, over all attempts. */
  queuedMs: number;
  /** HTTP attempts made; 0 for a refusal before sending. */
  attempts: number;
  lane: Lane;
  /** HTTP status of the last answer, when there was one. */
  status?: number;
}

export interface MarketClientOptions {
  /** Version 2: base address and key (sent as `X-API-KEY`). */
  v2: ServiceEndpoint;
  /** Version 1: base address and key (sent as `Svc-Auth`). Absent: v1 calls fail before sending (kind `invalid_params`). */
  v1?: ServiceEndpoint;
  /** Per-attempt timeout in ms. Default 10000. */
  timeoutMs?: number;
  /** Retries of timeouts, network errors, 5xx and 429. Defaults: 3 attempts, 15000 ms budget, 200 ms base delay. */
  retry?: RetryOptions;
  /** Requests per second the scheduler keeps to (the plan's rate). Default unlimited. */
  rps?: number;
  /** Compute units per UTC day of the key; the scheduler paces the day's spend to last. Default unpaced. */
  dailyUnits?: number;
  /** Where the day's spend is counted; default in this process. */
  unitLedger?: UnitLedger;
  /** Lanes held to a share of the rate and of the day's units (the buy feed's `BUYS_RATE_SHARE`). Default none. */
  laneShares?: Partial<Record<Lane, number>>;
  /** Most chunks of one batch-price call in flight at once. Default 4. */
  concurrency?: number;
  logger?: Logger;
  /** Clock in epoch ms, for tests. Default `Date.now`. */
  now?: () => number;
  /** Waits for backoff and pacing, for tests. Default a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1), for tests. Default `Math.random`. */
  random?: () => number;
  /** Called after every call and every refusal; it must not throw. */
  onCall?: (event: MarketCallEvent) => void;
  /** Called as each HTTP attempt leaves the scheduler; it must not throw. */
  onDispatch?: (event: DispatchEvent) => void;
  /** Each call's turn among every worker spending the key (redis/spacing-gate.ts); default this process's spacing alone. */
  gate?: SpacingGate;
}

/** What a call cost, filled in as it goes so that failures report it too. */
interface CallStats {
  attempts: number;
  queuedMs: number;
}

/** A stable name of one request: identical requests queued at once are sent once. */
function requestKey(spec: CallSpec<z.ZodType>): string {
  return `${spec.version} ${spec.method} ${spec.path} ${JSON.stringify(spec.query ?? {})} ${JSON.stringify(spec.body ?? null)}`;
}

/** Sends, decodes, times and reports; shared by both views. */
class ClientCore implements Caller {
  readonly concurrency: number;
  readonly scheduler: Scheduler;
  private readonly transport: Transport;
  private readonly retry: Retry;
  private readonly now: () => number;
  private readonly logger: Logger | undefined;
  private readonly onCall: ((event: MarketCallEvent) => void) | undefined;
  private closed = false;

  constructor(options: MarketClientOptions) {
    this.concurrency = options.concurrency ?? 4;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${options.concurrency}`);
    }
    this.now = options.now ?? Date.now;
    const sleep = options.sleep ?? realSleep;
    this.logger = options.logger;
    this.onCall = options.onCall;
    this.transport = new Transport({ v2: options.v2, v1: options.v1, timeoutMs: options.timeoutMs, now: this.now });
    this.retry = new Retry(options.retry ?? {}, { now: this.now, sleep, random: options.random ?? Math.random, logger: options.logger });
    const units = new DailyUnits({
      dailyUnits: options.dailyUnits,
      ledger: options.unitLedger,
      now: this.now,
      onLedgerError: (e) => this.logger?.warn({ err: e instanceof Error ? e.message : String(e) }, "compute-unit ledger failed; counting locally"),
      shares: options.laneShares,
    });
    this.scheduler = new Scheduler({
      rps: options.rps, units, now: this.now, sleep, logger: options.logger, onDispatch: options.onDispatch, gate: options.gate, laneShares: options.laneShares,
    });
  }

  async call<S extends z.ZodType>(spec: CallSpec<S>, viewLane: Lane): Promise<z.output<S>> {
    const started = this.now();
    const ask = currentAsk();
    const lane = ask?.lane ?? viewLane;
    const left = timeLeft(ask);
    const deadline = left === undefined ? undefined : started + left;
    const stats: CallStats = { attempts: 0, queuedMs: 0 };
    try {
      const refused = this.transport.unconfigured(spec);
      if (refused !== undefined) throw refused;
      const key = requestKey(spec);
      const units = unitsOf(spec.endpoint);
      const answer = await this.retry.run({ endpoint: spec.endpoint, deadline }, (n, leaving) => {
        const queuedAt = this.now();
        return this.scheduler.run({
          lane,
          endpoint: spec.endpoint,
          units,
          key,
          deadline,
          ...(ask?.leaveOneTurn === true ? { leaveOneTurn: true } : {}),
          send: () => {
            stats.attempts = n;
            stats.queuedMs += this.now() - queuedAt;
            return this.transport.send(spec, leaving());
          },
        });
      });
      const data = decodeBody(spec.endpoint, spec.version, answer, spec.schema, this.transport.secrets);
      this.report({ endpoint: spec.endpoint, outcome: "ok", ms: this.now() - started, ...stats, lane, status: 200 });
      return data;
    } catch (e) {
      const error = e instanceof MarketError ? e : this.unexpected(spec.endpoint, e);
      this.report({ endpoint: spec.endpoint, outcome: error.kind, ms: this.now() - started, ...stats, lane, status: error.status });
      this.logFailure(error, stats.attempts);
      throw error;
    }
  }

  refused(error: MarketError, lane: Lane): void {
    this.report({ endpoint: error.endpoint, outcome: error.kind, ms: 0, queuedMs: 0, attempts: 0, lane });
    this.logger?.debug({ endpoint: error.endpoint, kind: error.kind, err: error.message }, "market call refused before sending");
  }

  close(abandon = false): Promise<void> {
    this.closed = true;
    this.scheduler.close();
    return this.transport.close(abandon);
  }

  /** A bug of ours (not the service's) still leaves as a MarketError, as MarketApi promises. */
  private unexpected(endpoint: string, e: unknown): MarketError {
    return new MarketError({ endpoint, kind: "malformed", message: `the answer could not be read (${e instanceof Error ? e.name : typeof e})` });
  }

  private report(event: MarketCallEvent): void {
    if (this.onCall === undefined) return;
    try {
      this.onCall(event);
    } catch (e) {
      this.logger?.warn({ err: e instanceof Error ? e.message : String(e) }, "market onCall hook threw");
    }
  }

  private logFailure(error: MarketError, attempts: number): void {
    const fields = { endpoint: error.endpoint, kind: error.kind, status: error.status, code: error.code, serviceMsg: error.msg, path: error.path, attempts };
    // Closing, the client itself cuts what is queued or in flight (`ask` leaves a background
    // refresh behind): that tells an operator nothing of the service.
    if (this.closed) {
      this.logger?.debug(fields, "market call cut short: the client is closing");
      return;
    }
    // A 404 is an everyday answer (unknown token), and a call the bot's own pacing kept back
    // never reached the service (on the free plan that is every busy minute; once the day's
    // quota is spent, every call until it returns, which the scheduler says once); the rest
    // tell an operator something.
    if (attempts === 0 && (error.kind === "busy" || error.kind === "quota")) {
      this.logger?.debug({ endpoint: error.endpoint, kind: error.kind, err: error.message }, "market call refused before sending");
    } else if (error.kind === "not_found") this.logger?.debug(fields, "market call failed");
    else this.logger?.warn(fields, "market call failed");
  }
}

/**
 * The typed client of the data service, for people's lookups. Every method checks its
 * parameters before sending (kind `invalid_params`) and rejects only with `MarketError`.
 */
export class MarketClient extends MarketEndpoints {
  readonly #core: ClientCore;
  readonly #views = new Map<Lane, MarketApi>();

  constructor(options: MarketClientOptions) {
    const core = new ClientCore(options);
    super(core, "people");
    this.#core = core;
  }

  /** The key's scheduler: queue depth per lane, the day's units, the daily limit. */
  get scheduler(): Scheduler {
    return this.#core.scheduler;
  }

  /** The same client on `lane`: same connections and quota, served after the lanes above it. */
  onLane(lane: Lane): MarketApi {
    let view = this.#views.get(lane);
    if (view === undefined) this.#views.set(lane, (view = new MarketEndpoints(this.#core, lane)));
    return view;
  }

  /** The client for digests (the digest lane). */
  background(): MarketApi {
    return this.onLane(DIGEST_LANE);
  }

  /** Refuses calls still waiting for their turn, closes idle connections and waits for requests in flight (or, with `abandon`, cuts them). */
  close(opts: { abandon?: boolean } = {}): Promise<void> {
    return this.#core.close(opts.abandon);
  }
}
