/**
 * The HTTP side: node:http straight, one pipeline per request — count, authenticate, rate
 * and quota, faults, handler, quirks, envelope — and the `/__sandbox/` control routes.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { FaultPlan, wrongTyped, type FaultSpec } from "./faults.js";
import { HttpFail, NOT_FOUND } from "./params.js";
import { withQuirks } from "./quirks.js";
import { route } from "./router.js";
import type { Limiter } from "./limiter.js";
import type { Market } from "./market.js";
import type { Rankings } from "./ranks.js";

/** The part of a pino logger the sandbox uses. */
export interface SandboxLogger {
  error(obj: object, msg: string): void;
}

export interface PipelineDeps {
  market: Market;
  rankings: Rankings;
  faults: FaultPlan;
  limiter: Limiter;
  v1Key: string;
  v2Key: string;
  quirks: boolean;
  /** Epoch ms. */
  now(): number;
  delay(ms: number): Promise<void>;
  logger?: SandboxLogger;
}

/** Requests served, by endpoint name ("unknown" for paths that match none). */
export interface SandboxStats {
  total: number;
  byEndpoint: Record<string, number>;
  /** Compute units charged (COMPUTE_UNITS; 1 for endpoints it does not list). */
  units: number;
}

const MAX_BODY = 1 << 20;
/** The page a proxy in front of the service answers with. */
function htmlError(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? "Server Error"}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

function fail(res: ServerResponse, f: HttpFail): void {
  send(res, f.status, JSON.stringify({ code: f.code, msg: f.msg, data: {} }), f.status === 429 ? { "retry-after": "1" } : {});
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new HttpFail(413, "request body too large"));
      else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

export class Pipeline {
  private stats: SandboxStats = { total: 0, byEndpoint: {}, units: 0 };
  /** Who waits for a number of requests to have arrived. */
  private arrivals: { endpoint: string | undefined; count: number; resolve: () => void }[] = [];

  constructor(private readonly deps: PipelineDeps) {}

  snapshotStats(): SandboxStats {
    return { total: this.stats.total, byEndpoint: { ...this.stats.byEndpoint }, units: this.deps.limiter.units() };
  }

  resetStats(): void {
    this.stats = { total: 0, byEndpoint: {}, units: 0 };
    this.deps.limiter.resetUnits();
  }

  /** Resolves once `count` requests to `endpoint` (any, when undefined) have arrived since the last reset. */
  received(endpoint: string | undefined, count: number): Promise<void> {
    return new Promise((resolve) => {
      this.arrivals.push({ endpoint, count, resolve });
      this.settleArrivals();
    });
  }

  private settleArrivals(): void {
    const seen = (endpoint: string | undefined): number => (endpoint === undefined ? this.stats.total : (this.stats.byEndpoint[endpoint] ?? 0));
    const [due, waiting] = [this.arrivals.filter((a) => seen(a.endpoint) >= a.count), this.arrivals.filter((a) => seen(a.endpoint) < a.count)];
    this.arrivals = waiting;
    for (const a of due) a.resolve();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.serve(req, res);
    } catch (err) {
      if (res.headersSent) return;
      if (err instanceof HttpFail) return fail(res, err);
      this.deps.logger?.error({ err, path: req.url }, "sandbox request failed");
      fail(res, new HttpFail(500, "internal error", 2));
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const method = req.method ?? "GET";
    if (url.pathname.startsWith("/__sandbox/")) return this.control(req, res, method, url.pathname);
    const segments = segmentsOf(url.pathname);
    const match = segments ? route(method, segments) : undefined;
    const name = match?.endpoint.name ?? "unknown";
    this.stats.total++;
    this.stats.byEndpoint[name] = (this.stats.byEndpoint[name] ?? 0) + 1;
    this.settleArrivals();

    const version = segments?.[0] === "v2" ? 2 : segments?.[0] === "api" && segments[1] === "v1" ? 1 : 0;
    if (version === 0) throw new HttpFail(404, NOT_FOUND);
    const key = req.headers[version === 2 ? "x-api-key" : "svc-auth"];
    if (key !== (version === 2 ? this.deps.v2Key : this.deps.v1Key)) throw new HttpFail(401, "Permission denied");
    if (!match || !segments) throw new HttpFail(404, NOT_FOUND);

    const admission = this.deps.limiter.admit(key, name);
    if (admission === "rate") throw new HttpFail(429, "Too Many Requests");
    if (admission === "quota") throw new HttpFail(403, "The limit of this API has been reached today");

    const faults = this.deps.faults.draw(name);
    const has = (kind: FaultSpec["kind"]): FaultSpec | undefined => faults.find((f) => f.kind === kind);
    for (const f of faults) if (f.kind === "latency") await this.deps.delay(f.ms ?? 1000);
    // No answer at all: the socket stays open until the client gives up or the sandbox closes.
    if (has("hang")) return;
    const http5xx = has("http5xx");
    if (http5xx) {
      const status = http5xx.status ?? 502;
      return send(res, status, htmlError(status), { "content-type": "text/html" });
    }
    const rate429 = has("rate429");
    if (rate429) {
      const retryAfter = String(Math.max(1, Math.round((rate429.ms ?? 1000) / 1000)));
      return send(res, 429, JSON.stringify({ code: 1, msg: "Too Many Requests", data: {} }), { "retry-after": retryAfter });
    }

    let body: unknown;
    if (method === "POST") {
      const text = await readBody(req);
      try {
        body = JSON.parse(text);
      } catch {
        throw new HttpFail(400, "invalid parameter: body is not JSON");
      }
    }
    const nowSec = Math.floor(this.deps.now() / 1000);
    const { market, rankings, quirks } = this.deps;
    market.reach(nowSec);
    let data = match.endpoint.handle({ market, rankings, now: nowSec, quirks, query: url.searchParams, params: match.params, body });
    if (quirks) data = withQuirks(name, data);
    if (has("wrongType")) data = wrongTyped(name, data);

    let text: string;
    if (has("envelope")) {
      text = version === 2
        ? JSON.stringify({ status: 0, msg: "system busy, please try again later", data_type: 1, data: {} })
        : JSON.stringify({ code: 2, msg: "system busy, please try again later", data: {} });
    } else {
      text = version === 2
        ? JSON.stringify({ status: 1, msg: "SUCCESS", data_type: 1, data })
        : JSON.stringify({ code: 0, msg: "success", data });
    }
    if (has("malformed")) text = `{"status": 1, "msg": 'SUCCESS', data: [NaN, undefined,`;
    else if (has("truncated")) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    send(res, 200, text);
  }

  private async control(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    if (path === "/__sandbox/stats" && method === "GET") return send(res, 200, JSON.stringify(this.snapshotStats()));
    if (path === "/__sandbox/faults" && method === "GET") return send(res, 200, JSON.stringify({ faults: this.deps.faults.list() }));
    if (path === "/__sandbox/faults" && method === "DELETE") {
      this.deps.faults.set([]);
      return send(res, 200, JSON.stringify({ faults: [] }));
    }
    if (path === "/__sandbox/faults" && method === "POST") {
      try {
        const parsed: unknown = JSON.parse(await readBody(req));
        const list = Array.isArray(parsed) ? parsed : typeof parsed === "object" && parsed !== null && "faults" in parsed ? (parsed as { faults: unknown }).faults : [parsed];
        if (!Array.isArray(list)) throw new Error("faults must be a list");
        this.deps.faults.set(list as FaultSpec[]);
      } catch (err) {
        throw new HttpFail(400, err instanceof Error ? err.message : "invalid faults");
      }
      return send(res, 200, JSON.stringify({ faults: this.deps.faults.list() }));
    }
    throw new HttpFail(404, NOT_FOUND);
  }
}
