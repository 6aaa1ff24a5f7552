/**
 * Every failure of the data service, as one error class with a stable `kind` to branch on.
 * It never holds the API key, request headers or body.
 */
export type MarketErrorKind =
  | "invalid_params" // refused before sending: the caller broke a documented rule
  | "timeout"
  | "network"
  | "unauthorized" // 401: the key is missing or wrong — an operator must fix configuration
  | "quota" // 403: the daily quota is spent
  | "not_found" // 404
  | "rate_limited" // 429
  | "busy" // not sent: the bot's own share of the plan's rate or daily units could not fit it in time
  | "bad_request" // other 4xx (400: the service refused a parameter, e.g. unsupported chain)
  | "server" // 5xx
  | "envelope" // HTTP 200 but a non-success envelope
  | "malformed" // not JSON, truncated JSON, HTML page
  | "shape"; // JSON that does not match the record types

export interface MarketErrorInit {
  kind: MarketErrorKind;
  endpoint: string;
  message: string;
  status?: number;
  /** Envelope `code` (v1, failure bodies) or `status` (v2). */
  code?: number;
  /** Envelope `msg`. */
  msg?: string;
  retryAfterMs?: number;
  /** Requests per second the bot may send (the plan), for saying why it is busy. */
  ratePerSecond?: number;
  /** Path of the bad field for `shape` errors, e.g. `data.pairs[0].reserve0`. */
  path?: string;
  cause?: unknown;
}

const RETRYABLE: ReadonlySet<MarketErrorKind> = new Set(["timeout", "network", "rate_limited", "server"]);

export class MarketError extends Error {
  override readonly name = "MarketError";
  readonly kind: MarketErrorKind;
  /** Which endpoint, e.g. `tokenDetail`. */
  readonly endpoint: string;
  readonly status?: number;
  readonly code?: number;
  readonly msg?: string;
  /** How long until trying again may help, when known (`Retry-After`, queue length, quota reset). */
  readonly retryAfterMs?: number;
  readonly ratePerSecond?: number;
  readonly path?: string;
  /** Whether trying again later may help. */
  readonly retryable: boolean;

  constructor(init: MarketErrorInit) {
    super(`${init.endpoint}: ${init.message}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.code = init.code;
    this.msg = init.msg;
    this.retryAfterMs = init.retryAfterMs;
    this.ratePerSecond = init.ratePerSecond;
    this.path = init.path;
    this.retryable = RETRYABLE.has(init.kind);
  }
}

export function isMarketError(e: unknown): e is MarketError {
  return e instanceof MarketError;
}
