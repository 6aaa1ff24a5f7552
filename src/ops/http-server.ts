/**
 * The operator's port: /healthz, /readyz, /metrics, the operator's page at /, and the Telegram
 * webhook when one is configured. Loopback unless told otherwise: metrics are for the operator, not the world.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { Metrics } from "./metrics.js";

/** One readiness check: `ok` plus, when not ok, a short reason. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<{ ok: boolean; detail?: string }>;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface OpsServerOptions {
  host: string;
  port: number;
  metrics: Metrics;
  checks: readonly ReadinessCheck[];
  logger: Logger;
  /** Extra routes by exact path, e.g. the Telegram webhook. */
  routes?: ReadonlyMap<string, RequestHandler>;
  /** The operator's page: `/`, `/login` and `/logout` (ops-page.ts). Unset, all are 404. */
  page?: { handle(req: IncomingMessage, res: ServerResponse, readiness: () => Promise<Readiness>): Promise<void> };
  /** A readiness check slower than this counts as not ready. Default 2000 ms. */
  checkTimeoutMs?: number;
}

export interface OpsServer {
  /** Bound port (useful with port 0). */
  port: number;
  /** Replaces the readiness checks: the server comes up before what they check exists. */
  setChecks(checks: readonly ReadinessCheck[]): void;
  close(): Promise<void>;
}

async function runCheck(c: ReadinessCheck, timeoutMs: number): Promise<{ ok: boolean; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ ok: boolean; detail: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([c.check(), timeout]);
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** Whether every check passed, and each check's result by name. */
export interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export async function readiness(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<Readiness> {
  const results = await Promise.all(checks.map(async (c) => [c.name, await runCheck(c, timeoutMs)] as const));
  return { ready: results.every(([, r]) => r.ok), checks: Object.fromEntries(results) };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  res.end(body);
}

export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  const timeoutMs = opts.checkTimeoutMs ?? 2000;
  let checks = opts.checks;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const extra = opts.routes?.get(path);
    if (extra) return extra(req, res);
    if (opts.page && (path === "/" || path === "/login" || path === "/logout")) return opts.page.handle(req, res, () => readiness(checks, timeoutMs));
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "method not allowed\n");
    switch (path) {
      case "/healthz":
        return send(res, 200, "application/json", JSON.stringify({ status: "ok" }));
      case "/readyz": {
        const r = await readiness(checks, timeoutMs);
        const notReady = Object.entries(r.checks).filter(([, c]) => !c.ok).map(([name]) => name);
        return send(
          res,
          r.ready ? 200 : 503,
          "application/json",
          JSON.stringify({ status: r.ready ? "ready" : "not ready", notReady, checks: r.checks }),
        );
      }
      case "/metrics":
        return send(res, 200, opts.metrics.registry.contentType, await opts.metrics.registry.metrics());
      default:
        return send(res, 404, "text/plain", "not found\n");
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      opts.logger.error({ err: e, url: req.url?.split("?")[0] }, "ops request failed");
      if (!res.headersSent) send(res, 500, "text/plain", "internal error\n");
      else res.end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    setChecks: (next) => {
      checks = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
