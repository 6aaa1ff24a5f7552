import { describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import { createDiscordDigestQueue, createTelegramDigestQueue } from "../../src/digest/platform-queues.js";
import { virtualClock } from "./virtual-clock.js";

/** A send held open until `release` is called, so sends in flight can be counted. */
function heldSends() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return { send: async (): Promise<SendOutcome> => (await gate, { kind: "delivered" }), release: () => open() };
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

  it("keeps 4 Telegram sends in flight and 5 Discord posts", async () => {
    for (const [queue, bound] of [[createTelegramDigestQueue({ ratePerSecond: 1000, ...virtualClock() }), 4], [createDiscordDigestQueue(virtualClock()), 5]] as const) {
      const held = heldSends();
      const all = Promise.all(Array.from({ length: 12 }, (_, i) => queue.push({ chatId: `-${i}`, deadline: Infinity, send: held.send })));
      for (let i = 0; i < 20; i++) await Promise.resolve();
      expect(queue.inFlight()).toBe(bound);
      held.release();
      await all;
    }
  });
});
