import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { readinessChecks } from "../../src/app/readiness.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { MarketClient } from "../../src/market/client.js";
import { createMarketReachability } from "../../src/market/reachability.js";
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
  it("is not ready once the market has answered none of the bot's calls for 30 s, and is again at its next answer", async () => {
    sandbox = await startSandbox({});
    let now = 1_795_000_000_000;
    const reach = createMarketReachability();
    client = new MarketClient({
      v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
      retry: { maxAttempts: 1 },
      timeoutMs: 2_000,
      onCall: (e) => reach.note(e, now),
    });
    const market = createCachedMarket(client, { now: () => now });
    server = await startOpsServer({
      host: "127.0.0.1", port: 0, metrics: createMetrics({ processMetrics: false }), logger: pino({ level: "silent" }),
      checks: readinessChecks({ store: { health: async () => ({ ok: true }) }, market, reach, now: () => now, platforms: [] }),
    });
    const readyz = () => fetch(`http://127.0.0.1:${server!.port}/readyz`);
    // The chains stay cached: a check through the cache alone would say ready throughout.
    await market.supportedChains();
    sandbox.setFaults([{ kind: "http5xx", status: 503 }]);
    const pepe = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";
    for (let i = 0; i < 3; i++) {
      await client.tokenDetail(pepe).catch(() => undefined);
      now += 15_000;
    }
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ checks: { market: { ok: false, detail: expect.stringMatching(/^the service has not answered since \d\d:\d\d:\d\d UTC \(server\)/) } } });
    sandbox.setFaults([]);
    await client.tokenDetail(pepe);
    expect((await readyz()).status).toBe(200);
  });

  it("counts no call the bot's own pace kept back as an answer of the service, nor as a failure", () => {
    const reach = createMarketReachability();
    const t = 1_795_000_000_000;
    for (let i = 0; i < 3; i++) {
      reach.note({ outcome: "server", attempts: 1 }, t + i * 15_000);
      // Held back by MARKET_API_DAILY_UNITS' pace, or by the plan's rate: never sent.
      reach.note({ outcome: "quota", attempts: 0 }, t + i * 15_000 + 1);
      reach.note({ outcome: "busy", attempts: 0 }, t + i * 15_000 + 2);
    }
    expect(reach.unreached(t + 31_000)).toEqual({ since: t, kind: "server" });
    // A 403 the service itself sent is an answer: it is there.
    reach.note({ outcome: "quota", attempts: 1 }, t + 32_000);
    expect(reach.unreached(t + 33_000)).toBeUndefined();
  });

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
