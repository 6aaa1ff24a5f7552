import { describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import { MAX_CANDIDATES, memoryPaceLedger, type PaceLedger, type PaceOptions } from "../../src/digest/pace-ledger.js";
import { createPacedQueue, type PacedQueue, type PacedQueueOptions } from "../../src/digest/paced-queue.js";
import { redisPaceLedger } from "../../src/redis/pace-ledger.js";
import { deferred } from "../deferred.js";
import { useRedis } from "../engines/redis.js";
import { virtualClock } from "./virtual-clock.js";

const { link, engine } = useRedis();

/** Each test's pace has a name of its own in Redis. */
let bots = 0;
const onRedis = async (opts: PacedQueueOptions, scope = `bot${(bots += 1)}`): Promise<PacedQueue> =>
  createPacedQueue({ ...opts, ledger: redisPaceLedger({ ...opts, redis: await link(), scope }) });

describe.each([
  ["in process", async (opts: PacedQueueOptions) => createPacedQueue(opts)],
  ["with its pace in Redis", (opts: PacedQueueOptions) => onRedis(opts)],
])("paced delivery queue %s", (_where, make) => {
  it("keeps the global pace: no two sends closer than 1/rate", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 25, maxInFlight: 3, ...clock });
    const sentAt: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        q.push({ chatId: `c${i}`, deadline: Infinity, send: async () => (sentAt.push(clock.now()), { kind: "delivered" }) }),
      ),
    );
    expect(results.every((r) => r.kind === "delivered")).toBe(true);
    sentAt.sort((a, b) => a - b);
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(40);
  });

  it("drops a job that is no longer live before it takes a slot, so the pace goes to the live ones", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 10, maxInFlight: 1, ...clock });
    let wanted = true;
    const sentAt: number[] = [];
    const send = async (): Promise<SendOutcome> => {
      sentAt.push(clock.now());
      wanted = false;
      return { kind: "delivered" };
    };
    const results = await Promise.all([
      q.push({ chatId: "a", deadline: Infinity, live: () => wanted, send }),
      q.push({ chatId: "b", deadline: Infinity, live: () => wanted, send }),
      q.push({ chatId: "c", deadline: Infinity, send }),
    ]);
    expect(results.map((r) => r.kind)).toEqual(["delivered", "stopped", "delivered"]);
    // c took the slot right after a's: b used none.
    expect(sentAt[1]! - sentAt[0]!).toBeLessThan(200);
  });

  it("sends at most N a minute to one chat while others go ahead", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1000, perChatPerMinute: 20, maxInFlight: 2, ...clock });
    const log: { chat: string; t: number }[] = [];
    const jobs = [...Array.from({ length: 30 }, () => "group"), "other"].map((chatId) =>
      q.push({ chatId, deadline: Infinity, send: async () => (log.push({ chat: chatId, t: clock.now() }), { kind: "delivered" }) }),
    );
    await Promise.all(jobs);
    const group = log.filter((l) => l.chat === "group").map((l) => l.t);
    expect(group).toHaveLength(30);
    for (let i = 20; i < group.length; i++) expect(group[i]! - group[i - 20]!).toBeGreaterThanOrEqual(60_000);
    const other = log.find((l) => l.chat === "other")!;
    expect(other.t).toBeLessThan(group[20]!);
  });

  it("keeps a chat's messages a second apart while other chats go ahead", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1000, perChatSpacingMs: 1000, maxInFlight: 1, ...clock });
    const log: { chat: string; t: number }[] = [];
    const jobs = [...Array.from({ length: 5 }, () => "group"), "other"].map((chatId) =>
      q.push({ chatId, deadline: Infinity, send: async () => (log.push({ chat: chatId, t: clock.now() }), { kind: "delivered" }) }),
    );
    await Promise.all(jobs);
    const group = log.filter((l) => l.chat === "group").map((l) => l.t);
    expect(group).toHaveLength(5);
    for (let i = 1; i < group.length; i++) expect(group[i]! - group[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(log.find((l) => l.chat === "other")!.t).toBeLessThan(group[1]!);
  });

  it("sends a chat's urgent job (an alert) before its backlog, each kind keeping its own order", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1000, perChatSpacingMs: 1000, maxInFlight: 1, ...clock });
    const order: string[] = [];
    const push = (name: string, urgent = false) =>
      q.push({ chatId: "group", deadline: Infinity, ...(urgent ? { urgent } : {}), send: async () => (order.push(name), { kind: "delivered" }) });
    const jobs = [push("buy1"), push("buy2"), push("buy3"), push("alert1", true), push("buy4"), push("alert2", true)];
    await Promise.all(jobs);
    // All six are queued before the first turn (push is synchronous): the alerts first, then the buys in order.
    expect(order).toEqual(["alert1", "alert2", "buy1", "buy2", "buy3", "buy4"]);
  });

  it("lets chats with room take turns ahead of more chats than a turn looks at that wait for their minute", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1000, perChatPerMinute: 1, maxInFlight: 1, ...clock });
    const start = clock.now();
    const firstAt = new Map<string, number>();
    const jobs: Promise<unknown>[] = [];
    const chats = MAX_CANDIDATES + 35;
    for (let c = 0; c < chats; c++) {
      for (let j = 0; j < 2; j++) {
        jobs.push(q.push({ chatId: `c${c}`, deadline: Infinity, send: async () => (firstAt.has(`c${c}`) || firstAt.set(`c${c}`, clock.now()), { kind: "delivered" }) }));
      }
    }
    await Promise.all(jobs);
    // Every chat's first job goes in the first minute; the second of each waits for its chat's minute.
    expect(firstAt.size).toBe(chats);
    expect(Math.max(...firstAt.values()) - start).toBeLessThan(60_000);
  });

  it("sends an urgent job behind other chats' backlogs longer than a turn looks at without waiting for them", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1000, perChatPerMinute: 2, maxInFlight: 1, ...clock });
    const start = clock.now();
    const backlog: Promise<unknown>[] = [];
    // Each chat's 20 jobs: a turn looks at its first alone, but passes all 20 to reach the next chat.
    for (let c = 0; c < 60; c++) for (let j = 0; j < 20; j++) backlog.push(q.push({ chatId: `busy${c}`, deadline: Infinity, send: async () => ({ kind: "delivered" }) }));
    let alertAt = 0;
    const alert = q.push({ chatId: "busy59", deadline: Infinity, urgent: true, send: async () => ((alertAt = clock.now()), { kind: "delivered" }) });
    expect(await alert).toEqual({ kind: "delivered" });
    // Without going first it waited for the minute of the chats a turn reached (60 s here).
    expect(alertAt - start).toBeLessThan(1_000);
    await q.stop();
    await Promise.all(backlog);
  });

  it("lets another chat go ahead of one chat's backlog longer than the jobs a turn looks at", async () => {
    const clock = virtualClock();
    const q = await make({ perChatPerMinute: 1, maxInFlight: 1, ...clock });
    const busy: number[] = [];
    for (let i = 0; i < MAX_CANDIDATES + 5; i++) void q.push({ chatId: "busy", deadline: Infinity, send: async () => (busy.push(clock.now()), { kind: "delivered" }) });
    const t0 = clock.now();
    expect(await q.push({ chatId: "quiet", deadline: Infinity, send: async () => ({ kind: "delivered" }) })).toEqual({ kind: "delivered" });
    // Sent within the busy chat's first minute, not after the backlog's first 65 minutes.
    expect(clock.now() - t0).toBeLessThan(60_000);
    expect(busy).toHaveLength(1);
    await q.stop();
  });

  it("sends a job pushed while every worker waits for its chats' turn without waiting with them, and ends each wait it cut short", async () => {
    const clock = virtualClock();
    const resting = deferred();
    const waits: AbortSignal[] = [];
    // A short wait passes at once; a chat's minute is waited out only once the test lets go, which it never does.
    const sleep = (ms: number, signal: AbortSignal) => {
      if (ms < 1000) return Promise.resolve(void clock.advance(ms));
      waits.push(signal);
      resting.resolve();
      return new Promise<void>(() => undefined);
    };
    const q = await make({ perChatPerMinute: 1, maxInFlight: 1, now: clock.now, sleep });
    const delivered = async (): Promise<SendOutcome> => ({ kind: "delivered" });
    await q.push({ chatId: "busy", deadline: Infinity, send: delivered });
    const waiting = q.push({ chatId: "busy", deadline: Infinity, send: delivered });
    await resting.promise;
    expect(await q.push({ chatId: "quiet", deadline: Infinity, send: delivered })).toEqual({ kind: "delivered" });
    // The wait the push cut short was told to end (a timer left running for its minute, per push, otherwise).
    expect(waits[0]?.aborted).toBe(true);
    await q.stop();
    expect(await waiting).toEqual({ kind: "stopped" });
    expect(waits.map((w) => w.aborted)).toEqual(waits.map(() => true));
  });

  it("counts a group's send from when the platform answered it, so a send held up in flight cannot bunch the next minute's (regression: 21 in 60 s)", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1000, perChatPerMinute: 20, maxInFlight: 2, ...clock });
    const answered: number[] = [];
    const started: number[] = [];
    const send = (slow: boolean) => async (): Promise<SendOutcome> => {
      started.push(clock.now());
      if (slow) await clock.sleep(10_000);
      answered.push(clock.now());
      return { kind: "delivered" };
    };
    await Promise.all(Array.from({ length: 21 }, (_, i) => q.push({ chatId: "g", deadline: Infinity, send: send(i === 0) })));
    // The 21st send may start only a minute after the first one reached the platform.
    expect(started[20]! - Math.min(...answered)).toBeGreaterThanOrEqual(60_000);
  });

  it("pauses the whole queue for retry-after and then sends the rate-limited job again", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 100, maxInFlight: 1, ...clock });
    const attempts: { chat: string; t: number }[] = [];
    let limited = false;
    const send = (chat: string) => async (): Promise<SendOutcome> => {
      attempts.push({ chat, t: clock.now() });
      if (chat === "a" && !limited) {
        limited = true;
        return { kind: "retry", afterMs: 5_000 };
      }
      return { kind: "delivered" };
    };
    const start = clock.now();
    const [a, b] = await Promise.all([
      q.push({ chatId: "a", deadline: Infinity, send: send("a") }),
      q.push({ chatId: "b", deadline: Infinity, send: send("b") }),
    ]);
    expect(a).toEqual({ kind: "delivered" });
    expect(b).toEqual({ kind: "delivered" });
    expect(attempts.map((x) => x.chat)).toEqual(["a", "a", "b"]);
    expect(attempts[1]!.t - start).toBeGreaterThanOrEqual(5_000);
  });

  it.each([
    ["failed on the platform's side (a 5xx)", { kind: "retry", afterMs: 5_000, reason: "502 Bad Gateway" }],
    ["rate limited on its own route (a Discord channel's 429)", { kind: "retry", afterMs: 5_000, scope: "chat" }],
  ] as [string, SendOutcome][])("holds only the chat whose send %s: the other chats go on, and it is sent again after the wait", async (_, outcome) => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 100, maxInFlight: 1, ...clock });
    const attempts: { chat: string; t: number }[] = [];
    let failed = false;
    const send = (chat: string) => async (): Promise<SendOutcome> => {
      attempts.push({ chat, t: clock.now() });
      if (chat === "a" && !failed) {
        failed = true;
        return outcome;
      }
      return { kind: "delivered" };
    };
    const start = clock.now();
    const results = await Promise.all([
      q.push({ chatId: "a", deadline: Infinity, send: send("a") }),
      q.push({ chatId: "b", deadline: Infinity, send: send("b") }),
      q.push({ chatId: "c", deadline: Infinity, send: send("c") }),
    ]);
    expect(results.map((r) => r.kind)).toEqual(["delivered", "delivered", "delivered"]);
    expect(attempts.map((x) => x.chat)).toEqual(["a", "b", "c", "a"]);
    expect(attempts[2]!.t - start).toBeLessThan(1_000);
    expect(attempts[3]!.t - start).toBeGreaterThanOrEqual(5_000);
  });

  it("drops a job whose deadline passed instead of sending it late", async () => {
    const clock = virtualClock();
    const q = await make({ ratePerSecond: 1, maxInFlight: 1, ...clock });
    let sent = 0;
    const deadline = clock.now() + 1_500;
    const results = await Promise.all(
      ["a", "b", "c"].map((chatId) => q.push({ chatId, deadline, send: async () => (sent++, { kind: "delivered" }) })),
    );
    expect(results.map((r) => r.kind)).toEqual(["delivered", "delivered", "expired"]);
    expect(sent).toBe(2);
  });

  it("asks only the jobs that come up whether they are still wanted, not the whole queue at every turn", async () => {
    const clock = virtualClock();
    const q = await make({ maxInFlight: 4, ...clock });
    const jobs = 2_000;
    let asked = 0;
    const results = await Promise.all(
      Array.from({ length: jobs }, (_, i) =>
        q.push({ chatId: `c${i}`, deadline: Infinity, live: () => (asked++, true), send: async () => ({ kind: "delivered" }) }),
      ),
    );
    expect(results.every((r) => r.kind === "delivered")).toBe(true);
    // One turn per job, each looking at most at the candidates (a scan of the queue: about jobs² / 2).
    expect(asked).toBeLessThanOrEqual(MAX_CANDIDATES * jobs);
  });

  it("counts each chat's jobs not yet started through sends, drops, a retry and a stop", async () => {
    const clock = virtualClock();
    const retried = deferred();
    const q = await make({ ratePerSecond: 100, perChatSpacingMs: 1_000, maxInFlight: 1, onRateLimited: () => retried.resolve(), ...clock });
    const counts = (): number[] => [q.pending(), q.pending("a"), q.pending("b"), q.pending("c")];
    let limited = false;
    const firstSend = deferred();
    const held = deferred();
    const send = (chat: string) => async (): Promise<SendOutcome> => {
      if (chat === "a" && !limited) {
        limited = true;
        firstSend.resolve();
        await held.promise;
        return { kind: "retry", afterMs: 2_000 };
      }
      return { kind: "delivered" };
    };
    const jobs = [
      q.push({ chatId: "a", deadline: Infinity, send: send("a") }),
      q.push({ chatId: "a", deadline: Infinity, send: send("a") }),
      q.push({ chatId: "b", deadline: Infinity, send: send("b") }),
      q.push({ chatId: "c", deadline: clock.now() + 500, send: send("c") }),
    ];
    await firstSend.promise;
    expect(counts()).toEqual([3, 1, 1, 1]);
    held.resolve();
    await retried.promise;
    // The retried job is queued again for its chat; c's deadline passes in the 2 s pause.
    expect(counts()).toEqual([4, 2, 1, 1]);
    expect((await jobs[3])?.kind).toBe("expired");
    expect(q.pending("c")).toBe(0);
    await Promise.all(jobs);
    expect(counts()).toEqual([0, 0, 0, 0]);
    const inFlight = deferred();
    const started = deferred();
    const first = q.push({ chatId: "b", deadline: Infinity, send: async () => (started.resolve(), await inFlight.promise, { kind: "delivered" }) });
    const second = q.push({ chatId: "b", deadline: Infinity, send: send("b") });
    await started.promise;
    expect(q.pending("b")).toBe(1);
    const stopped = q.stop();
    expect(await second).toEqual({ kind: "stopped" });
    expect(counts()).toEqual([0, 0, 0, 0]);
    inFlight.resolve();
    await Promise.all([stopped, first]);
  });

  it("answers `stopped` for a send in flight that is rate limited after the queue stopped, not never", async () => {
    const q = await make({ maxInFlight: 1 });
    const inFlight = deferred();
    const started = deferred();
    const limited = q.push({
      chatId: "a",
      deadline: Infinity,
      send: async () => {
        started.resolve();
        await inFlight.promise;
        return { kind: "retry", afterMs: 5_000 };
      },
    });
    await started.promise;
    const stopped = q.stop();
    inFlight.resolve();
    await stopped;
    expect(await limited).toEqual({ kind: "stopped" });
    expect(q.pending()).toBe(0);
  });

  it("on stop finishes the send in flight and leaves queued jobs unsent", async () => {
    const q = await make({ maxInFlight: 1 });
    const inFlight = deferred();
    const started = deferred();
    const first = q.push({
      chatId: "a",
      deadline: Infinity,
      send: async () => {
        started.resolve();
        await inFlight.promise;
        return { kind: "delivered" };
      },
    });
    const second = q.push({ chatId: "b", deadline: Infinity, send: async () => ({ kind: "delivered" }) });
    await started.promise;
    const stopped = q.stop();
    inFlight.resolve();
    await stopped;
    expect(await first).toEqual({ kind: "delivered" });
    expect(await second).toEqual({ kind: "stopped" });
  });
});

describe("a paced queue woken by a push", () => {
  it("looks again for a job whose chat has none queued, not for one behind its chat's backlog", async () => {
    const clock = virtualClock();
    const resting = deferred();
    const sleep = (ms: number) => {
      if (ms < 1000) return Promise.resolve(void clock.advance(ms));
      resting.resolve();
      return new Promise<void>(() => undefined);
    };
    const opts = { perChatPerMinute: 1, maxInFlight: 1, now: clock.now, sleep };
    const ledger = memoryPaceLedger(opts);
    let turns = 0;
    const q = createPacedQueue({ ...opts, ledger: { ...ledger, take: (...a) => (turns++, ledger.take(...a)) } });
    const delivered = async (): Promise<SendOutcome> => ({ kind: "delivered" });
    await q.push({ chatId: "busy", deadline: Infinity, send: delivered });
    const backlog = [q.push({ chatId: "busy", deadline: Infinity, send: delivered })];
    await resting.promise;
    const before = turns;
    // One at a time, each after the worker rested again, as a feed's posts come as each is written.
    for (let i = 0; i < 20; i++) {
      backlog.push(q.push({ chatId: "busy", deadline: Infinity, send: delivered }));
      await new Promise<void>((r) => setImmediate(r));
    }
    expect(turns - before).toBe(0);
    expect(await q.push({ chatId: "quiet", deadline: Infinity, send: delivered })).toEqual({ kind: "delivered" });
    await q.stop();
    expect((await Promise.all(backlog)).every((r) => r.kind === "stopped")).toBe(true);
  });
});

describe.each([
  ["in process", async (o: PaceOptions): Promise<PaceLedger> => memoryPaceLedger(o)],
  ["in Redis", async (o: PaceOptions): Promise<PaceLedger> => redisPaceLedger({ ...o, redis: await link(), scope: `bot${(bots += 1)}` })],
])("a group's minute shared by its posts and the replies to commands, kept %s", (_where, ledgerOf) => {
  it("keeps a chat a reply waits for from posts until the hold ends, never from the reply itself or other chats", async () => {
    const ledger = await ledgerOf({ perChatPerMinute: 20, perChatSpacingMs: 1000 });
    const t = 1_000_000;
    await ledger.hold("g", t + 5_000);
    expect(await ledger.take(["g"], t, 4)).toEqual({ waitMs: 5_000 });
    expect(await ledger.take(["g", "h"], t, 4)).toMatchObject({ index: 1 });
    expect(await ledger.take(["g"], t)).toMatchObject({ index: 0 });
    await ledger.hold("g", 0);
    expect(await ledger.take(["g"], t + 1_000, 4)).toMatchObject({ index: 0 });
  });

  it("leaves a group one more slot of its minute for each reply it had in it", async () => {
    const ledger = await ledgerOf({ perChatPerMinute: 20 });
    const t = 2_000_000;
    for (let i = 0; i < 10; i++) expect(await ledger.take(["g"], t + i, 4)).toMatchObject({ index: 0 });
    for (let i = 0; i < 5; i++) expect(await ledger.take(["g"], t + 10 + i)).toMatchObject({ index: 0 });
    // 15 sent, 5 of them replies: posts may fill the minute to 20 - 4 - 5 = 11 only, so they wait.
    expect(await ledger.take(["g"], t + 20, 4)).toMatchObject({ waitMs: expect.any(Number) });
    // A reply still finds its room, and another chat's posts are not held.
    expect(await ledger.take(["g"], t + 21)).toMatchObject({ index: 0 });
    expect(await ledger.take(["h"], t + 22, 4)).toMatchObject({ index: 0 });
    // Once the replies' minute is over, the posts have their 16 again.
    expect(await ledger.take(["g"], t + 10 + 60_000, 4)).toMatchObject({ index: 0 });
  });

  it("leaves the replies their 4 of a group's 20 however long its backlog of posts", async () => {
    const clock = virtualClock();
    const ledger = await ledgerOf({ perChatPerMinute: 20 });
    const q = createPacedQueue({ maxInFlight: 1, ledger, reservePerChat: 4, ...clock });
    const sent: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, () => q.push({ chatId: "g", deadline: Infinity, send: async () => (sent.push(clock.now()), { kind: "delivered" as const }) })),
    );
    // Posts alone take 16 of any minute.
    for (let i = 16; i < sent.length; i++) expect(sent[i]! - sent[i - 16]!).toBeGreaterThanOrEqual(60_000);
    // A group whose posts took their 16 of the minute: replies get the other 4 at once, and no more.
    const other = await ledgerOf({ perChatPerMinute: 20 });
    const fresh = createPacedQueue({ maxInFlight: 1, ledger: other, reservePerChat: 4, ...clock });
    await Promise.all(Array.from({ length: 16 }, () => fresh.push({ chatId: "h", deadline: Infinity, send: async () => ({ kind: "delivered" as const }) })));
    const replies = [];
    for (let r = 0; r < 5; r++) replies.push(await other.take(["h"], clock.now()));
    expect(replies.map((r) => "index" in r)).toEqual([true, true, true, true, false]);
  });
});

describe("paced delivery queues of several processes sharing one bot's pace in Redis", () => {
  /**
   * When each send was let go, read from the queue's own report of how long it waited: every
   * job is pushed at `t0`. (The virtual clock moves while another worker sleeps, so a send's
   * own reading of it may come after a later slot's.)
   */
  const slots = (clock: { now(): number }) => {
    const t0 = clock.now();
    const at: number[] = [];
    return { at, onWait: (ms: number) => void at.push(t0 + ms) };
  };
  const delivered = async (): Promise<SendOutcome> => ({ kind: "delivered" });
  const spaced = (times: number[], ms: number) => {
    const sorted = [...times].sort((x, y) => x - y);
    return sorted.slice(1).every((t, i) => t - sorted[i]! >= ms);
  };

  it("keep the global pace between them: no two sends of either closer than 1/rate", async () => {
    const clock = virtualClock();
    const scope = `shared${(bots += 1)}`;
    const seen = slots(clock);
    const opts = { ratePerSecond: 25, maxInFlight: 2, ...clock, onWait: seen.onWait };
    const [a, b] = [await onRedis(opts, scope), await onRedis(opts, scope)];
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).push({ chatId: `c${i}`, deadline: Infinity, send: delivered })));
    expect(seen.at).toHaveLength(40);
    expect(spaced(seen.at, 40)).toBe(true);
  });

  it("hold a Telegram group to 20 a minute between them", async () => {
    const clock = virtualClock();
    const scope = `shared${(bots += 1)}`;
    const seen = slots(clock);
    const opts = { ratePerSecond: 1000, perChatPerMinute: 20, maxInFlight: 2, ...clock, onWait: seen.onWait };
    const [a, b] = [await onRedis(opts, scope), await onRedis(opts, scope)];
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).push({ chatId: "-100", deadline: Infinity, send: delivered })));
    const sorted = [...seen.at].sort((x, y) => x - y);
    expect(sorted).toHaveLength(30);
    for (let i = 20; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 20]!).toBeGreaterThanOrEqual(60_000);
  });

  it("pause together for one process's 429", async () => {
    const clock = virtualClock();
    const scope = `shared${(bots += 1)}`;
    const opts = { ratePerSecond: 100, maxInFlight: 1, ...clock };
    const a = await onRedis(opts, scope);
    const limitedAt: number[] = [];
    await a.push({ chatId: "x", deadline: Infinity, send: async () => (limitedAt.push(clock.now()), limitedAt.length === 1 ? { kind: "retry", afterMs: 5_000 } : { kind: "delivered" }) });
    const seen = slots(clock);
    const c = await onRedis({ ...opts, onWait: seen.onWait }, scope);
    await c.push({ chatId: "y", deadline: Infinity, send: delivered });
    expect(seen.at[0]! - limitedAt[0]!).toBeGreaterThanOrEqual(5_000);
  });

  it("keep pacing in process while Redis is away, and share the pace again once it is back", async () => {
    const clock = virtualClock();
    const shared = await link();
    const scope = `outage${(bots += 1)}`;
    const during = slots(clock);
    const opts = { ratePerSecond: 25, maxInFlight: 2, ...clock };
    const q = createPacedQueue({ ...opts, onWait: during.onWait, ledger: redisPaceLedger({ ...opts, redis: shared, scope }) });
    await engine().stop();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => q.push({ chatId: `d${i}`, deadline: Infinity, send: delivered })));
    expect(results.every((r) => r.kind === "delivered")).toBe(true);
    expect(spaced(during.at, 40)).toBe(true);

    await engine().start();
    await shared.whenUp();
    const after = slots(clock);
    const [a, b] = [
      createPacedQueue({ ...opts, onWait: after.onWait, ledger: redisPaceLedger({ ...opts, redis: shared, scope }) }),
      await onRedis({ ...opts, onWait: after.onWait }, scope),
    ];
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).push({ chatId: `e${i}`, deadline: Infinity, send: delivered })));
    expect(after.at).toHaveLength(10);
    expect(spaced(after.at, 40)).toBe(true);
  });
});
