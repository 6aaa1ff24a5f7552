/**
 * Turning an HTTP answer into a record or a `MarketError`: HTTP status first, then the
 * envelope of the version, then the record schema (service-notes.md, "Errors").
 */
import type { z } from "zod";
import { redactSecrets as redact } from "../secrets.js";
import { MarketError } from "./errors.js";
import { v1Envelope, v2Envelope } from "./schemas.js";

/** Which envelope an answer uses: v2 `status` 1 or v1 `code` 0 on success. */
export type ApiVersion = "v1" | "v2";

// Service text echoing the key is safe to keep once it went through the one redactor.
export { redact };

interface FailureBody {
  code?: number;
  msg?: string;
}

/** Reads `{code, msg, data}` from a failure body when there is one; anything else gives nothing. */
function failureBody(text: string): FailureBody {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== "object") return {};
    const { code, status, msg } = parsed as Record<string, unknown>;
    const c = typeof code === "number" ? code : typeof status === "number" ? status : undefined;
    return { code: c, msg: typeof msg === "string" ? msg : undefined };
  } catch {
    return {};
  }
}

/** A body that says it failed: `code` a number other than 0, or `status` a number other than 1. */
function refusalOf(json: unknown): { code: number; msg: string | undefined } | undefined {
  if (json === null || typeof json !== "object") return undefined;
  const { code, status, msg } = json as Record<string, unknown>;
  const failed = typeof code === "number" && code !== 0 ? code : typeof status === "number" && status !== 1 ? status : undefined;
  return failed === undefined ? undefined : { code: failed, msg: typeof msg === "string" ? msg : undefined };
}

/** Status and body of an answer, whatever its status. */
export interface HttpAnswer {
  status: number;
  text: string;
  /** From a `Retry-After` header, already turned into ms. */
  retryAfterMs?: number;
}

/**
 * The error for a non-2xx answer, or `undefined` for 2xx. `secrets` are removed from the
 * service's msg because a service may echo a refused key back.
 */
export function statusError(endpoint: string, answer: HttpAnswer, secrets: readonly string[]): MarketError | undefined {
  const { status } = answer;
  if (status >= 200 && status < 300) return undefined;
  const body = failureBody(answer.text);
  const msg = body.msg === undefined ? undefined : redact(body.msg, secrets);
  const said = msg === undefined || msg === "" ? "" : `: ${msg}`;
  const base = { endpoint, status, code: body.code, msg, retryAfterMs: answer.retryAfterMs };
  if (status === 401) {
    return new MarketError({
      ...base,
      kind: "unauthorized",
      message: `the service refused the API key (HTTP 401${said}); an operator must fix the configured key`,
    });
  }
  if (status === 403) return new MarketError({ ...base, kind: "quota", message: `the daily quota of the API key is spent (HTTP 403${said})` });
  if (status === 404) return new MarketError({ ...base, kind: "not_found", message: `nothing found (HTTP 404${said})` });
  if (status === 429) return new MarketError({ ...base, kind: "rate_limited", message: `too many requests per second (HTTP 429${said})` });
  if (status >= 400 && status < 500) return new MarketError({ ...base, kind: "bad_request", message: `the service refused the request (HTTP ${status}${said})` });
  if (status >= 500) return new MarketError({ ...base, kind: "server", message: `the service failed (HTTP ${status}${said})` });
  return new MarketError({ ...base, kind: "malformed", message: `unexpected HTTP status ${status}` });
}

/** `data.pairs[0].reserve0` from a zod issue path under `data`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "data";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}

function parseJson(endpoint: string, text: string, contentType: string | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const what = text.trim() === "" ? "an empty body" : contentType?.includes("html") || /^\s*</.test(text) ? "an HTML page" : "text that is not JSON";
    // The parser's own message quotes the body, which could echo anything: it is left out.
    throw new MarketError({ endpoint, kind: "malformed", status: 200, message: `the service answered with ${what}` });
  }
}

/**
 * Unwraps a 2xx body: JSON, then the version's envelope (non-success → kind `envelope`), then
 * the record schema (mismatch → kind `shape` with the path of the first bad field).
 */
export function decodeBody<S extends z.ZodType>(
  endpoint: string,
  version: ApiVersion,
  answer: { text: string; contentType?: string },
  schema: S,
  secrets: readonly string[],
): z.output<S> {
  const json = parseJson(endpoint, answer.text, answer.contentType);
  const envelope = version === "v2" ? v2Envelope.safeParse(json) : v1Envelope.safeParse(json);
  if (!envelope.success) {
    // A failure body `{code, msg, data}` sent with HTTP 200 is still a refusal, not a shape bug;
    // a body claiming success (code 0, status 1) whose envelope is broken is a shape bug.
    const refusal = refusalOf(json);
    if (refusal !== undefined) throw envelopeError(endpoint, refusal.code, refusal.msg, secrets);
    const issue = envelope.error.issues[0];
    const field = issue?.path.map(String).join(".") || "body";
    throw new MarketError({ endpoint, kind: "shape", status: 200, path: field, message: `the answer has no ${version} envelope (${field}: ${issue?.message ?? "invalid"})` });
  }
  const env = envelope.data as { status?: number; code?: number; msg?: string; data: unknown };
  const code = version === "v2" ? env.status : env.code;
  const ok = version === "v2" ? 1 : 0;
  if (code !== ok) throw envelopeError(endpoint, code as number, env.msg, secrets);
  const parsed = schema.safeParse(env.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = formatPath(issue?.path ?? []);
    throw new MarketError({ endpoint, kind: "shape", status: 200, path, message: `unexpected record shape at ${path}: ${issue?.message ?? "invalid"}` });
  }
  return parsed.data;
}

function envelopeError(endpoint: string, code: number, rawMsg: string | undefined, secrets: readonly string[]): MarketError {
  const msg = rawMsg === undefined ? undefined : redact(rawMsg, secrets);
  return new MarketError({
    endpoint,
    kind: "envelope",
    status: 200,
    code,
    msg,
    message: `the service answered without success (code ${code}${msg ? `: ${msg}` : ""})`,
  });
}
