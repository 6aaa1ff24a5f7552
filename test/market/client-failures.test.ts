import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MarketClient, type MarketClientOptions } from "../../src/market/client.js";
import { MarketError } from "../../src/market/errors.js";
import { failure, startFakeServer, v1ok, v2ok, type Respond, type FakeServer } from "./fake-server.js";
import { clientFor, ETH_ID, ETH_TOKEN, fakeClock, rejection, type TestClient } from "./helpers.js";

const detail = { token: { token: ETH_TOKEN, chain: "eth", symbol: "PEPE" }, pairs: [] };

let server: FakeServer | undefined;
let t: TestClient | undefined;
afterEach(async () => {
  await t?.client.close();
  await server?.close();
  server = undefined;
  t = undefined;
});

async function setup(respond: Respond, overrides: Partial<MarketClientOptions> = {}): Promise<{ server: FakeServer; t: TestClient }> {
  server = await startFakeServer(respond);
  t = clientFor(server, overrides);
  return { server, t };
}

async function failureOf(respond: Respond, overrides: Partial<MarketClientOptions> = {}): Promise<{ e: MarketError; requests: number; t: TestClient }> {
  const s = await setup(respond, overrides);
  const e = await rejection(s.t.client.tokenDetail(ETH_ID));
  expect(e).toBeInstanceOf(MarketError);
  return { e: e as MarketError, requests: s.server.received.length, t: s.t };
}

describe("HTTP status decides first", () => {
  it("reports a 401 as a refused API key an operator must fix, without retrying", async () => {
    const { e, requests } = await failureOf(() => failure(401, "Permission denied"));
    expect(e).toMatchObject({ kind: "unauthorized", status: 401, code: 1, msg: "Permission denied", retryable: false, endpoint: "tokenDetail" });
    expect(e.message).toMatch(/refused the API key.*operator must fix/);
    expect(requests).toBe(1);
  });

  it("reports a 403 as a spent daily quota", async () => {
    const { e, requests } = await failureOf(() => failure(403, "The limit of this API has been reached today"));
    expect(e).toMatchObject({ kind: "quota", status: 403, retryable: false });
    expect(requests).toBe(1);
  });

  it("reports a 404 as not found, without retrying", async () => {
    const { e, requests } = await failureOf(() => failure(404, "Not found any matched results"));
    expect(e).toMatchObject({ kind: "not_found", status: 404, msg: "Not found any matched results" });
    expect(requests).toBe(1);
  });

  it("keeps the service's msg of a 400 such as an unsupported chain", async () => {
    const { e, requests } = await failureOf(() => failure(400, "unsupported chain"));
    expect(e).toMatchObject({ kind: "bad_request", status: 400, msg: "unsupported chain", retryable: false });
    expect(e.message).toContain("unsupported chain");
    expect(requests).toBe(1);
  });

  it("reports a 500 as a server failure with the internal code after all attempts", async () => {
    const { e, requests } = await failureOf(() => failure(500, "internal error"));
    expect(e).toMatchObject({ kind: "server", status: 500, code: 2, retryable: true });
    expect(requests).toBe(3);
  });

  it("reports an HTML error page with a 502 as a server failure", async () => {
    const { e } = await failureOf(() => ({ status: 502, headers: { "content-type": "text/html" }, body: "<html><body>Bad Gateway</body></html>" }), {
      retry: { maxAttempts: 1 },
    });
    expect(e).toMatchObject({ kind: "server", status: 502 });
  });
});

describe("retries", () => {
  it("retries a 503 and returns the answer that follows, with exponential backoff", async () => {
    const { t } = await setup((_r, n) => (n <= 2 ? failure(503, "busy") : v2ok(detail)));
    const out = await t.client.tokenDetail(ETH_ID);
    expect(out.token.symbol).toBe("PEPE");
    expect(server?.received).toHaveLength(3);
    expect(t.slept).toEqual([100, 200]);
    expect(t.events).toEqual([expect.objectContaining({ endpoint: "tokenDetail", outcome: "ok", attempts: 3 })]);
  });

  it("waits the seconds of Retry-After on a 429 before trying again", async () => {
    const { t } = await setup((_r, n) => (n === 1 ? { ...failure(429, "too fast"), headers: { "retry-after": "2" } } : v2ok(detail)));
    await t.client.tokenDetail(ETH_ID);
    expect(t.slept).toEqual([2000]);
  });

  it("waits until the HTTP date of Retry-After on a 429", async () => {
    const at = new Date(fakeClock().now() + 7000).toUTCString();
    const { t } = await setup((_r, n) => (n === 1 ? { ...failure(429, "too fast"), headers: { "retry-after": at } } : v2ok(detail)));
    await t.client.tokenDetail(ETH_ID);
    expect(t.slept).toEqual([7000]);
  });

  it("gives up at once when Retry-After lies past the time budget and says how long to wait", async () => {
    const { e, requests, t } = await failureOf(() => ({ ...failure(429, "too fast"), headers: { "retry-after": "60" } }));
    expect(e).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 60_000, retryable: true });
    expect(requests).toBe(1);
    expect(t.slept).toEqual([]);
  });

  it("stops retrying when the next backoff would pass the budget", async () => {
    const { requests, t } = await failureOf(() => failure(503, "busy"), { retry: { maxAttempts: 10, budgetMs: 800, baseDelayMs: 300 } });
    expect(t.slept).toEqual([300]);
    expect(requests).toBe(2);
  });

  it("retries the batch price POST, since it only reads", async () => {
    const { t } = await setup((_r, n) => (n === 1 ? failure(502, "bad gateway") : v2ok({ [ETH_ID]: { current_price_usd: "2" } })));
    const out = await t.client.batchPrices({ tokenIds: [ETH_ID] });
    expect(out[ETH_ID]?.current_price_usd).toBe("2");
    expect(server?.received.map((r) => r.body)).toEqual([`{"token_ids":["${ETH_ID}"]}`, `{"token_ids":["${ETH_ID}"]}`]);
  });

  it("times out an attempt that gets no answer and retries it", async () => {
    // The fake server runs in this process: on a loaded machine it may read a request only after
    // a short timeout has already given it up, so each attempt is given a second to arrive.
    const { e, requests } = await failureOf(() => "hang", { timeoutMs: 1000, retry: { maxAttempts: 2, baseDelayMs: 1 } });
    expect(e).toMatchObject({ kind: "timeout", retryable: true });
    expect(e.message).toBe("tokenDetail: no answer within 1000 ms");
    expect(requests).toBe(2);
  });

  it("reports a dropped connection as a network failure after retrying", async () => {
    const { e, requests } = await failureOf(() => "destroy");
    expect(e).toMatchObject({ kind: "network", retryable: true });
    expect(requests).toBe(3);
  });
});

describe("bodies of a 200", () => {
  it("reports an HTML page as malformed, without retrying", async () => {
    const { e, requests } = await failureOf(() => ({ headers: { "content-type": "text/html" }, body: "<!doctype html><title>Maintenance</title>" }));
    expect(e).toMatchObject({ kind: "malformed", status: 200, retryable: false });
    expect(e.message).toContain("an HTML page");
    expect(requests).toBe(1);
  });

  it("reports truncated JSON as malformed", async () => {
    const { e } = await failureOf(() => ({ body: '{"status":1,"msg":"SUCCESS","data":{"token":{"tok' }));
    expect(e).toMatchObject({ kind: "malformed" });
    expect(e.message).toContain("not JSON");
  });

  it("reports a v2 envelope with status 0 with its status and msg", async () => {
    const { e, requests } = await failureOf(() => ({ body: { status: 0, msg: "token not supported", data_type: 1, data: null } }));
    expect(e).toMatchObject({ kind: "envelope", code: 0, msg: "token not supported", retryable: false });
    expect(requests).toBe(1);
  });

  it("reports a failure body sent with a 200 as a non-success envelope", async () => {
    const { e } = await failureOf(() => failure(200, "Permission denied"));
    expect(e).toMatchObject({ kind: "envelope", code: 1, msg: "Permission denied" });
  });

  it("reports a v1 envelope with a non-zero code", async () => {
    const { t } = await setup(() => ({ body: { code: 3, msg: "busy", data: {} } }));
    const e = await rejection(t.client.v1Token(ETH_ID));
    expect(e).toMatchObject({ kind: "envelope", code: 3, msg: "busy", endpoint: "v1Token" });
  });

  it("names the path of a wrong-typed field", async () => {
    const bad = { ...detail, pairs: [{ pair: "0xp", chain: "eth", reserve0: true }] };
    const { e } = await failureOf(() => v2ok(bad));
    expect(e).toMatchObject({ kind: "shape", path: "data.pairs[0].reserve0" });
    expect(e.message).toContain("data.pairs[0].reserve0");
  });

  it("accepts the documented quirks: numbers for decimals, empty strings, absent fields, ms timestamps", async () => {
    const quirky = {
      token: { token: ETH_TOKEN, chain: "eth", current_price_usd: 1.5e-7, logo_url: "", updated_at: 1_795_000_000_123 },
      pairs: [{ pair: "0xp", chain: "eth", fee: "", total_supply: "", reserve0: "123456789012345678901234567890123456789012.5" }],
    };
    const { t } = await setup(() => v2ok(quirky));
    const out = await t.client.tokenDetail(ETH_ID);
    expect(out.token).toMatchObject({ current_price_usd: "1.5e-7", logo_url: "", updated_at: 1_795_000_000 });
    expect(out.pairs[0]?.reserve0).toBe("123456789012345678901234567890123456789012.5");
  });

  it.each([
    ["data", { status: 1, msg: "SUCCESS" }],
    ["data_type", { status: 1, msg: "SUCCESS", data_type: "1", data: detail }],
    ["msg", { status: 1, msg: 7, data_type: 1, data: detail }],
  ])("reports a successful v2 envelope with a broken %s field as a shape error, not a refusal", async (path, body) => {
    const { e } = await failureOf(() => ({ body }));
    expect(e).toMatchObject({ kind: "shape", path });
    expect(e.message).toContain("no v2 envelope");
  });

  it("still reports a v2 failure body with a non-success status as a refusal", async () => {
    const { e } = await failureOf(() => ({ body: { status: 0, msg: "token not supported", data_type: "x" } }));
    expect(e).toMatchObject({ kind: "envelope", code: 0, msg: "token not supported" });
  });

  it("reports a v1 answer to a v2 call as a missing envelope", async () => {
    const { e } = await failureOf(() => v1ok(detail));
    expect(e).toMatchObject({ kind: "shape", path: "status" });
    expect(e.message).toContain("no v2 envelope");
  });
});

describe("log lines", () => {
  it("log the service's msg as serviceMsg, leaving msg to the log line's own message", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
    await failureOf(() => failure(401, "Permission denied"), { logger });
    const failed = lines.filter((l) => l.includes("market call failed"));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.match(/"msg":/g)).toHaveLength(1);
    expect(JSON.parse(failed[0]!)).toMatchObject({ msg: "market call failed", serviceMsg: "Permission denied", kind: "unauthorized", status: 401 });
  });

  it("warn once when the daily quota is spent, not again for each call held until it returns", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const { e, t: tc } = await failureOf(() => failure(403, "Daily limit reached"), { logger });
    expect(e).toMatchObject({ kind: "quota", status: 403 });
    for (let i = 0; i < 3; i++) expect(await rejection(tc.client.tokenDetail(ETH_ID))).toMatchObject({ kind: "quota" });
    expect(server?.received).toHaveLength(1);
    const warnings = lines.filter((l) => (l.level as number) >= 40).map((l) => l.msg);
    expect(warnings.filter((m) => String(m).startsWith("market daily quota spent"))).toHaveLength(1);
    // The one call that reached the service is its own warning; the ones held back say nothing more.
    expect(warnings.filter((m) => m === "market call failed")).toHaveLength(1);
  });
});

describe("closing", () => {
  it("logs the calls its own abandoning close cuts at debug, not as the service's failures", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
    const s = await setup(() => "hang", { logger, rps: 1 });
    const inFlight = rejection(s.t.client.tokenDetail(ETH_ID));
    const queued = rejection(s.t.client.supportedChains());
    await vi.waitFor(() => expect(s.server.received.length).toBeGreaterThanOrEqual(1), { timeout: 30_000 });
    await s.t.client.close({ abandon: true });
    expect(await inFlight).toBeInstanceOf(MarketError);
    expect(await queued).toBeInstanceOf(MarketError);
    const read = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(read.filter((l) => l.level >= 40)).toEqual([]);
    expect(read.filter((l) => l.msg === "market call cut short: the client is closing")).toHaveLength(2);
  });
});

describe("metrics hook", () => {
  it("reports every failed call with its kind, status and attempts", async () => {
    const { t } = await failureOf(() => failure(404, "Not found any matched results"));
    expect(t.events).toEqual([expect.objectContaining({ endpoint: "tokenDetail", outcome: "not_found", status: 404, attempts: 1, lane: "people" })]);
  });
});

describe("configuration", () => {
  it("fails a v1 call before sending when version 1 is not configured, saying what to set", async () => {
    const { server, t } = await setup(() => v1ok({}), { v1: undefined });
    const e = await rejection(t.client.v1Search("pepe"));
    expect(e).toMatchObject({ kind: "invalid_params", endpoint: "v1Search" });
    expect((e as Error).message).toContain("MARKET_API_V1_URL");
    expect(server.received).toHaveLength(0);
  });

  it("refuses a base URL that is not http(s) with a message showing the expected form", () => {
    expect(() => new MarketClient({ v2: { baseUrl: "api.example.com", key: "k" } })).toThrow(/v2\.baseUrl must be an absolute http\(s\) URL such as https:\/\/api\.example\.com/);
  });

  it("keeps a path prefix of the base URL before the version prefix", async () => {
    const { server, t } = await setup(() => v2ok([]));
    await t.client.close();
    const prefixed = new MarketClient({ v2: { baseUrl: `${server.url}/proxy/`, key: "k" } });
    await prefixed.supportedChains();
    await prefixed.close();
    expect(server.received[0]?.path).toBe("/proxy/v2/supported_chains");
  });
});
