/**
 * `MarketClient`: the data service over HTTP (market-api.md, service-notes.md). One undici
 * Agent and one rate limiter serve two views: the client itself for interactive calls and
 * `background()` for scheduled work, which waits behind them for quota.
 */
import type { Logger } from "pino";
import type { z } from "zod";
import type { MarketApi } from "./api.js";
import { decodeBody } from "./decode.js";
import { MarketEndpoints, type CallSpec, type Caller } from "./endpoints.js";
import { MarketError, type MarketErrorKind } from "./errors.js";
import { RateLimiter, realSleep, type Lane } from "./rate-limiter.js";
import { Transport, type ExchangeStats, type RetryOptions, type ServiceEndpoint } from "./transport.js";

export type { RetryOptions, ServiceEndpoint } from "./transport.js";
export type { Lane } from "./rate-limiter.js";

/** One HTTP call (one chunk of a batch) or one refusal before sending, for metrics. */
export interface MarketCallEvent {
  /** Method name, e.g. `tokenDetail`. */
  endpoint: string;
  outcome: "ok" | MarketErrorKind;
  /** From the call's start to its end, including quota waits and retries. */
  ms: number;
  /** Time spent waiting for the client-side rate limiter, over all attempts. */
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
  /** Requests per second kept by the client-side limiter (the plan's rate). Default unlimited. */
  rps?: number;
  /** Most chunks of one batch-price call in flight at once. Default 4. */
  concurrency?: number;
  logger?: Logger;
  /** Clock in epoch ms, for tests. Default `Date.now`. */
  now?: () => number;
  /** Waits for backoff and pacing, for tests. Default a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1), for tests. Default `Math.random`. */
  random?: () => number;
  /** Called after every HTTP call and every refusal; it must not throw. */
  onCall?: (event: MarketCallEvent) => void;
}

/** Sends, decodes, times and reports; shared by both views. */
class ClientCore implements Caller {
  readonly concurrency: number;
  private readonly transport: Transport;
  private readonly now: () => number;
  private readonly logger: Logger | undefined;
  private readonly onCall: ((event: MarketCallEvent) => void) | undefined;

  constructor(options: MarketClientOptions) {
    this.concurrency = options.concurrency ?? 4;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${options.concurrency}`);
    }
    this.now = options.now ?? Date.now;
    const sleep = options.sleep ?? realSleep;
    this.logger = options.logger;
    this.onCall = options.onCall;
    this.transport = new Transport({
      v2: options.v2,
      v1: options.v1,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      limiter: new RateLimiter({ rps: options.rps, now: this.now, sleep }),
      now: this.now,
      sleep,
      random: options.random,
      logger: options.logger,
    });
  }

  async call<S extends z.ZodType>(spec: CallSpec<S>, lane: Lane): Promise<z.output<S>> {
    const started = this.now();
    const stats: ExchangeStats = { attempts: 0, queuedMs: 0 };
    try {
      const answer = await this.transport.exchange({ ...spec, lane }, stats);
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

  close(): Promise<void> {
    return this.transport.close();
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
    // A 404 is an everyday answer (unknown token); the rest tell an operator something.
    if (error.kind === "not_found") this.logger?.debug(fields, "market call failed");
    else this.logger?.warn(fields, "market call failed");
  }
}

/**
 * The typed client of the data service, for interactive calls. Every method checks its
 * parameters before sending (kind `invalid_params`) and rejects only with `MarketError`.
 */
export class MarketClient extends MarketEndpoints {
  readonly #core: ClientCore;
  readonly #background: MarketApi;

  constructor(options: MarketClientOptions) {
    const core = new ClientCore(options);
    super(core, "interactive");
    this.#core = core;
    this.#background = new MarketEndpoints(core, "background");
  }

  /** The same client for scheduled work (digests): same connections and rate limit, served after interactive calls. */
  background(): MarketApi {
    return this.#background;
  }

  /** Closes idle connections and waits for requests in flight. */
  close(): Promise<void> {
    return this.#core.close();
  }
}
