import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { Reply } from "../../src/core/reply.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createLaunchWatcher } from "../../src/launches/watcher.js";
import { shortAddress } from "../../src/core/format/index.js";
import { startClockedWorld } from "../core/clocked-world.js";
import { recordingAdapter } from "../fakes/recording-adapter.js";
import { FIRST_PASS, startLaunchWorld, SUBSCRIBED } from "./launch-world.js";

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
        adapters: { telegram: adapter }, queues: { telegram: createPacedQueue({ maxInFlight: 1, now: world.clock.now, sleep: world.clock.sleep }) }, holder, lease: { leading: () => true },
        perHour: 3, core: world.core, logger: world.log, now: world.clock.now,
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

  it("holds back the sandbox's honeypots on eth and bsc and posts the eth launches that can be sold", async () => {
    const world = await startLaunchWorld("cp-launch-hp-");
    try {
      const { adapter, sent } = recordingAdapter();
      for (const [chatId, chain] of [["1", "eth"], ["2", "bsc"]] as const) {
        await world.store.launches.upsertLaunchSubscription({ platform: "telegram", chatId, chain, minLiquidity: 0 }, SUBSCRIBED);
      }
      const watcher = world.launchWatcher({ sinks: { telegram: adapter }, perHour: 20 });
      await world.pass(watcher, FIRST_PASS);
      await watcher.stop();

      const address = (r: Reply): string | undefined => r.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : [])).find((f) => f.label === "Address")?.value;
      const posted = (chatId: string) => sent.filter((s) => s.chatId === chatId).map((s) => address(s.reply));
      for (const chain of ["eth", "bsc"]) {
        const honeypots = world.launched(chain, "honeypot").map((t) => shortAddress(t.address));
        expect(honeypots.length).toBeGreaterThan(0);
        for (const a of honeypots) expect(posted(chain === "eth" ? "1" : "2")).not.toContain(a);
      }
      // Sold at a 25 % tax, minted at will, held by its creator: warned about, but posted.
      const sellable = ["highTax", "mintable", "concentrated"] as const;
      for (const risk of sellable) {
        const [token] = world.launched("eth", risk);
        expect(posted("1")).toContain(shortAddress(token?.address));
      }
      expect(posted("2")).toEqual([]);
    } finally {
      await world.close();
    }
  });
});
