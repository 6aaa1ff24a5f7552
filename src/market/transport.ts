/**
 * HTTP to the data service: one keep-alive undici Agent for both versions, the credential
 * header of each version and a timeout per attempt. One `send` is one attempt; retries
 * (retry.ts) and pacing (scheduler.ts) are layers around it. Every failure leaves as a
 * `MarketError`; undici's own errors are never passed on, so no header (and so no key) can
 * ride along in a cause.
 */
import { Agent } from "undici";
import { MarketError } from "./errors.js";
import { redact, statusError, type ApiVersion } from "./decode.js";

/** Where one version of the service lives and the key it takes. */
export interface ServiceEndpoint {
  /** Base address without the version prefix, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** API key, sent as `X-API-KEY` (v2) or `Svc-Auth` (v1); never logged or put in errors. */
  key: string;
}

export interface TransportOptions {
  v2: ServiceEndpoint;
  /** Absent when version 1 is not configured: v1 calls then fail before sending. */
  v1?: ServiceEndpoint;
  /** Per-attempt timeout in ms. Default 10000. */
  timeoutMs?: number;
  now: () => number;
}

/** One request as the client describes it. */
export interface Exchange {
  /** Method name of the client, e.g. `tokenDetail`; names the endpoint in errors and logs. */
  endpoint: string;
  version: ApiVersion;
  method: "GET" | "POST";
  /** Path after the base address with segments already encoded, e.g. `/v2/tokens/0xab-eth`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON request body. */
  body?: unknown;
}

/** A 2xx answer's body. */
export interface Answer {
  text: string;
  contentType?: string;
}

const HEADER: Record<ApiVersion, string> = { v2: "x-api-key", v1: "svc-auth" };
// A ranking page of 300 full token records is well under 1 MiB; anything past this is not an answer.
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** `Retry-After` as ms: delta seconds or an HTTP date; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined || v === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function parseBase(name: string, baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`${name}.baseUrl must be an absolute http(s) URL such as https://api.example.com, got "${baseUrl}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${name}.baseUrl must use http or https, got "${url.protocol}"`);
  }
  if (url.search !== "" || url.hash !== "") throw new TypeError(`${name}.baseUrl must not carry a query or fragment`);
  return url;
}

/** Sends exchanges for both versions over one connection pool; shared by every view of a client. */
export class Transport {
  readonly #keys: Partial<Record<ApiVersion, string>>;
  private readonly bases: Partial<Record<ApiVersion, URL>>;
  private readonly agent: Agent;
  readonly timeoutMs: number;
  private readonly now: () => number;
  private closing: Promise<void> | undefined;

  constructor(options: TransportOptions) {
    this.now = options.now;
    this.#keys = { v2: options.v2.key, v1: options.v1?.key };
    this.bases = { v2: parseBase("v2", options.v2.baseUrl), v1: options.v1 && parseBase("v1", options.v1.baseUrl) };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  }

  /** The keys, for redacting text the service sends back. */
  get secrets(): string[] {
    return [this.#keys.v2, this.#keys.v1].filter((k): k is string => k !== undefined);
  }

  /** A refusal before sending when `ex`'s version is not configured. */
  unconfigured(ex: Exchange): MarketError | undefined {
    if (this.bases[ex.version] !== undefined) return undefined;
    return new MarketError({
      endpoint: ex.endpoint,
      kind: "invalid_params",
      message: "version 1 of the service is not configured: give the client a v1 base URL and key (MARKET_API_V1_URL)",
    });
  }

  /**
   * One attempt at `ex`, given up after `timeoutMs` (at most the transport's own timeout):
   * resolves with a 2xx body, rejects with a `MarketError`.
   */
  async send(ex: Exchange, timeoutMs = this.timeoutMs): Promise<Answer> {
    const refused = this.unconfigured(ex);
    if (refused !== undefined) throw refused;
    const outcome = await this.attempt(ex, Math.max(1, Math.min(this.timeoutMs, timeoutMs)));
    if (outcome instanceof MarketError) throw outcome;
    return outcome;
  }

  /**
   * Stops keeping connections open; in-flight requests finish first, or with `abandon` are cut
   * (nobody waits for them any more: a one-shot `ask` has printed its answer). Calling it again is harmless.
   */
  close(abandon = false): Promise<void> {
    this.closing ??= abandon ? this.agent.destroy() : this.agent.close();
    return this.closing;
  }

  /** One attempt: the 2xx answer, or the error it ended in. */
  private async attempt(ex: Exchange, timeoutMs: number): Promise<Answer | MarketError> {
    const base = this.bases[ex.version] as URL;
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(ex.query ?? {})) if (v !== undefined) search.set(k, String(v));
    const qs = search.toString();
    const path = `${base.pathname.replace(/\/+$/, "")}${ex.path}${qs === "" ? "" : `?${qs}`}`;
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": "chainpulse",
      [HEADER[ex.version]]: this.#keys[ex.version] as string,
    };
    if (ex.body !== undefined) headers["content-type"] = "application/json";

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const res = await this.agent.request({
        origin: base.origin,
        path,
        method: ex.method,
        headers,
        body: ex.body === undefined ? undefined : JSON.stringify(ex.body),
        signal: controller.signal,
      });
      const text = await res.body.text();
      const contentType = res.headers["content-type"];
      const answer = {
        status: res.statusCode,
        text,
        retryAfterMs: parseRetryAfter(res.headers["retry-after"], this.now()),
      };
      return statusError(ex.endpoint, answer, this.secrets) ?? { text, contentType: Array.isArray(contentType) ? contentType[0] : contentType };
    } catch (e) {
      return this.failure(ex.endpoint, e, timedOut, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  private failure(endpoint: string, e: unknown, timedOut: boolean, timeoutMs: number): MarketError {
    const code = typeof (e as { code?: unknown })?.code === "string" ? (e as { code: string }).code : undefined;
    const detail = redact(`${code ?? (e as Error)?.name ?? "Error"}: ${(e as Error)?.message ?? String(e)}`, this.secrets);
    const cause = new Error(detail);
    if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
      return new MarketError({ endpoint, kind: "timeout", message: `no answer within ${timeoutMs} ms`, cause });
    }
    if (code === "UND_ERR_RES_EXCEEDED_MAX_SIZE") {
      return new MarketError({ endpoint, kind: "malformed", message: `the answer is larger than ${MAX_RESPONSE_BYTES} bytes`, cause });
    }
    return new MarketError({ endpoint, kind: "network", message: `could not reach the service (${code ?? "connection failed"})`, cause });
  }
}
