/**
 * Parameter checks with the service's answers (service-notes.md, Errors): the sandbox
 * rejects rather than clamps, with 400 and a short message naming the parameter.
 */
import { splitId } from "../market/ids.js";
import { chainDef } from "./chains.js";

/** A refusal: HTTP status plus the failure body `{code, msg, data: {}}`. */
export class HttpFail extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly code = status >= 500 ? 2 : 1,
  ) {
    super(msg);
  }
}

export const NOT_FOUND = "Not found any matched results";

export function badParam(name: string): HttpFail {
  return new HttpFail(400, `invalid parameter: ${name}`);
}

export function unsupportedChain(): HttpFail {
  return new HttpFail(400, "unsupported chain");
}

export function notFound(): HttpFail {
  return new HttpFail(404, NOT_FOUND);
}

export interface IntRule {
  default?: number;
  min?: number;
  max?: number;
}

/** Integer query parameter: absent → default (or 400 when there is none), non-integer or out of range → 400. */
export function intParam(q: URLSearchParams, name: string, rule: IntRule): number {
  const raw = q.get(name);
  if (raw === null || raw === "") {
    if (rule.default === undefined) throw badParam(name);
    return rule.default;
  }
  if (!/^-?\d{1,16}$/.test(raw)) throw badParam(name);
  const n = Number(raw);
  if ((rule.min !== undefined && n < rule.min) || (rule.max !== undefined && n > rule.max)) throw badParam(name);
  return n;
}

/** String parameter from a fixed set; absent → default (or 400 when there is none). */
export function choiceParam<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[], fallback?: T): T {
  const raw = q.get(name);
  if (raw === null || raw === "") {
    if (fallback === undefined) throw badParam(name);
    return fallback;
  }
  if (!(allowed as readonly string[]).includes(raw)) throw badParam(name);
  return raw as T;
}

/** A supported chain name from the query (required unless `optional`). */
export function chainParam(q: URLSearchParams, name: string, opts: { optional: true }): string | undefined;
export function chainParam(q: URLSearchParams, name: string): string;
export function chainParam(q: URLSearchParams, name: string, opts?: { optional: true }): string | undefined {
  const raw = q.get(name);
  if (raw === null || raw === "") {
    if (opts?.optional) return undefined;
    throw badParam(name);
  }
  if (!chainDef(raw)) throw unsupportedChain();
  return raw;
}

/** An id `<address>-<chain>` whose chain is supported; 400 when malformed or the chain is not. */
export function idParam(id: string, name: string): { address: string; chain: string } {
  const parts = splitId(id);
  if (!parts) throw badParam(name);
  if (!chainDef(parts.chain)) throw unsupportedChain();
  return parts;
}
