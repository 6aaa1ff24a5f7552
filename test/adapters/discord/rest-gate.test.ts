/**
 * The REST gate of several workers on a real Redis: each worker's discord.js REST client asks
 * the gate before a request, so their calls together keep Discord's global 50 a second and a
 * global 429 seen by one pauses all. Two connections stand for two worker processes; time is a
 * clock the test moves, and a worker's wait moves it.
 */
import { describe, expect, it } from "vitest";
import type { ResponseLike } from "discord.js";
import { sharedRestGate } from "../../../src/adapters/discord/rest-gate.js";
import { redisPaceLedger } from "../../../src/redis/pace-ledger.js";
import { useRedis } from "../../engines/redis.js";

const { link } = useRedis();

function response(status: number, headers: Record<string, string> = {}): ResponseLike {
  return {
    body: null,
    bodyUsed: false,
    headers: new Headers(headers),
    status,
    statusText: String(status),
    ok: status < 300,
    arrayBuffer: async () => new ArrayBuffer(0),
    json: async () => ({}),
    text: async () => "",
  };
}

/** Two workers of the bot `app` on one clock, each with its own Redis connection. */
async function twoWorkers(app: string) {
  let clock = 1_000_000;
  const sent: { worker: string; url: string; at: number }[] = [];
  const answers: ResponseLike[] = [];
  const worker = async (name: string) => {
    const redis = await link();
    const waits: number[] = [];
    const gate = sharedRestGate({
      ledger: redisPaceLedger({ redis, scope: `discord-rest:${app}`, ratePerSecond: 50 }),
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    const request = gate(async (url) => {
      sent.push({ worker: name, url, at: clock });
      return answers.shift() ?? response(200);
    });
    return { waits, request: (url: string) => request(url, { method: "POST" }) };
  };
  return { a: await worker("a"), b: await worker("b"), sent, answers };
}

const POST = "http://discord.test/api/v10/channels/500000000000000001/messages";

describe("Discord's global rate shared by the workers through Redis", () => {
  it("makes one worker's request wait for the slot another worker just took (20 ms at 50 a second)", async () => {
    const { a, b, sent } = await twoWorkers("900000000000000101");
    await a.request(POST);
    await b.request(POST);
    expect(a.waits).toEqual([]);
    expect(b.waits).toEqual([20]);
    expect(sent.map((s) => [s.worker, s.at - sent[0]!.at])).toEqual([
      ["a", 0],
      ["b", 20],
    ]);
  });

  it("pauses every worker for the retry-after of a global 429 one of them got", async () => {
    const { a, b, answers } = await twoWorkers("900000000000000102");
    answers.push(response(429, { "x-ratelimit-global": "true", "retry-after": "2" }));
    const refused = await a.request(POST);
    expect(refused.status).toBe(429);
    await b.request(POST);
    expect(b.waits).toEqual([2000]);
  });

  it("lets interaction answers through at once: Discord does not count them against the global rate", async () => {
    const { a, b, answers } = await twoWorkers("900000000000000103");
    answers.push(response(429, { "x-ratelimit-global": "true", "retry-after": "5" }));
    await a.request(POST);
    await b.request("http://discord.test/api/v10/interactions/123456789012345678/tok/callback");
    await b.request("http://discord.test/api/v10/webhooks/900000000000000103/tok/messages/@original");
    expect(b.waits).toEqual([]);
  });

  it("lets a post whose slot was reserved ahead (before its claim) pass without waiting, once, and only within a second", async () => {
    let clock = 2_000_000;
    const waits: number[] = [];
    const shared = redisPaceLedger({ redis: await link(), scope: "discord-rest:900000000000000104", ratePerSecond: 50 });
    let asked = 0;
    const gate = sharedRestGate({
      ledger: { ...shared, take: (ids, t) => (asked++, shared.take(ids, t)) },
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    const sentAt: number[] = [];
    const request = gate(async () => {
      sentAt.push(clock);
      return response(200);
    });
    await gate.reserve("/channels/500000000000000001/messages");
    const reservedAsks = asked;
    await request(POST, { method: "POST" });
    expect(waits).toEqual([]);
    expect(asked).toBe(reservedAsks);
    // The reservation is used up: the next post waits for its own slot, 20 ms after the first.
    await request(POST, { method: "POST" });
    expect(waits).toEqual([20]);
    // A slot reserved (at 40, after its own 20 ms wait) and left for more than a second has
    // passed: the post takes a fresh one, free by then.
    await gate.reserve("/channels/500000000000000001/messages");
    expect(waits).toEqual([20, 20]);
    clock += 1_001;
    const before = asked;
    await request(POST, { method: "POST" });
    expect(asked).toBe(before + 1);
    expect(sentAt.map((t) => t - sentAt[0]!)).toEqual([0, 20, 40 + 1_001]);
    expect(waits).toEqual([20, 20]);
  });
});
