import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createLaunchWatcher } from "../../src/launches/watcher.js";
import { startClockedWorld } from "../core/clocked-world.js";
import { recordingAdapter } from "../fakes/recording-adapter.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0);
const DAY = 86_400_000;

describe("launch watcher on the sandbox", () => {
  it("posts each new token once, verdict first, honeypots held back, and folds past the hourly cap", async () => {
    const world = await startClockedWorld({ start: T0, tmpPrefix: "cp-launch-" });
    try {
      const { adapter, sent } = recordingAdapter();
      const holder = "test-host:1:a";
      const leases = world.store.subscriptions;
      expect(await leases.acquireLease("digest-poster", holder, 10 * DAY, world.clock.now())).toBe(true);
      const chain = "solana";
      await world.store.launches.upsertLaunchSubscription({ platform: "telegram", chatId: "42", chain, minLiquidity: 0 }, T0 - 7 * DAY);
      const watcher = createLaunchWatcher({
        launches: world.store.launches, chats: world.store, market: createCachedMarket(world.client, { now: world.clock.now }),
        adapters: { telegram: adapter }, queues: { telegram: createPacedQueue({ maxInFlight: 1, now: world.clock.now, sleep: world.clock.sleep }) }, holder, leading: () => true,
        perHour: 3, source: "sandbox", logger: world.log, now: world.clock.now,
      });

      const first = await watcher.tick();
      await first.done;
      expect(first.queued).toBeGreaterThan(3);
      expect(sent).toHaveLength(3);
      for (const { reply } of sent) {
        expect(reply.title).toMatch(/^(🔴|🟡|🟢|⚪ Not checked)/);
        expect(reply.title).not.toMatch(/honeypot/i);
        expect(reply.blocks[0]).toMatchObject({ kind: "text", text: expect.stringContaining(`New on ${chain}`) });
      }

      const again = await watcher.tick();
      await again.done;
      expect(again.queued).toBe(0);
      expect(sent).toHaveLength(3);

      world.clock.set(T0 + 3_600_000);
      const next = await watcher.tick();
      await next.done;
      const summary = sent.slice(3).find((s) => s.reply.title.includes("more new tokens"));
      expect(summary?.reply.title).toBe(`🆕 ${first.queued - 3} more new tokens on ${chain} this hour`);
      expect(await world.store.launches.launchPostCounts()).toMatchObject({ delivered: sent.length, summarised: first.queued - 3 });
      await watcher.stop();
    } finally {
      await world.close();
    }
  });
});
