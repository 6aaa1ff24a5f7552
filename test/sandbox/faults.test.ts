import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { parseFaults, startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { TIME, dataOf, expectFailure, ordinary, v1, v2 } from "./helpers.js";
import { deferred } from "../deferred.js";

describe("fault injection", () => {
  let sb: Sandbox;
  let token: SandboxToken;
  let delays: { ms: number; release: () => void }[];
  /** Resolved when the sandbox starts its next delay. */
  let delayed = deferred();
  beforeAll(async () => {
    delays = [];
    sb = await startSandbox({
      time: TIME,
      tokenCount: 300,
      delay: (ms) => {
        const d = deferred();
        delays.push({ ms, release: () => d.resolve() });
        delayed.resolve();
        return d.promise;
      },
    });
    token = ordinary(sb, "eth");
  });
  afterEach(() => sb.clearFaults());
  afterAll(() => sb.close());

  const detail = (): ReturnType<typeof v2> => v2(sb, `/v2/tokens/${token.id}`);

  it("delays an answer by the configured latency", async () => {
    sb.setFaults([{ kind: "latency", ms: 250 }]);
    let answered = false;
    delayed = deferred();
    const pending = detail().then((a) => ((answered = true), a));
    await delayed.promise;
    expect(delays).toHaveLength(1);
    expect(delays[0]?.ms).toBe(250);
    expect(answered).toBe(false);
    delays.shift()?.release();
    dataOf(await pending);
  });

  it("never answers a hanging request, until the sandbox drops it on close", async () => {
    const own = await startSandbox({ time: TIME, tokenCount: 300, faults: [{ kind: "hang" }] });
    const pending = fetch(`${own.url}/v2/supported_chains`, { headers: { "X-API-KEY": own.v2Key } });
    let settled = false;
    pending.then(() => (settled = true), () => (settled = true));
    await own.received(undefined, 1);
    expect(settled).toBe(false);
    await own.close();
    await expect(pending).rejects.toThrow();
  });

  it("answers a 5xx fault with an HTML page and the configured status", async () => {
    sb.setFaults([{ kind: "http5xx", status: 503 }]);
    const a = await detail();
    expect(a.status).toBe(503);
    expect(a.headers.get("content-type")).toContain("text/html");
    expect(a.text).toContain("<html>");
    expect(a.json).toBeUndefined();
  });

  it("answers a rate fault with 429 and Retry-After: 1", async () => {
    sb.setFaults([{ kind: "rate429" }]);
    const a = await detail();
    expectFailure(a, 429, /Too Many Requests/);
    expect(a.headers.get("retry-after")).toBe("1");
  });

  it("answers an envelope fault with HTTP 200 and a non-success envelope of each version", async () => {
    sb.setFaults([{ kind: "envelope" }]);
    const a2 = await detail();
    expect(a2.status).toBe(200);
    expect(a2.json).toMatchObject({ status: 0, data_type: 1 });
    const a1 = await v1(sb, `/api/v1/tokens/${token.id}`);
    expect(a1.status).toBe(200);
    expect((a1.json as { code: number }).code).not.toBe(0);
  });

  it("answers malformed and truncated faults with bodies that are not JSON", async () => {
    sb.setFaults([{ kind: "malformed" }]);
    const bad = await detail();
    expect(bad.status).toBe(200);
    expect(bad.json).toBeUndefined();
    sb.setFaults([{ kind: "truncated" }]);
    const cut = await detail();
    expect(cut.json).toBeUndefined();
    sb.clearFaults();
    const whole = await detail();
    expect(whole.text.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeLessThan(whole.text.length);
  });

  it("answers a wrong-type fault with a payload the client's schema refuses", async () => {
    sb.setFaults([{ kind: "wrongType" }]);
    const a = await detail();
    expect(S.tokenDetail.safeParse((a.json as { data: unknown }).data).success).toBe(false);
    const chains = await v2(sb, "/v2/supported_chains");
    expect(S.chainRecord.array().safeParse((chains.json as { data: unknown }).data).success).toBe(false);
    const v1Search = await v1(sb, `/api/v1/tokens?keyword=${token.symbol}`);
    expect(S.openPayload.safeParse((v1Search.json as { data: unknown }).data).success).toBe(false);
  });

  it("applies a fault to the named endpoints only", async () => {
    sb.setFaults([{ kind: "http5xx", endpoints: ["batchPrices", "tokenDetail"] }]);
    expect((await detail()).status).toBe(502);
    dataOf(await v2(sb, "/v2/supported_chains"));
  });

  it("hits a reproducible share of requests at a rate, the same ones after each reset", async () => {
    const pattern = async (): Promise<number[]> => {
      sb.setFaults([{ kind: "http5xx", rate: 0.3 }]);
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await v2(sb, "/v2/ranks/topics")).status);
      return out;
    };
    const first = await pattern();
    const failed = first.filter((s) => s === 502).length;
    expect(failed).toBeGreaterThan(4);
    expect(failed).toBeLessThan(24);
    expect(await pattern()).toEqual(first);
  });

  it("stops a fault after the given number of hits", async () => {
    sb.setFaults([{ kind: "rate429", times: 2 }]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await v2(sb, "/v2/ranks/topics")).status);
    expect(statuses).toEqual([429, 429, 200, 200]);
  });

  it("sets and clears faults at run time over HTTP", async () => {
    const post = await fetch(`${sb.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify([{ kind: "http5xx", status: 500 }]) });
    expect(post.status).toBe(200);
    expect((await detail()).status).toBe(500);
    const bad = await fetch(`${sb.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify({ kind: "explode" }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toContain("unknown fault kind");
    await fetch(`${sb.url}/__sandbox/faults`, { method: "DELETE" });
    dataOf(await detail());
  });

  it("reads the command line's compact fault list", () => {
    expect(parseFaults("latency:300@0.1,http5xx:503@tokenDetail@batchPrices,hang@swaps")).toEqual([
      { kind: "latency", ms: 300, rate: 0.1 },
      { kind: "http5xx", status: 503, endpoints: ["tokenDetail", "batchPrices"] },
      { kind: "hang", endpoints: ["swaps"] },
    ]);
    expect(parseFaults('[{"kind":"truncated","rate":0.5}]')).toEqual([{ kind: "truncated", rate: 0.5 }]);
    expect(() => parseFaults("explode@0.1")).toThrow(/unknown fault kind/);
  });

  it("reads rates written as percentages or with a decimal point", () => {
    expect(parseFaults("http5xx@10%,rate429@1.0,hang@0.25")).toEqual([
      { kind: "http5xx", rate: 0.1 },
      { kind: "rate429", rate: 1 },
      { kind: "hang", rate: 0.25 },
    ]);
    expect(() => parseFaults("http5xx@150%")).toThrow(/bad rate/);
  });

  it("refuses a fault that names an endpoint the sandbox does not have, suggesting the right case", () => {
    expect(() => parseFaults("http5xx@tokendetail")).toThrow(/unknown endpoint "tokendetail"; did you mean tokenDetail\?/);
    expect(() => parseFaults('{"kind":"hang","endpoints":["prices"]}')).toThrow(/unknown endpoint "prices"; use one of .*batchPrices/);
  });

  it("answers 400 over HTTP to a fault that targets no endpoint, keeping the faults in force", async () => {
    sb.setFaults([{ kind: "http5xx", status: 503, endpoints: ["tokenDetail"] }]);
    const bad = await fetch(`${sb.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify([{ kind: "http5xx", endpoints: ["tokendetail"] }]) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toContain("did you mean tokenDetail?");
    expect((await detail()).status).toBe(503);
  });
});
