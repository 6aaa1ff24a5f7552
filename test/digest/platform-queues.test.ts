import { describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import type { PacedQueue } from "../../src/digest/paced-queue.js";
import { createDiscordDigestQueue, createTelegramDigestQueue } from "../../src/digest/platform-queues.js";
import { deferred, type Deferred } from "../deferred.js";
import { useRedis } from "../engines/redis.js";
import { virtualClock } from "./virtual-clock.js";

/**
 * Sends held open until `release` is called, so sends in flight can be counted; `reached(n)`
 * resolves once n have started, and `most()` is the most that were ever in flight at once.
 */
function heldSends() {
  const gate = deferred();
  let started = 0;
  let finished = 0;
  let most = 0;
  const waiting: { n: number; reached: Deferred<void> }[] = [];
  return {
    send: async (): Promise<SendOutcome> => {
      started += 1;
      most = Math.max(most, started - finished);
      for (const w of waiting.filter((x) => x.n <= started)) w.reached.resolve();
      await gate.promise;
      finished += 1;
      return { kind: "delivered" };
    },
    most: () => most,
    reached: (n: number): Promise<void> => {
      const reached = deferred();
      if (started >= n) reached.resolve();
      else waiting.push({ n, reached });
      return reached.promise;
    },
    started: () => started,
    release: () => gate.resolve(),
  };
}

describe("the digest queues the bot ships", () => {
  it("paces Telegram digests at the configured rate over all chats", async () => {
    const clock = virtualClock();
    const q = createTelegramDigestQueue({ ratePerSecond: 25, ...clock });
    const sentAt: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => q.push({ chatId: `-${i}`, deadline: Infinity, send: async () => (sentAt.push(clock.now()), { kind: "delivered" }) })),
    );
    sentAt.sort((a, b) => a - b);
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(40);
  });

  it("holds a Telegram group to 20 digests a minute", async () => {
    const clock = virtualClock();
    const q = createTelegramDigestQueue({ ratePerSecond: 1000, ...clock });
    const sentAt: number[] = [];
    await Promise.all(Array.from({ length: 25 }, () => q.push({ chatId: "-1", deadline: Infinity, send: async () => (sentAt.push(clock.now()), { kind: "delivered" }) })));
    expect(sentAt).toHaveLength(25);
    expect(sentAt[20]! - sentAt[0]!).toBeGreaterThanOrEqual(60_000);
  });

  it("keeps a Telegram chat's messages and a Discord channel's posts a second apart", async () => {
    const slots = async (queue: (onWait: (ms: number) => void, clock: ReturnType<typeof virtualClock>) => PacedQueue): Promise<number[]> => {
      const clock = virtualClock();
      const t0 = clock.now();
      const at: number[] = [];
      const q = queue((ms) => void at.push(t0 + ms), clock);
      await Promise.all(Array.from({ length: 5 }, () => q.push({ chatId: "-1", deadline: Infinity, send: async () => ({ kind: "delivered" }) })));
      return at.sort((x, y) => x - y);
    };
    const telegram = await slots((onWait, clock) => createTelegramDigestQueue({ ratePerSecond: 25, onWait, ...clock }));
    for (let i = 1; i < telegram.length; i++) expect(telegram[i]! - telegram[i - 1]!).toBeGreaterThanOrEqual(1000);
    // A channel's 5 in 5 s, spread: a sixth would wait in discord.js holding a send in flight.
    const discord = await slots((onWait, clock) => createDiscordDigestQueue({ onWait, ...clock }));
    for (let i = 1; i < discord.length; i++) expect(discord[i]! - discord[i - 1]!).toBeGreaterThanOrEqual(1000);
  });

  it("posts to a quiet Discord channel at once while another channel works off a burst", async () => {
    const clock = virtualClock();
    const t0 = clock.now();
    const q = createDiscordDigestQueue(clock);
    const started: { chatId: string; at: number }[] = [];
    // As discord.js does: a channel's sixth post in 5 s waits inside the send, holding its slot.
    const route: number[] = [];
    const send = (chatId: string) => async (): Promise<SendOutcome> => {
      const recent = route.filter((at) => at > clock.now() - 5000);
      if (chatId === "busy" && recent.length >= 5) await clock.sleep(recent[recent.length - 5]! + 5000 - clock.now());
      if (chatId === "busy") route.push(clock.now());
      started.push({ chatId, at: clock.now() - t0 });
      return { kind: "delivered" };
    };
    const burst = Array.from({ length: 12 }, () => q.push({ chatId: "busy", deadline: Infinity, send: send("busy") }));
    const quiet = q.push({ chatId: "quiet", deadline: Infinity, send: send("quiet") });
    await Promise.all([...burst, quiet]);
    expect(started.find((s) => s.chatId === "quiet")!.at).toBeLessThan(1000);
    expect(started.filter((s) => s.chatId === "busy").at(-1)!.at).toBeGreaterThanOrEqual(11_000);
  });

  it("keeps 4 Telegram sends in flight and 5 Discord posts", async () => {
    for (const [queue, bound] of [[createTelegramDigestQueue({ ratePerSecond: 1000, ...virtualClock() }), 4], [createDiscordDigestQueue(virtualClock()), 5]] as const) {
      const held = heldSends();
      const all = Promise.all(Array.from({ length: 12 }, (_, i) => queue.push({ chatId: `-${i}`, deadline: Infinity, send: held.send })));
      await held.reached(bound);
      expect(queue.inFlight()).toBe(bound);
      held.release();
      await all;
      // Counted at every start, so a send beyond the bound at any moment of the run would show.
      expect(held.most()).toBe(bound);
      expect(held.started()).toBe(12);
    }
  });

  it("paces Discord posts at Discord's global 50 a second", async () => {
    const clock = virtualClock();
    const t0 = clock.now();
    const at: number[] = [];
    const q = createDiscordDigestQueue({ ...clock, onWait: (ms) => void at.push(t0 + ms) });
    await Promise.all(Array.from({ length: 60 }, (_, i) => q.push({ chatId: `${i}`, deadline: Infinity, send: async () => ({ kind: "delivered" }) })));
    at.sort((x, y) => x - y);
    expect(at).toHaveLength(60);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(20);
  });
});

describe("the digest queues of two processes of one bot, with REDIS_URL set", () => {
  const { link } = useRedis();

  it("hold a Telegram group to 20 digests a minute between them, and keep another bot's pace apart", async () => {
    const clock = virtualClock();
    const t0 = clock.now();
    const at: number[] = [];
    const hooks = { ratePerSecond: 1000, ...clock, onWait: (ms: number) => void at.push(t0 + ms), bot: "123" };
    const [a, b] = [createTelegramDigestQueue({ ...hooks, redis: await link() }), createTelegramDigestQueue({ ...hooks, redis: await link() })];
    await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? a : b).push({ chatId: "-1", deadline: Infinity, send: async () => ({ kind: "delivered" }) })));
    at.sort((x, y) => x - y);
    expect(at).toHaveLength(25);
    expect(at[20]! - at[0]!).toBeGreaterThanOrEqual(60_000);

    const otherBot: number[] = [];
    const t1 = clock.now();
    const c = createTelegramDigestQueue({ ...hooks, bot: "456", redis: await link(), onWait: (ms) => void otherBot.push(t1 + ms) });
    await c.push({ chatId: "-1", deadline: Infinity, send: async () => ({ kind: "delivered" }) });
    expect(otherBot).toEqual([t1]);
  });
});
