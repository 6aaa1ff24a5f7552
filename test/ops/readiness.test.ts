import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { readinessChecks } from "../../src/app/readiness.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { MarketClient } from "../../src/market/client.js";
import { startOpsServer, type OpsServer } from "../../src/ops/http-server.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";

let sandbox: Sandbox | undefined;
let client: MarketClient | undefined;
let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  await client?.close();
  await sandbox?.close();
  server = client = sandbox = undefined;
});

const DAY = 24 * 3_600_000;

/** /readyz of an ops server whose market is the sandbox through the cache, on a clock the test moves. */
async function readyzOverSandbox(opts: { dailyUnits?: number } = {}) {
  sandbox = await startSandbox(opts);
  let now = 1_795_000_000_000;
  client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 },
  });
  const market = createCachedMarket(client, { now: () => now });
  const store = { health: async () => ({ ok: true }) };
  server = await startOpsServer({
    host: "127.0.0.1",
    port: 0,
    metrics: createMetrics({ processMetrics: false }),
    checks: readinessChecks({ store, market, platforms: [] }),
    logger: pino({ level: "silent" }),
  });
  const base = `http://127.0.0.1:${server.port}`;
  return { sandbox, advance: (ms: number) => (now += ms), readyz: () => fetch(`${base}/readyz`) };
}

describe("readiness of a running bot", () => {
  it("stays ready while the market fails but answers come from the cache, and says so", async () => {
    const { sandbox: sb, advance, readyz } = await readyzOverSandbox();
    expect((await readyz()).status).toBe(200);
    sb.setFaults([{ kind: "http5xx", status: 503 }]);
    advance(DAY);
    const res = await readyz();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "ready",
      checks: { store: { ok: true }, market: { ok: true, detail: "serving from cache: the service is failing" } },
    });
  });

  it("stays ready when the market's daily quota is spent, and says so", async () => {
    const { readyz } = await readyzOverSandbox({ dailyUnits: 0 });
    const res = await readyz();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ checks: { market: { ok: true, detail: "the market's daily quota is spent; answering from the cache" } } });
  });

  it("is not ready when the market fails and nothing is cached", async () => {
    const { sandbox: sb, readyz } = await readyzOverSandbox();
    sb.setFaults([{ kind: "http5xx", status: 503 }]);
    const res = await readyz();
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ notReady: ["market"] });
  });
});

describe("the worker check", () => {
  it("names each lease the worker keeps, and one it holds on through a store outage", async () => {
    const checks = readinessChecks({
      store: { health: async () => ({ ok: false, detail: "the PostgreSQL database at DATABASE_URL cannot be reached" }) },
      market: { supportedChains: async () => { throw new Error("not asked here"); } },
      platforms: [],
      worker: {
        id: "worker-1",
        leases: () => [
          { name: "telegram-polling", held: true, unrenewed: true },
          { name: "digest-poster", held: false },
          { name: "calls-sweep", held: true, unrenewed: false },
        ],
      },
    });
    const worker = checks.find((c) => c.name === "worker")!;
    expect(await worker.check()).toEqual({
      ok: true,
      detail: "worker-1 holds telegram-polling (not renewed: the store is unreachable), waits for digest-poster, holds calls-sweep",
    });
  });
});
