import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPUTE_UNITS } from "../../src/market/limits.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { TIME, dataOf, expectFailure, prices, v1, v2 } from "./helpers.js";

describe("the request counter", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME, tokenCount: 300 });
  });
  afterAll(() => sb.close());

  it("counts every request by endpoint name, refused ones included, in process and over HTTP", async () => {
    sb.resetStats();
    const id = sb.market.tokens[0]?.id ?? "";
    await v2(sb, `/v2/tokens/${id}`);
    await v2(sb, `/v2/tokens/${id}`, null);
    await prices(sb, { token_ids: [id] });
    await v1(sb, `/api/v1/tokens/${id}`);
    await v2(sb, "/v2/nowhere");
    const expected = { total: 5, byEndpoint: { tokenDetail: 2, batchPrices: 1, v1Token: 1, unknown: 1 } };
    expect(sb.stats()).toMatchObject(expected);
    const overHttp = await (await fetch(`${sb.url}/__sandbox/stats`)).json();
    expect(overHttp).toMatchObject(expected);
    sb.resetStats();
    expect(sb.stats()).toEqual({ total: 0, byEndpoint: {}, units: 0 });
  });

  it("charges compute units for the calls it answered", async () => {
    sb.resetStats();
    const id = sb.market.tokens[0]?.id ?? "";
    await v2(sb, `/v2/tokens/${id}`);
    await prices(sb, { token_ids: [id] });
    await v2(sb, `/v2/klines/token/${id}?interval=5`);
    await v2(sb, `/v2/tokens/${id}`, "wrong");
    expect(sb.stats().units).toBe((COMPUTE_UNITS.tokenDetail ?? 0) + (COMPUTE_UNITS.batchPrices ?? 0) + (COMPUTE_UNITS.tokenKline ?? 0));
  });
});

describe("the per-key rate limiter", () => {
  let sb: Sandbox;
  let now = TIME;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME, limiterClock: () => now, tokenCount: 300, rateLimit: "normal" });
  });
  afterAll(() => sb.close());

  it("answers the sixth request of a second on the normal plan with 429 and Retry-After: 1", async () => {
    now = TIME + 5_000;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await v2(sb, "/v2/ranks/topics")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await v2(sb, "/v2/ranks/topics");
    expectFailure(refused, 429, /Too Many Requests/);
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  it("admits again in the next second of its clock", async () => {
    now = TIME + 10_000;
    for (let i = 0; i < 5; i++) dataOf(await v2(sb, "/v2/ranks/topics"));
    expect((await v2(sb, "/v2/ranks/topics")).status).toBe(429);
    now += 1_000;
    dataOf(await v2(sb, "/v2/ranks/topics"));
  });

  it("counts each key on its own", async () => {
    now = TIME + 20_000;
    for (let i = 0; i < 5; i++) dataOf(await v2(sb, "/v2/ranks/topics"));
    dataOf(await v1(sb, "/api/v1/tokens?keyword=pepe"));
  });

  it("keeps within a plan given in requests per second", async () => {
    const own = await startSandbox({ time: TIME, limiterClock: () => TIME, tokenCount: 300, rateLimit: { rps: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await v2(own, "/v2/ranks/topics")).status);
    await own.close();
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("keeps admitting on a pinned market clock, one request per second of its own clock on the free plan", async () => {
    let wall = TIME + 3_600_000;
    const own = await startSandbox({ time: TIME, limiterClock: () => wall, tokenCount: 300, rateLimit: "free" });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await v2(own, "/v2/ranks/topics")).status);
      wall += 1_000;
    }
    await own.close();
    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});

describe("the daily quota", () => {
  it("answers 403 once a key has spent its compute units for the day", async () => {
    let wall = TIME;
    const sb = await startSandbox({ time: TIME, limiterClock: () => wall, tokenCount: 300, dailyUnits: 12 });
    const id = sb.market.tokens[0]?.id ?? "";
    dataOf(await v2(sb, `/v2/tokens/${id}`));
    dataOf(await v2(sb, `/v2/tokens/${id}`));
    const spent = await v2(sb, `/v2/tokens/${id}`);
    wall += 86_400_000;
    const nextDay = await v2(sb, `/v2/tokens/${id}`);
    await sb.close();
    expectFailure(spent, 403, "The limit of this API has been reached today");
    dataOf(nextDay);
  });
});
