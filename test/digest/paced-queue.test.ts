import { describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { virtualClock } from "./virtual-clock.js";

describe("paced delivery queue", () => {
  it("keeps the global pace: no two sends closer than 1/rate", async () => {
    const clock = virtualClock();
    const q = createPacedQueue({ ratePerSecond: 25, maxInFlight: 3, ...clock });
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

  it("sends at most N a minute to one chat while others go ahead", async () => {
    const clock = virtualClock();
    const q = createPacedQueue({ ratePerSecond: 1000, perChatPerMinute: 20, maxInFlight: 2, ...clock });
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

  it("counts a group's send from when the platform answered it, so a send held up in flight cannot bunch the next minute's (regression: 21 in 60 s)", async () => {
    const clock = virtualClock();
    const q = createPacedQueue({ ratePerSecond: 1000, perChatPerMinute: 20, maxInFlight: 2, ...clock });
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
    const q = createPacedQueue({ ratePerSecond: 100, maxInFlight: 1, ...clock });
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

  it("drops a job whose deadline passed instead of sending it late", async () => {
    const clock = virtualClock();
    const q = createPacedQueue({ ratePerSecond: 1, maxInFlight: 1, ...clock });
    let sent = 0;
    const deadline = clock.now() + 1_500;
    const results = await Promise.all(
      ["a", "b", "c"].map((chatId) => q.push({ chatId, deadline, send: async () => (sent++, { kind: "delivered" }) })),
    );
    expect(results.map((r) => r.kind)).toEqual(["delivered", "delivered", "expired"]);
    expect(sent).toBe(2);
  });

  it("on stop finishes the send in flight and leaves queued jobs unsent", async () => {
    const q = createPacedQueue({ maxInFlight: 1 });
    let release!: () => void;
    const inFlight = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    const first = q.push({
      chatId: "a",
      deadline: Infinity,
      send: async () => {
        started();
        await inFlight;
        return { kind: "delivered" };
      },
    });
    const second = q.push({ chatId: "b", deadline: Infinity, send: async () => ({ kind: "delivered" }) });
    await startedP;
    const stopped = q.stop();
    release();
    await stopped;
    expect(await first).toEqual({ kind: "delivered" });
    expect(await second).toEqual({ kind: "stopped" });
  });
});
