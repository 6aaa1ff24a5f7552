import { afterEach, describe, expect, it } from "vitest";
import pino from "pino";
import { createMetrics } from "../../src/ops/metrics.js";
import { startOpsServer, type OpsServer, type ReadinessCheck } from "../../src/ops/http-server.js";

const logger = pino({ level: "silent" });
let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(checks: ReadinessCheck[], routes?: Map<string, () => void>) {
  const metrics = createMetrics({ processMetrics: true });
  server = await startOpsServer({
    host: "127.0.0.1",
    port: 0,
    metrics,
    checks,
    logger,
    checkTimeoutMs: 200,
    routes: routes as never,
  });
  return { metrics, base: `http://127.0.0.1:${server.port}` };
}

describe("ops HTTP server", () => {
  it("answers /healthz with 200 while the process is up", async () => {
    const { base } = await start([]);
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz with 503 naming every check that is not ready", async () => {
    let marketOk = true;
    const { base } = await start([
      { name: "store", check: async () => ({ ok: true }) },
      { name: "market", check: async () => (marketOk ? { ok: true } : { ok: false, detail: "timeout" }) },
      { name: "telegram", check: () => new Promise(() => undefined) },
    ]);
    const first = await fetch(`${base}/readyz`);
    expect(first.status).toBe(503);
    const body = (await first.json()) as { notReady: string[]; checks: Record<string, { detail?: string }> };
    expect(body.notReady).toEqual(["telegram"]);
    expect(body.checks.telegram?.detail).toMatch(/no answer/);
    marketOk = false;
    const second = (await (await fetch(`${base}/readyz`)).json()) as { notReady: string[] };
    expect(second.notReady).toEqual(["market", "telegram"]);
  });

  it("answers /readyz with 200 when every check passes", async () => {
    const { base } = await start([{ name: "store", check: async () => ({ ok: true }) }]);
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("ready");
  });

  it("answers /readyz by the checks it was last given, once what they check exists", async () => {
    const { base } = await start([{ name: "starting", check: async () => ({ ok: false, detail: "starting" }) }]);
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ notReady: ["starting"], checks: { starting: { detail: "starting" } } });
    server!.setChecks([{ name: "store", check: async () => ({ ok: true }) }]);
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", notReady: [], checks: { store: { ok: true } } });
  });

  it("serves Prometheus text whose counters move", async () => {
    const { base, metrics } = await start([]);
    metrics.commands.inc({ command: "price", outcome: "ok" });
    metrics.commands.inc({ command: "price", outcome: "ok" });
    const res = await fetch(`${base}/metrics`);
    expect(res.headers.get("content-type")).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toContain('chainpulse_commands_total{command="price",outcome="ok"} 2');
    expect(text).toMatch(/chainpulse_process_resident_memory_bytes \d+/);
  });

  it("routes extra paths such as the Telegram webhook to their handler", async () => {
    const routes = new Map([
      [
        "/telegram/hook",
        ((_req: unknown, res: { writeHead(s: number): void; end(b: string): void }) => {
          res.writeHead(200);
          res.end("hooked");
        }) as never,
      ],
    ]);
    const { base } = await start([], routes);
    const res = await fetch(`${base}/telegram/hook`, { method: "POST", body: "{}" });
    expect(await res.text()).toBe("hooked");
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
