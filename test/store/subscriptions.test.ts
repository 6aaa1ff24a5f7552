import { beforeEach, describe, expect, it } from "vitest";
import type { NewSubscription, SubscriptionStore } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();

const sub = (chatId: string, chain = "solana"): NewSubscription => ({
  platform: "telegram",
  chatId,
  chain,
  cron: "0 * * * *",
  timezone: "UTC",
  label: "every 1h",
  intervalMinutes: 60,
  topN: 10,
});

describe.each(ENGINES)("subscriptions on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });
  const open = async (): Promise<{ subs: SubscriptionStore; close: () => Promise<void> }> => {
    const store = await db.open();
    return { subs: store.subscriptions, close: () => store.close() };
  };

  it("replaces a chat's subscription to the same chain instead of adding a second", async () => {
    const { subs } = await open();
    const a = await subs.upsertSubscription(sub("1"), 1);
    const b = await subs.upsertSubscription({ ...sub("1"), cron: "0 */4 * * *", label: "every 4h", intervalMinutes: 240 }, 2);
    expect(b.id).toBe(a.id);
    expect(await subs.listSubscriptions({ platform: "telegram", chatId: "1" })).toMatchObject([{ label: "every 4h" }]);
  });

  it("groups active subscriptions by schedule and leaves paused ones out", async () => {
    const { subs } = await open();
    const a = await subs.upsertSubscription(sub("1"), 1);
    await subs.upsertSubscription(sub("2"), 1);
    await subs.upsertSubscription({ ...sub("3"), cron: "30 9 * * *", timezone: "Asia/Tokyo", intervalMinutes: 1440 }, 1);
    await subs.pauseSubscription(a.id, "missing rights");
    expect(await subs.activeSchedules()).toHaveLength(2);
    expect((await subs.subscriptionsOn("0 * * * *", "UTC")).map((s) => s.chatId)).toEqual(["2"]);
  });

  it("queues a (subscription, slot) once and lets only one poster move it to sending", async () => {
    const { subs } = await open();
    const a = await subs.upsertSubscription(sub("1"), 1);
    expect(await subs.queueDeliveries(60_000, [a.id], 5)).toBe(1);
    expect(await subs.queueDeliveries(60_000, [a.id], 6)).toBe(0);
    expect(await subs.transitionDelivery(a.id, 60_000, ["queued"], "sending", 7)).toBe(true);
    expect(await subs.transitionDelivery(a.id, 60_000, ["queued"], "sending", 7)).toBe(false);
  });

  it("marks rows a crash left in sending as interrupted after reopening the database", async () => {
    const first = await open();
    const a = await first.subs.upsertSubscription(sub("1"), 1);
    await first.subs.queueDeliveries(60_000, [a.id], 5);
    await first.subs.transitionDelivery(a.id, 60_000, ["queued"], "sending", 6);
    await first.close();
    const second = await open();
    expect(await second.subs.interruptSending(7)).toBe(1);
    expect(await second.subs.deliveryCounts(60_000)).toEqual({ interrupted: 1 });
    expect(await second.subs.queuedDeliveries()).toEqual([]);
  });

  it("prunes only finished deliveries of slots before the cut-off", async () => {
    const { subs } = await open();
    const ids = [];
    for (const c of ["1", "2", "3", "4"]) ids.push((await subs.upsertSubscription(sub(c), 1)).id);
    const [done, queued, sending, recent] = ids as [number, number, number, number];
    await subs.queueDeliveries(60_000, [done, queued, sending], 5);
    await subs.queueDeliveries(120_000, [recent], 5);
    await subs.transitionDelivery(done, 60_000, ["queued"], "delivered", 6);
    await subs.transitionDelivery(sending, 60_000, ["queued"], "sending", 6);
    await subs.transitionDelivery(recent, 120_000, ["queued"], "failed", 6);
    expect(await subs.pruneDeliveries(120_000)).toBe(1);
    expect(await subs.deliveryCounts(60_000)).toEqual({ queued: 1, sending: 1 });
    expect(await subs.deliveryCounts(120_000)).toEqual({ failed: 1 });
  });

  it("gives a lease to one holder until it expires", async () => {
    const { subs } = await open();
    expect(await subs.acquireLease("poster", "a", 1_000, 0)).toBe(true);
    expect(await subs.acquireLease("poster", "b", 1_000, 500)).toBe(false);
    expect(await subs.acquireLease("poster", "a", 1_000, 900)).toBe(true);
    expect(await subs.acquireLease("poster", "b", 1_000, 1_950)).toBe(true);
    await subs.releaseLease("poster", "b");
    expect(await subs.acquireLease("poster", "a", 1_000, 2_000)).toBe(true);
  });

  it("keeps the ranking of the previous digest", async () => {
    const { subs } = await open();
    const a = await subs.upsertSubscription(sub("1"), 1);
    await subs.setLastRanking(a.id, ["x-solana", "y-solana"]);
    expect((await subs.listSubscriptions({ platform: "telegram", chatId: "1" }))[0]?.lastRanking).toEqual(["x-solana", "y-solana"]);
  });
});
