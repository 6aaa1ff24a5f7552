/**
 * Fault injection: which requests misbehave and how. Decisions draw from a generator seeded
 * with the sandbox's seed and restarted whenever the faults change, so a test sees the same
 * requests fail on every run.
 */
import { Rng } from "./rng.js";
import { ENDPOINT_NAMES } from "./router.js";

export const FAULT_KINDS = ["latency", "hang", "http5xx", "rate429", "envelope", "malformed", "truncated", "wrongType"] as const;
/**
 * latency: answer late; hang: never answer (the client must time out); http5xx: an HTML error
 * page; rate429: 429 with Retry-After (`ms`, default 1 s); envelope: HTTP 200 with a non-success envelope;
 * malformed: a body that is not JSON; truncated: valid JSON cut in half; wrongType: one field
 * of the payload with the wrong JSON type.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Share of matching requests hit, 0–1; default 1 (every one). */
  rate?: number;
  /** Endpoint names (MarketApi method names, e.g. "tokenDetail") it applies to; default all. */
  endpoints?: readonly string[];
  /** Added delay of `latency`, ms; default 1000. The `Retry-After` of `rate429`, ms (sent in whole seconds); default 1000. */
  ms?: number;
  /** HTTP status of `http5xx`; default 502. */
  status?: number;
  /** Hit at most this many requests, then stop; default unlimited. */
  times?: number;
}

/** Checks one spec, as given in JSON or on the command line; throws a message naming the fix. */
export function checkFault(x: unknown): FaultSpec {
  if (typeof x !== "object" || x === null) throw new Error("a fault must be an object with a kind");
  const f = x as Record<string, unknown>;
  if (!(FAULT_KINDS as readonly unknown[]).includes(f.kind)) throw new Error(`unknown fault kind ${JSON.stringify(f.kind)}; use one of ${FAULT_KINDS.join(", ")}`);
  const num = (k: string, ok: (n: number) => boolean): void => {
    if (f[k] !== undefined && (typeof f[k] !== "number" || !ok(f[k]))) throw new Error(`fault ${String(f.kind)}: bad ${k}`);
  };
  num("rate", (n) => n >= 0 && n <= 1);
  num("ms", (n) => n >= 0);
  num("status", (n) => Number.isInteger(n) && n >= 500 && n <= 599);
  num("times", (n) => Number.isInteger(n) && n >= 0);
  if (f.endpoints !== undefined && !(Array.isArray(f.endpoints) && f.endpoints.every((e) => typeof e === "string"))) {
    throw new Error(`fault ${String(f.kind)}: endpoints must be a list of names`);
  }
  // A misspelt name would select nothing and the fault would silently never fire.
  for (const e of (f.endpoints as string[] | undefined) ?? []) {
    if (ENDPOINT_NAMES.includes(e)) continue;
    const near = ENDPOINT_NAMES.find((n) => n.toLowerCase() === e.toLowerCase());
    throw new Error(`fault ${String(f.kind)}: unknown endpoint ${JSON.stringify(e)}; ${near ? `did you mean ${near}?` : `use one of ${ENDPOINT_NAMES.join(", ")}`}`);
  }
  return f as unknown as FaultSpec;
}

/**
 * Parses `--faults`: JSON (a spec or a list), or a comma-separated list of
 * `kind[:value][@selector…]` where value is the latency in ms or the 5xx status and each
 * selector is a rate (0–1, or a percentage such as 10%) or an endpoint name, e.g.
 * `latency:300@0.1,http5xx:503@tokenDetail`.
 */
export function parseFaults(text: string): FaultSpec[] {
  const t = text.trim();
  if (t.startsWith("[") || t.startsWith("{")) {
    const parsed: unknown = JSON.parse(t);
    return (Array.isArray(parsed) ? parsed : [parsed]).map(checkFault);
  }
  return t.split(",").filter((s) => s.trim() !== "").map((item) => {
    const [head = "", ...selectors] = item.trim().split("@");
    const [kind, value] = head.split(":");
    const spec: Record<string, unknown> = { kind };
    if (value !== undefined) spec[kind === "http5xx" ? "status" : "ms"] = Number(value);
    const endpoints: string[] = [];
    for (const s of selectors) {
      if (/^(\d+(\.\d*)?|\.\d+)$/.test(s)) spec.rate = Number(s);
      else if (/^(\d+(\.\d*)?|\.\d+)%$/.test(s)) spec.rate = Number(s.slice(0, -1)) / 100;
      else endpoints.push(s);
    }
    if (endpoints.length > 0) spec.endpoints = endpoints;
    return checkFault(spec);
  });
}

/** The faults in force and the generator that decides which requests they hit. */
export class FaultPlan {
  private faults: FaultSpec[] = [];
  private hits: number[] = [];
  private rng: Rng;

  constructor(private readonly seed: number) {
    this.rng = new Rng(seed);
  }

  set(faults: readonly FaultSpec[]): void {
    this.faults = faults.map(checkFault);
    this.hits = this.faults.map(() => 0);
    this.rng = new Rng(this.seed);
  }

  list(): readonly FaultSpec[] {
    return this.faults;
  }

  /** The faults that hit this request to `endpoint`, in the order given. */
  draw(endpoint: string): FaultSpec[] {
    const out: FaultSpec[] = [];
    this.faults.forEach((f, i) => {
      if (f.endpoints && !f.endpoints.includes(endpoint)) return;
      const roll = this.rng.next();
      if (roll >= (f.rate ?? 1)) return;
      if (f.times !== undefined && (this.hits[i] ?? 0) >= f.times) return;
      this.hits[i] = (this.hits[i] ?? 0) + 1;
      out.push(f);
    });
    return out;
  }
}

/** v1 payloads the spec does not show: the client reads them as open records, so only their shape can be wrong. */
const OPEN_V1 = new Set(["v1Search", "v1Pairs", "v1PairKline", "v1PairTxs", "v1PairLiquidity", "v1AmmPairs", "v1ContractCheck"]);

/**
 * The payload with one wrong JSON type: its first scalar field becomes an object; an open
 * v1 payload, or one without scalars, becomes a number.
 */
export function wrongTyped(endpoint: string, data: unknown): unknown {
  if (OPEN_V1.has(endpoint)) return 42;
  const visit = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.length > 0 && visit(v[0]);
    if (typeof v !== "object" || v === null) return false;
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) {
      if (typeof x === "string" || typeof x === "number" || typeof x === "boolean") {
        o[k] = { unexpected: x };
        return true;
      }
      if (visit(x)) return true;
    }
    return false;
  };
  return visit(data) ? data : 42;
}
