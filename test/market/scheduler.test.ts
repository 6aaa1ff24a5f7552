import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { MarketClient, type MarketCallEvent } from "../../src/market/client.js";
import { MarketError } from "../../src/market/errors.js";
import { DailyUnits, DAY_MS, MemoryUnitLedger } from "../../src/market/quota-ledger.js";
import { Retry } from "../../src/market/retry.js";
import { Scheduler, type Job, type Lane } from "../../src/market/scheduler.js";
import { deferred } from "../deferred.js";
import { lines, type Lines } from "../lines.js";
import { startFakeServer, v2ok } from "./fake-server.js";
import { ETH_TOKEN, steppedClock, V1_KEY, V2_KEY, type SteppedClock } from "./helpers.js";

/** A call that notes its name in `order` as it is sent. */
function job(lane: Lane, name: string, order: Lines, extra: Partial<Job<string>> = {}): Job<string> {
  return {
    lane,
    endpoint: "tokenDetail",
    units: 5,
    send: () => {
      order.push(name);
      return Promise.resolve(name);
    },
    ...extra,
  };
}

/** Resolves once `seen` holds `n` lines. */
const count = (seen: Lines, n: number): Promise<void> => seen.until((all) => all.length >= n);

/**
 * Sends until `seen` holds `n` calls, one sleep of the scheduler at a time: time moves on only
 * once the call the last step let out was sent, so each call sees the time it left at.
 */
async function stepThrough(clock: SteppedClock, seen: Lines, n: number): Promise<void> {
  for (let sent = 1; ; sent++) {
    await count(seen, sent);
    if (sent >= n) return;
    await clock.step();
  }
}

function schedulerOn(clock: SteppedClock, rps: number, extra: Partial<ConstructorParameters<typeof Scheduler>[0]> = {}): Scheduler {
  return new Scheduler({ rps, now: clock.now, sleep: clock.sleep, ...extra });
}

describe("the scheduler", () => {
  it("spaces calls 5 % more than 1000 / rps ms apart, so a call a little late does not share the service's second with the next", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 2);
    const at = lines();
    for (let i = 0; i < 3; i++) void s.run({ lane: "people", endpoint: "search", units: 5, send: async () => void at.push(String(clock.now())) });
    await stepThrough(clock, at, 3);
    expect(at.all).toEqual(["0", "525", "1050"]);
  });

  it("serves strict lanes: a person, then alerts, then the feed, then digests, then refreshes, whatever queued first", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 10);
    const order = lines();
    void s.run(job("refresh", "first-in", order));
    void s.run(job("refresh", "refresh", order));
    void s.run(job("digest", "digest", order));
    void s.run(job("feed", "feed", order));
    void s.run(job("alerts", "alert", order));
    void s.run(job("people", "person", order));
    await count(order, 1);
    expect(s.depth).toEqual({ people: 1, alerts: 1, feed: 1, digest: 1, refresh: 1 });
    await stepThrough(clock, order, 6);
    expect(order.all).toEqual(["first-in", "person", "alert", "feed", "digest", "refresh"]);
  });

  it("holds the feed lane to its share of the rate, letting lower lanes use the rest", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 2, { laneShares: { feed: 0.5 } });
    expect(s.laneRate("feed")).toBe(1);
    expect(s.laneRate("digest")).toBe(2);
    const at = lines();
    const timed = (lane: Lane, name: string): Job<void> => ({ lane, endpoint: "swaps", units: 50, send: async () => void at.push(`${name} ${clock.now()}`) });
    for (let i = 0; i < 3; i++) void s.run(timed("feed", `feed${i}`));
    for (let i = 0; i < 3; i++) void s.run(timed("digest", `digest${i}`));
    await stepThrough(clock, at, 6);
    // The plan's slots are 525 ms apart; the feed may take every second one.
    expect(at.all).toEqual(["feed0 0", "digest0 525", "feed1 1050", "digest1 1575", "feed2 2100", "digest2 2625"]);
  });

  it("refuses a lane share outside (0, 1]", () => {
    const clock = steppedClock();
    expect(() => schedulerOn(clock, 1, { laneShares: { feed: 0 } })).toThrow(/feed lane's share/);
    expect(() => schedulerOn(clock, 1, { laneShares: { feed: 1.5 } })).toThrow(/feed lane's share/);
  });

  it("paces the feed lane's units to its share of the day, while other lanes go on", async () => {
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const units = new DailyUnits({ dailyUnits: 1_000, now: clock.now, shares: { feed: 0.5 } });
    expect(units.dailyFor("feed")).toBe(500);
    expect(units.dailyFor("people")).toBe(1_000);
    // Half the day gone: the feed may have spent half its 500 plus 2 % slack (260).
    units.charge(250, "feed");
    expect(units.waitFor("feed", 10)).toBe(0);
    units.charge(10, "feed");
    expect(units.waitFor("feed", 10)).toBeGreaterThan(0);
    expect(units.waitFor("digest", 10)).toBe(0);
  });

  it("sends a call queued twice once, moved up to the more urgent lane, and answers both askers", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 1);
    const order = lines();
    void s.run(job("people", "busy-now", order));
    const refresh = s.run(job("refresh", "pepe", order, { key: "detail pepe" }));
    void s.run(job("digest", "digest", order));
    const person = s.run(job("people", "pepe", order, { key: "detail pepe" }));
    await count(order, 1);
    expect(s.depth).toEqual({ people: 1, alerts: 0, feed: 0, digest: 1, refresh: 0 });
    await stepThrough(clock, order, 3);
    expect(await Promise.all([refresh, person])).toEqual(["pepe", "pepe"]);
    expect(order.all).toEqual(["busy-now", "pepe", "digest"]);
  });

  it("refuses at once a person's call that cannot start before the deadline, saying the plan's rate and the true wait", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 1);
    const order = lines();
    for (let i = 0; i < 20; i++) void s.run(job("people", `q${i}`, order));
    const late = await s.run(job("people", "late", order, { deadline: 2_500 })).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(MarketError);
    expect(late).toMatchObject({ kind: "busy", ratePerSecond: 1, retryAfterMs: 21_000 });
    expect(s.depth.people).toBe(19);
  });

  it("takes a call whose deadline passed while people cut in ahead of it out of the queue", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 1);
    const order = lines();
    void s.run(job("people", "first", order));
    void s.run(job("people", "second", order));
    const hurried = s.run(job("alerts", "hurried", order, { deadline: 2_360 })).catch((e: unknown) => e);
    await count(order, 1);
    void s.run(job("people", "cutting-in", order));
    await stepThrough(clock, order, 3);
    // The next wake-up falls at the hurried call's last useful moment, before the plan's next slot.
    await clock.step();
    expect(await hurried).toMatchObject({ kind: "busy" });
    expect(clock.now()).toBe(2_111);
    expect(order.all).toEqual(["first", "second", "cutting-in"]);
    expect(s.depth.alerts).toBe(0);
  });

  it("refuses a person's call the day's pace holds past its deadline at that deadline, as the quota with the true wait", async () => {
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const units = new DailyUnits({ dailyUnits: 100_000, now: clock.now });
    const s = schedulerOn(clock, 0, { units });
    const order = lines();
    // A person may spend 60 % by noon: the price batch (100) waits about 1 s for the pace, in time.
    units.charge(59_902);
    const price = s.run(job("people", "price", order, { units: 100, deadline: clock.now() + 2_300 })).catch((e: unknown) => e);
    await clock.untilSleeping();
    // Another search of the same command leaves first and spends what the batch was waiting for.
    units.charge(500);
    await clock.step();
    await clock.step();
    const refused = await price;
    expect(order.all).toEqual([]);
    expect(refused).toMatchObject({ kind: "quota" });
    expect((refused as MarketError).status).toBeUndefined();
    expect((refused as MarketError).retryAfterMs).toBeGreaterThan(30_000);
    expect(clock.now()).toBeLessThanOrEqual(Date.UTC(2026, 10, 24, 12, 0) + 2_300);
  });

  it("says the pace, not the queue, holds a person's call that waits behind another when only the pace keeps it past its deadline", async () => {
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const units = new DailyUnits({ dailyUnits: 100_000, now: clock.now });
    const s = schedulerOn(clock, 1, { units });
    const order = lines();
    units.charge(59_950);
    void s.run(job("people", "search", order));
    // The second search waits for the plan's next second: the price batch would start after it.
    void s.run(job("people", "search too", order));
    const refused = await s.run(job("people", "price", order, { units: 100, deadline: clock.now() + 2_500 })).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: "quota" });
    expect((refused as MarketError).retryAfterMs).toBeGreaterThan(30_000);
  });

  it("refuses work past a lane's length instead of queueing it without bound", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 1, { maxQueued: { refresh: 2 } });
    const order = lines();
    void s.run(job("people", "now", order));
    void s.run(job("refresh", "a", order));
    void s.run(job("refresh", "b", order));
    expect(await s.run(job("refresh", "c", order)).catch((e: unknown) => e)).toMatchObject({ kind: "busy" });
  });

  it("believes a 429's Retry-After: nothing leaves before it, and a person is told the true wait at once", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 5);
    const limited = new MarketError({ kind: "rate_limited", endpoint: "search", message: "429", status: 429, retryAfterMs: 3_600_000 });
    await expect(s.run({ lane: "people", endpoint: "search", units: 5, send: () => Promise.reject(limited) })).rejects.toBe(limited);
    const order = lines();
    const digest = s.run(job("digest", "digest", order));
    const person = await s.run(job("people", "person", order, { deadline: 2_500 })).catch((e: unknown) => e);
    expect(person).toMatchObject({ kind: "rate_limited", retryAfterMs: 3_600_000 });
    // The scheduler looks at its queue again at least once a minute; each time, the pause still holds.
    await clock.runFor(3_599_000, digest);
    expect(order.all).toEqual([]);
    expect(clock.now()).toBe(3_599_000);
    await clock.runFor(1_000, digest);
    expect(await digest).toBe("digest");
    expect(clock.now()).toBe(3_600_000);
  });

  it("stops every call when the daily limit is reached, logs when the quota returns, and sends again after midnight", async () => {
    const logged: string[] = [];
    const logger = pino({ level: "info" }, { write: (l: string) => logged.push(l) });
    const clock = steppedClock(Date.UTC(2026, 10, 24, 21, 0));
    const s = schedulerOn(clock, 5, { logger });
    const spent = new MarketError({ kind: "quota", endpoint: "search", message: "403", status: 403 });
    const order = lines();
    const first = s.run({ lane: "people", endpoint: "search", units: 5, send: () => Promise.reject(spent) });
    const queued = s.run(job("digest", "queued", order)).catch((e: unknown) => e);
    // The call that met the limit is told when the quota returns, as the calls refused after it are.
    expect(await first.catch((e: unknown) => e)).toMatchObject({ kind: "quota", status: 403, retryAfterMs: 3 * 3_600_000, cause: spent });
    expect(await queued).toMatchObject({ kind: "quota", retryAfterMs: 3 * 3_600_000 });
    expect(await s.run(job("people", "refused", order)).catch((e: unknown) => e)).toMatchObject({ kind: "quota", status: 403 });
    expect(order.all).toEqual([]);
    expect(logged.join("\n")).toContain("until it returns at 00:00 UTC (in 180 min)");
    clock.advance(3 * 3_600_000);
    expect(await s.run(job("people", "tomorrow", order))).toBe("tomorrow");
  });

  it("refuses queued and later calls once closed, so a stop does not wait a second per queued call", async () => {
    const clock = steppedClock();
    const s = schedulerOn(clock, 1);
    const order = lines();
    const sent = s.run(job("people", "sent", order));
    const queued = s.run(job("digest", "queued", order)).catch((e: unknown) => e);
    s.close();
    expect(await queued).toMatchObject({ kind: "network", message: expect.stringContaining("closing") });
    expect(await s.run(job("people", "late", order)).catch((e: unknown) => e)).toMatchObject({ kind: "network" });
    expect(await sent).toBe("sent");
    expect(order.all).toEqual(["sent"]);
  });

  it("paces the day's compute units: refreshes give way before a person", async () => {
    const clock = steppedClock(Date.UTC(2026, 10, 24, 12, 0));
    const units = new DailyUnits({ dailyUnits: 1_000, now: clock.now });
    const s = schedulerOn(clock, 100, { units });
    const order = lines();
    // Half the day gone, 480 units spent: refreshes keep under 90 % of the even pace (450),
    // a person may run a tenth of the day ahead of it (600).
    units.charge(480);
    const refresh = s.run(job("refresh", "refresh", order, { units: 10 }));
    await s.run(job("people", "person", order, { units: 10 }));
    // The scheduler waits for the refresh's pace with the refresh still queued (a refresh sent instead ends the wait too).
    await Promise.race([clock.untilSleeping(), refresh]);
    expect(s.depth.refresh).toBe(1);
    expect(order.all).toEqual(["person"]);
    expect(units.left).toBe(510);
    // 500 units are within a refresh's pace at 500 / 900 of the day: 13:20 UTC.
    await clock.runFor(DAY_MS / 18 - 1_000, refresh);
    expect(order.all).toEqual(["person"]);
    await clock.runFor(2_000, refresh);
    expect(await refresh).toBe("refresh");
    expect(clock.now()).toBeGreaterThan(Date.UTC(2026, 10, 24, 13, 19, 59));
    expect(clock.now()).toBeLessThanOrEqual(Date.UTC(2026, 10, 24, 13, 20, 1));
  });

  it("with a gate other workers share, holds its next call until this one's turn came, and refuses at once, busy with the true wait, a person the turns cannot serve in time", async () => {
    const clock = steppedClock();
    const turns: (() => void)[] = [];
    const asked = lines();
    const gate = {
      shared: true,
      turn: () => {
        const turn = deferred();
        turns.push(turn.resolve);
        asked.push("turn");
        return turn.promise;
      },
    };
    const s = schedulerOn(clock, 5, { gate });
    const order = lines();
    const first = s.run(job("people", "first", order));
    const second = s.run(job("people", "second", order));
    await count(asked, 1);
    // The second call waits in the queue, where its deadline is kept, not in the gate.
    expect(turns).toHaveLength(1);
    expect(s.depth.people).toBe(1);
    // The other workers' calls take a second before this one's turn.
    clock.advance(1_000);
    turns.shift()?.();
    expect(await first).toBe("first");
    // The second call asks for its turn once the first had its own.
    await count(asked, 2);
    expect(turns).toHaveLength(1);
    expect(s.depth.people).toBe(0);
    const late = await s.run(job("people", "late", order, { deadline: clock.now() + 800 })).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(MarketError);
    expect(late).toMatchObject({ kind: "busy" });
    expect((late as MarketError).retryAfterMs).toBeGreaterThan(800);
    turns.shift()?.();
    expect(await second).toBe("second");
    expect(order.all).toEqual(["first", "second"]);
  });
});

describe("the day's units", () => {
  it("counts another worker's spend once the shared ledger's total is known", async () => {
    const now = () => 10 * DAY_MS + DAY_MS / 2;
    const ledger = new MemoryUnitLedger();
    await ledger.add(10, 900);
    const units = new DailyUnits({ dailyUnits: 1_000, ledger, now });
    await units.known();
    expect(units.spent).toBe(900);
    expect(units.left).toBe(100);
  });
});

describe("the retry layer", () => {
  const server503 = (retryAfterMs?: number) => new MarketError({ kind: "server", endpoint: "search", message: "503", status: 503, retryAfterMs });

  it("tries again what may help, within its budget", async () => {
    const clock = steppedClock();
    const retry = new Retry({ maxAttempts: 3, baseDelayMs: 100 }, { now: clock.now, sleep: clock.sleep, random: () => 1 });
    let n = 0;
    const answer = retry.run({ endpoint: "search" }, async () => {
      if (++n < 3) throw server503();
      return "ok";
    });
    await clock.runFor(15_000, answer);
    expect(await answer).toBe("ok");
    expect(clock.requested).toEqual([100, 200]);
    expect(clock.now()).toBe(300);
  });

  it("fails with what the service did when the retry could not be fitted in before the deadline", async () => {
    const clock = steppedClock();
    const retry = new Retry({ maxAttempts: 3, baseDelayMs: 100 }, { now: clock.now, sleep: clock.sleep, random: () => 1 });
    let n = 0;
    const failing = retry.run({ endpoint: "batchPrices", deadline: 10_000 }, async () => {
      // The first attempt gets a 503; the second is refused by the scheduler: no turn before the deadline.
      if (++n === 1) throw server503();
      throw new MarketError({ kind: "busy", endpoint: "batchPrices", message: "not sent: no turn before the deadline", retryAfterMs: 3_000, ratePerSecond: 5 });
    });
    await clock.runFor(15_000, failing.catch(() => undefined));
    await expect(failing).rejects.toMatchObject({ kind: "server" });
    expect(n).toBe(2);
  });

  it("starts no retry that could not finish before a person's deadline", async () => {
    const clock = steppedClock();
    const retry = new Retry({ maxAttempts: 5, baseDelayMs: 100 }, { now: clock.now, sleep: clock.sleep, random: () => 1 });
    let attempts = 0;
    const failing = retry.run({ endpoint: "search", deadline: 1_000 }, async () => {
      attempts++;
      throw server503(900);
    });
    await expect(failing).rejects.toMatchObject({ kind: "server" });
    expect(attempts).toBe(1);
    expect(clock.requested).toEqual([]);
  });
});

describe("the client's lanes", () => {
  it("shares one scheduler: a digest's calls wait behind a person's, and every wait is reported", async () => {
    const arrived = lines();
    const server = await startFakeServer((r) => {
      arrived.push(r.path);
      return v2ok({ token: { token: r.path.split("/").pop(), chain: "eth" }, pairs: [] });
    });
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
    // The first digest call reached the service; the two others wait in their lane.
    await count(arrived, 1);
    expect(client.scheduler.depth).toMatchObject({ people: 0, digest: 2 });
    calls.push(client.tokenDetail(`${ETH_TOKEN}9-eth`));
    expect(client.scheduler.depth).toMatchObject({ people: 1, digest: 2 });
    await stepThrough(clock, arrived, 4);
    await Promise.all(calls);
    await client.close();
    await server.close();

    expect(server.received).toHaveLength(4);
    // Sent at t = 105, before the two digest calls that queued earlier (t = 210, 315).
    const person = events.find((e) => e.lane === "people");
    expect(person).toMatchObject({ endpoint: "tokenDetail", outcome: "ok", queuedMs: 105 });
    expect(events.filter((e) => e.lane === "digest").map((e) => e.queuedMs).sort((a, b) => a - b)).toEqual([0, 210, 315]);
  });

  it("sends a lane view's calls in that lane", async () => {
    const server = await startFakeServer(() => v2ok([]));
    const events: MarketCallEvent[] = [];
    const client = new MarketClient({ v2: { baseUrl: server.url, key: V2_KEY }, onCall: (e) => events.push(e) });
    await client.onLane("alerts").supportedChains();
    await client.close();
    await server.close();
    expect(events).toEqual([expect.objectContaining({ endpoint: "supportedChains", lane: "alerts", outcome: "ok" })]);
  });
});
