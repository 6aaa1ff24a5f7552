/**
 * `GET /` on the operator's port: the status page to whoever shows OPS_TOKEN (a bearer header,
 * or the cookie of the login form at `POST /login`), 401 with the form to anyone else. Without
 * OPS_TOKEN the page is off and `/` says how to turn it on. The history it charts is sampled
 * from the registry once a minute from the moment the bot is built: kept in the process, or in
 * the database with every worker's when the bot is given one to share (`parts.samples`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import type { Readiness } from "./http-server.js";
import { createHistory, MINUTE_MS } from "./history.js";
import { createSharedHistory } from "./shared-history.js";
import { esc } from "./html.js";
import { createPageAuth } from "./page-auth.js";
import { readSeries } from "./series.js";
import { pageMetric, statusModel, type StatusSources } from "./status-model.js";
import { statusPage } from "./status-page.js";
import { packageVersion } from "./version.js";

export const LOGIN_PATH = "/login";
export const LOGOUT_PATH = "/logout";
export const OFF_TEXT =
  "The operator's page is off. Set OPS_TOKEN to a long random value (e.g. `openssl rand -hex 32`) and restart; then open this address and log in with it, or send `Authorization: Bearer <OPS_TOKEN>`. /healthz, /readyz and /metrics are served either way.\n";
/** A login form posts a token and nothing else. */
const MAX_FORM_BYTES = 4096;

export interface OpsPage {
  /** Answers `/` and `/login`. */
  handle(req: IncomingMessage, res: ServerResponse, readiness: () => Promise<Readiness>): Promise<void>;
  /** What the page shows once the bot is built. */
  attach(parts: NonNullable<StatusSources["parts"]>): void;
  /** Stops the sampling. */
  close(): void;
}

export interface OpsPageOptions {
  /** OPS_TOKEN; undefined turns the page off. */
  token: string | undefined;
  /** Every secret value set: never in the page, whatever a check's detail or a reason carries. */
  secrets: readonly string[];
  registry: Registry;
  worker: string;
  rps: number;
  now?: () => number;
  /** Told when a minute's sample could not be read or saved (the charts then miss that minute). */
  onSampleError?: (e: unknown) => void;
  /**
   * Told of refused logins, at most once a minute with how many there were since the last
   * time: someone guessing the token shows in the log without filling it.
   */
  onLoginsRefused?: (count: number) => void;
}

/** Least time between two reports of refused logins. */
const REFUSED_REPORT_MS = 60_000;

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    // Nothing loads from anywhere, the page included: only its inline style.
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    ...headers,
  });
  res.end(body);
}

function loginPage(wrong: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>chainpulse — log in</title><meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;background:#f8fafc}form{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:20px 24px;display:grid;gap:10px;min-width:300px}p.bad{color:#b91c1c;margin:0}</style></head>
<body><form method="post" action="${LOGIN_PATH}"><b>chainpulse operator's page</b>${wrong ? '<p class="bad">That is not the token.</p>' : ""}<label>OPS_TOKEN <input type="password" name="token" autocomplete="current-password" required autofocus></label><button type="submit">Log in</button></form></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export function createOpsPage(opts: OpsPageOptions): OpsPage {
  const now = opts.now ?? Date.now;
  if (opts.token === undefined) {
    return {
      handle: async (req, res) => (req.url?.split("?")[0] === "/" ? send(res, 200, "text/plain; charset=utf-8", OFF_TEXT) : send(res, 404, "text/plain", "not found\n")),
      attach: () => undefined,
      close: () => undefined,
    };
  }
  const auth = createPageAuth(opts.token, now);
  let refused = 0;
  let reportedAt = -Infinity;
  const refuse = (): void => {
    refused += 1;
    if (now() - reportedAt < REFUSED_REPORT_MS) return;
    reportedAt = now();
    opts.onLoginsRefused?.(refused);
    refused = 0;
  };
  const secrets = opts.secrets.filter((s) => s.length > 0);
  const startedAt = now();
  const sample = () => readSeries(opts.registry, pageMetric);
  const source: Omit<StatusSources, "readiness"> = { version: packageVersion(), worker: opts.worker, startedAt, now, rps: opts.rps, history: createHistory(startedAt), sample };
  const take = () => {
    const at = now();
    const history = source.history;
    // A registry read or a write that fails leaves a minute out of the charts; the next minute samples again.
    void sample().then((values) => history.record({ at, values })).catch((e: unknown) => opts.onSampleError?.(e));
  };
  let timer: NodeJS.Timeout | undefined;
  const redact = (html: string) => secrets.reduce((h, s) => h.replaceAll(s, "***").replaceAll(esc(s), "***"), html);

  return {
    async handle(req, res, readiness) {
      const path = req.url?.split("?")[0];
      if (path === LOGOUT_PATH) {
        if (req.method !== "POST") return send(res, 303, "text/plain", "see /\n", { location: "/" });
        return send(res, 303, "text/plain", "logged out\n", { "set-cookie": auth.logout(), location: "/" });
      }
      if (path === LOGIN_PATH) {
        // A bookmark of the form's address, or Back after a wrong token: the page, or its form.
        if (req.method !== "POST") return send(res, 303, "text/plain", "see /\n", { location: "/" });
        const form = await readForm(req);
        const cookie = auth.login(form?.get("token") ?? "");
        if (cookie === undefined) {
          refuse();
          return send(res, 401, "text/html; charset=utf-8", loginPage(true));
        }
        return send(res, 303, "text/plain", "logged in\n", { "set-cookie": cookie, location: "/" });
      }
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "method not allowed\n");
      if (!auth.allowed(req)) return send(res, 401, "text/html; charset=utf-8", loginPage(false), { "www-authenticate": 'Bearer realm="chainpulse"' });
      const model = await statusModel({ ...source, readiness });
      return send(res, 200, "text/html; charset=utf-8", redact(statusPage(model)));
    },
    attach(parts) {
      source.parts = parts;
      if (parts.samples !== undefined) source.history = createSharedHistory({ store: parts.samples, worker: opts.worker, startedAt });
      // From the moment there is a scheduler to read: a sample before it would lack the day's spend.
      take();
      timer = setInterval(take, MINUTE_MS);
      timer.unref();
    },
    close() {
      clearInterval(timer);
    },
  };
}
