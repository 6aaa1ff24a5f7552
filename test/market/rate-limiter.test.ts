import { describe, expect, it } from "vitest";
import { MarketClient, type MarketCallEvent } from "../../src/market/client.js";
import { RateLimiter, type Lane } from "../../src/market/rate-limiter.js";
import { startFakeServer, v2ok } from "./fake-server.js";
import { deferred, ETH_TOKEN, V1_KEY, V2_KEY } from "./helpers.js";

/** A clock whose sleeps end only when the test moves time past them. */
function steppedClock(): { now: () => number; sleep: (ms: number) => Promise<void>; requested: number[]; step: () => Promise<void> } {
  let t = 0;
  const pending: { until: number; resolve: () => void }[] = [];
  const requested: number[] = [];
  return {
    now: () => t,
    sleep: (ms) => {
      requested.push(ms);
      const d = deferred();
      pending.push({ until: t + ms, resolve: d.resolve });
      return d.promise;
    },
    requested,
    /** Moves time to the earliest pending sleep's end and ends it. */
    step: async () => {
      pending.sort((a, b) => a.until - b.until);
      const next = pending.shift();
      if (next === undefined) throw new Error("nothing is sleeping");
      t = Math.max(t, next.until);
      next.resolve();
      await flush();
    },
  };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

describe("RateLimiter", () => {
  it("spaces requests 1000 / rps ms apart", async () => {
    const clock = steppedClock();
    const limiter = new RateLimiter({ rps: 2, now: clock.now, sleep: clock.sleep });
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) void limiter.acquire("interactive").then((w) => waits.push(w));
    await flush();
    expect(waits).toEqual([0]);
    await clock.step();
    await clock.step();
    expect(waits).toEqual([0, 500, 1000]);
    expect(clock.requested).toEqual([500, 500]);
  });

  it("lets a waiting interactive request go before background ones that queued earlier", async () => {
    const clock = steppedClock();
    const limiter = new RateLimiter({ rps: 5, now: clock.now, sleep: clock.sleep });
    const order: string[] = [];
    const take = (lane: Lane, name: string) => void limiter.acquire(lane).then((w) => order.push(`${name}@${w}`));
    take("background", "digest1");
    take("background", "digest2");
    take("background", "digest3");
    await flush();
    take("interactive", "person");
    await flush();
    expect(limiter.pending).toEqual({ interactive: 1, background: 2 });
    await clock.step();
    await clock.step();
    await clock.step();
    expect(order).toEqual(["digest1@0", "person@200", "digest2@400", "digest3@600"]);
  });

  it("answers at once when no rate is set", async () => {
    const limiter = new RateLimiter({ now: () => 0, sleep: () => new Promise(() => undefined) });
    expect(await Promise.all([limiter.acquire("background"), limiter.acquire("interactive")])).toEqual([0, 0]);
  });

  it("refuses a negative rate with a message naming the option", () => {
    expect(() => new RateLimiter({ rps: -1 })).toThrow(/rps must be a positive number/);
  });
});

describe("the background view of the client", () => {
  it("shares the client's rate limit and waits behind interactive calls, reporting the wait", async () => {
    const server = await startFakeServer((r) => v2ok({ token: { token: r.path.split("/").pop(), chain: "eth" }, pairs: [] }));
    const clock = steppedClock();
    const events: MarketCallEvent[] = [];
    const client = new MarketClient({
      v2: { baseUrl: server.url, key: V2_KEY },
      v1: { baseUrl: server.url, key: V1_KEY },
      rps: 10,
      now: clock.now,
      sleep: clock.sleep,
      onCall: (e) => events.push(e),
    });
    const digest = client.background();
    const calls = [1, 2, 3].map((i) => digest.tokenDetail(`${ETH_TOKEN}${i}-eth`));
    await flush();
    calls.push(client.tokenDetail(`${ETH_TOKEN}9-eth`));
    await flush();
    for (let i = 0; i < 3; i++) await clock.step();
    await Promise.all(calls);
    await client.close();
    await server.close();

    expect(server.received).toHaveLength(4);
    // Granted at t = 100, before the two digest calls that queued earlier (t = 200, 300).
    const person = events.find((e) => e.lane === "interactive");
    expect(person).toMatchObject({ endpoint: "tokenDetail", outcome: "ok", queuedMs: 100 });
    expect(events.filter((e) => e.lane === "background").map((e) => e.queuedMs).sort((a, b) => a - b)).toEqual([0, 200, 300]);
  });
});
