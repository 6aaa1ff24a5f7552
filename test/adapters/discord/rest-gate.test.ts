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
import { redisRoutePace } from "../../../src/redis/route-pace.js";
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
    const waited: number[] = [];
    const gate = sharedRestGate({
      ledger: redisPaceLedger({ redis, scope: `discord-rest:${app}`, ratePerSecond: 50 }),
      routes: redisRoutePace({ redis, scope: `discord-rest:${app}` }),
      onWait: (ms) => void waited.push(ms),
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
    return { waits, waited, request: (url: string) => request(url, { method: "POST" }) };
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
    const redis = await link();
    const shared = redisPaceLedger({ redis, scope: "discord-rest:900000000000000104", ratePerSecond: 50 });
    let asked = 0;
    const gate = sharedRestGate({
      ledger: { ...shared, take: (ids, t) => (asked++, shared.take(ids, t)) },
      routes: redisRoutePace({ redis, scope: "discord-rest:900000000000000104" }),
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
    await gate.reserve("POST", "/channels/500000000000000001/messages");
    const reservedAsks = asked;
    await request(POST, { method: "POST" });
    expect(waits).toEqual([]);
    expect(asked).toBe(reservedAsks);
    // The reservation is used up: the next post waits for its own slot, 20 ms after the first.
    await request(POST, { method: "POST" });
    expect(waits).toEqual([20]);
    // A slot reserved (at 40, after its own 20 ms wait) and left for more than a second has
    // passed: the post takes a fresh one, free by then.
    await gate.reserve("POST", "/channels/500000000000000001/messages");
    expect(waits).toEqual([20, 20]);
    clock += 1_001;
    const before = asked;
    await request(POST, { method: "POST" });
    expect(asked).toBe(before + 1);
    expect(sentAt.map((t) => t - sentAt[0]!)).toEqual([0, 20, 40 + 1_001]);
    expect(waits).toEqual([20, 20]);
  });
});

/** A channel post's answer with its bucket's headers: `limit`, `remaining` left, `resetAfter` seconds. */
function bucketAnswer(limit: number, remaining: number, resetAfter: number): ResponseLike {
  return response(200, { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset-after": resetAfter.toFixed(3), "x-ratelimit-bucket": "b1" });
}

describe("Discord's limits per route shared by the workers through Redis", () => {
  it("keeps a channel's 5 posts in 5 s over both workers before any answer told its limit", async () => {
    const { a, b, sent } = await twoWorkers("900000000000000111");
    for (let i = 0; i < 3; i++) {
      await a.request(POST);
      await b.request(POST);
    }
    const at = sent.map((s) => s.at - sent[0]!.at);
    // Five at the global pace, 20 ms apart; the sixth when the first is 5 s old.
    expect(at).toEqual([0, 20, 40, 60, 80, 5000]);
    expect(b.waits.at(-1)).toBe(5000 - 80);
    // The metrics see each request's whole wait, the route's and the global rate's together.
    expect(a.waited).toEqual([0, 20, 20]);
    expect(b.waited).toEqual([20, 20, 5000 - 80]);
  });

  it("counts another channel apart: its posts do not wait for a full one", async () => {
    const { a, b, sent } = await twoWorkers("900000000000000112");
    for (let i = 0; i < 5; i++) await a.request(POST);
    await b.request("http://discord.test/api/v10/channels/500000000000000002/messages");
    expect(sent.map((s) => s.at - sent[0]!.at)).toEqual([0, 20, 40, 60, 80, 100]);
  });

  it("learns a route's limit and window from the headers of an answer, for every worker", async () => {
    const { a, b, sent, answers } = await twoWorkers("900000000000000113");
    // Discord says: 3 in a window of 1 s, 2 left; the first post counts from its answer.
    answers.push(bucketAnswer(3, 2, 1));
    await a.request(POST);
    answers.push(bucketAnswer(3, 1, 0.98));
    await b.request(POST);
    answers.push(bucketAnswer(3, 0, 0.96));
    await a.request(POST);
    await b.request(POST);
    const at = sent.map((s) => s.at - sent[0]!.at);
    // The spent bucket holds the route until its reset (and discord.js's margin past it), after the first's second.
    expect(at.slice(0, 3)).toEqual([0, 20, 40]);
    expect(at[3]).toBe(40 + 960 + 100);
  });

  it("holds a channel for every worker when one of them got its route's 429", async () => {
    const { a, b, answers } = await twoWorkers("900000000000000114");
    answers.push(response(429, { "retry-after": "1.5", "x-ratelimit-scope": "user", "x-ratelimit-limit": "5", "x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "1.5" }));
    expect((await a.request(POST)).status).toBe(429);
    await b.request(POST);
    expect(b.waits).toEqual([1600]);
  });
});
