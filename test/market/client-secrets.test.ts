import { inspect } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketApi } from "../../src/market/api.js";
import { MarketClient } from "../../src/market/client.js";
import type { MarketErrorKind } from "../../src/market/errors.js";
import { startFakeServer, type Answer, type FakeServer, type Received } from "./fake-server.js";
import { ETH_ID, fakeClock, rejection, V1_KEY, V2_KEY } from "./helpers.js";

// A hostile service that echoes whatever key it was sent into every kind of answer.
function echoKey(r: Received): Answer | "hang" | "destroy" {
  const key = String(r.headers["x-api-key"] ?? r.headers["svc-auth"]);
  const fail = (status: number): Answer => ({ status, body: { code: 1, msg: `refused key ${key}`, data: { key } } });
  const scenario = r.path.split("/").pop()?.split("-")[0];
  switch (scenario) {
    case "unauthorized": return fail(401);
    // Retry-After 0: the scheduler would otherwise refuse every later call until midnight.
    case "quota": return { ...fail(403), headers: { "retry-after": "0" } };
    case "notfound": return fail(404);
    case "ratelimited": return { ...fail(429), headers: { "retry-after": "0" } };
    case "badrequest": return fail(400);
    case "server": return fail(503);
    case "envelope": return { body: { status: 0, msg: `bad key ${key}`, data_type: 1, data: { key } } };
    case "malformed": return { headers: { "content-type": "text/html" }, body: `<html>your key ${key} is wrong` };
    case "shape": return { body: { status: 1, msg: "SUCCESS", data: { token: { token: key, chain: 7 }, pairs: [] } } };
    case "timeout": return "hang";
    default: return "destroy";
  }
}

const scenarios: [MarketErrorKind, (m: MarketApi) => Promise<unknown>][] = [
  ["invalid_params", (m) => m.topHolders({ tokenId: ETH_ID, limit: 1000 })],
  ["unauthorized", (m) => m.tokenDetail("unauthorized-eth")],
  ["quota", (m) => m.tokenDetail("quota-eth")],
  ["not_found", (m) => m.tokenDetail("notfound-eth")],
  ["rate_limited", (m) => m.tokenDetail("ratelimited-eth")],
  ["bad_request", (m) => m.v1Token("badrequest-eth")],
  ["server", (m) => m.v1Token("server-eth")],
  ["envelope", (m) => m.tokenDetail("envelope-eth")],
  ["malformed", (m) => m.v1Token("malformed-eth")],
  ["shape", (m) => m.tokenDetail("shape-eth")],
  ["timeout", (m) => m.tokenDetail("timeout-eth")],
  ["network", (m) => m.v1Token("network-eth")],
];

let server: FakeServer;
/** Waits long enough for any answer on a loaded machine: only the hung call may time out. */
let client: MarketClient;
/** Gives up at once, for the call the service never answers. */
let hasty: MarketClient;
const logLines: string[] = [];
beforeAll(async () => {
  server = await startFakeServer(echoKey);
  const clock = fakeClock();
  const open = (timeoutMs: number): MarketClient =>
    new MarketClient({
      v2: { baseUrl: server.url, key: V2_KEY },
      v1: { baseUrl: server.url, key: V1_KEY },
      timeoutMs,
      retry: { maxAttempts: 2, baseDelayMs: 1 },
      now: clock.now,
      sleep: clock.sleep,
      logger: pino({ level: "trace" }, { write: (line: string) => logLines.push(line) }),
    });
  client = open(20_000);
  hasty = open(60);
});
afterAll(async () => {
  await client.close();
  await hasty.close();
  await server.close();
});

describe("the API key never leaks", () => {
  it.each(scenarios)("keeps both keys out of a %s error and its log lines", async (kind, call) => {
    const before = logLines.length;
    const e = await rejection(call(kind === "timeout" ? hasty : client));
    expect(e).toMatchObject({ kind });
    const seen = [JSON.stringify(e), (e as Error).message, String((e as Error).cause), inspect(e, { depth: 20, showHidden: true })];
    const lines = logLines.slice(before);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...seen, ...lines]) {
      expect(text).not.toContain(V2_KEY);
      expect(text).not.toContain(V1_KEY);
    }
  });

  it("shows the service's echoed msg with the key blanked out", async () => {
    const e = await rejection(client.tokenDetail("unauthorized-eth"));
    expect(e).toMatchObject({ msg: "refused key [REDACTED]" });
  });

  it("keeps both keys out of the client's own inspection, after requests went out", () => {
    for (const c of [client, hasty]) {
      const shown = inspect(c, { depth: 20, showHidden: true });
      expect(shown).not.toContain(V2_KEY);
      expect(shown).not.toContain(V1_KEY);
    }
  });

  it("sent the keys only in their headers", () => {
    expect(server.received.some((r) => r.headers["x-api-key"] === V2_KEY)).toBe(true);
    expect(server.received.some((r) => r.headers["svc-auth"] === V1_KEY)).toBe(true);
    expect(server.received.every((r) => !r.path.includes(V2_KEY) && !r.query.toString().includes(V2_KEY))).toBe(true);
  });
});
