import { beforeEach, describe, expect, it } from "vitest";
import { migrations } from "../../src/store/migrations.js";
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

  it("marks rows a crash left in sending as interrupted after reopening the database, to be claimed once more as a resend", async () => {
    const first = await open();
    const a = await first.subs.upsertSubscription(sub("1"), 1);
    await first.subs.queueDeliveries(60_000, [a.id], 5);
    await first.subs.transitionDelivery(a.id, 60_000, ["queued"], "sending", 6);
    await first.close();
    const second = await open();
    expect(await second.subs.interruptSending(7, "next-poster")).toBe(1);
    expect(await second.subs.deliveryCounts(60_000)).toEqual({ interrupted: 1 });
    expect((await second.subs.queuedDeliveries()).map((d) => [d.subscription.id, d.slot])).toEqual([[a.id, 60_000]]);
    await second.subs.acquireLease("digest-poster", "next-poster", 1_000, 8);
    expect(await second.subs.claimDelivery(a.id, 60_000, "next-poster", "digest-poster", 9)).toBe("resend");
    expect(await second.subs.settleDelivery(a.id, 60_000, "next-poster", "resent", 10)).toBe(true);
    // A recorded outcome is never claimed again.
    expect(await second.subs.queuedDeliveries()).toEqual([]);
    expect(await second.subs.claimDelivery(a.id, 60_000, "next-poster", "digest-poster", 11)).toBe("taken");
  });

  it("claims a queued row only for the holder of the lease, until the lease runs out", async () => {
    const { subs } = await open();
    const a = await subs.upsertSubscription(sub("1"), 1);
    const b = await subs.upsertSubscription(sub("2"), 1);
    await subs.queueDeliveries(60_000, [a.id, b.id], 5);
    expect(await subs.acquireLease("digest-poster", "p1", 1_000, 10)).toBe(true);
    expect(await subs.claimDelivery(a.id, 60_000, "p1", "digest-poster", 20)).toBe("claimed");
    expect(await subs.claimDelivery(a.id, 60_000, "p1", "digest-poster", 21)).toBe("taken");
    // Not the holder, then the holder whose lease ran out: nothing claimed.
    expect(await subs.claimDelivery(b.id, 60_000, "p2", "digest-poster", 22)).toBe("unleased");
    expect(await subs.claimDelivery(b.id, 60_000, "p1", "digest-poster", 1_010)).toBe("unleased");
    expect(await subs.deliveryCounts(60_000)).toEqual({ sending: 1, queued: 1 });
    expect(await subs.acquireLease("digest-poster", "p2", 1_000, 1_010)).toBe(true);
    expect(await subs.claimDelivery(b.id, 60_000, "p2", "digest-poster", 1_020)).toBe("claimed");
  });

  it("interrupts the rows other senders left sending, keeps the holder's own, and lets a sender settle its row late", async () => {
    const { subs } = await open();
    const ids: number[] = [];
    for (const c of ["1", "2", "3"]) ids.push((await subs.upsertSubscription(sub(c), 1)).id);
    const [old, mine, settled] = ids as [number, number, number];
    await subs.queueDeliveries(60_000, ids, 5);
    await subs.acquireLease("digest-poster", "stalled", 1_000, 10);
    expect(await subs.claimDelivery(old, 60_000, "stalled", "digest-poster", 20)).toBe("claimed");
    expect(await subs.claimDelivery(settled, 60_000, "stalled", "digest-poster", 20)).toBe("claimed");
    expect(await subs.settleDelivery(settled, 60_000, "stalled", "delivered", 30)).toBe(true);
    expect(await subs.acquireLease("digest-poster", "next", 1_000, 1_010)).toBe(true);
    expect(await subs.claimDelivery(mine, 60_000, "next", "digest-poster", 1_020)).toBe("claimed");
    expect(await subs.interruptSending(1_030, "next")).toBe(1);
    expect(await subs.deliveryCounts(60_000)).toEqual({ interrupted: 1, sending: 1, delivered: 1 });
    // The stalled sender's send finished after all: its outcome replaces "interrupted"; no one else's does.
    expect(await subs.settleDelivery(old, 60_000, "next", "failed", 1_040)).toBe(false);
    expect(await subs.settleDelivery(old, 60_000, "stalled", "delivered", 1_040)).toBe(true);
    expect(await subs.settleDelivery(mine, 60_000, "stalled", "delivered", 1_040)).toBe(false);
    expect(await subs.settleDelivery(mine, 60_000, "next", "delivered", 1_040)).toBe(true);
    expect(await subs.deliveryCounts(60_000)).toEqual({ delivered: 3 });
  });

  it("upgrades a database of schema 6 to 7: a row claimed before senders were recorded is interrupted by the next holder", async () => {
    await (await db.open({ migrations: migrations.filter((m) => m.version <= 6) })).close();
    await db.exec(`
      INSERT INTO subscriptions (platform, chat_id, chain, cron, timezone, label, interval_minutes, top_n, created_at)
      VALUES ('telegram', '1', 'solana', '0 * * * *', 'UTC', 'every 1h', 60, 10, 1);
      INSERT INTO digest_deliveries (subscription_id, slot, state, updated_at) VALUES (1, 60000, 'sending', 6);
      INSERT INTO digest_deliveries (subscription_id, slot, state, updated_at) VALUES (1, 120000, 'queued', 6);`);
    const { subs } = await open();
    expect(await subs.interruptSending(7, "next-poster")).toBe(1);
    expect(await subs.deliveryCounts(60_000)).toEqual({ interrupted: 1 });
    // No sender recorded: nobody can settle it. A row queued before the upgrade is claimed as any other.
    expect(await subs.settleDelivery(1, 60_000, "", "delivered", 8)).toBe(false);
    await subs.acquireLease("digest-poster", "next-poster", 1_000, 8);
    expect(await subs.claimDelivery(1, 120_000, "next-poster", "digest-poster", 9)).toBe("claimed");
    // Schema 8 counts the claim made before it: the interrupted row is sent once more as a resend.
    expect(await subs.claimDelivery(1, 60_000, "next-poster", "digest-poster", 9)).toBe("resend");
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

  it("lists every lease with its holder and expiry, by name", async () => {
    const { subs } = await open();
    expect(await subs.leases()).toEqual([]);
    await subs.acquireLease("poster", "a", 1_000, 0);
    await subs.acquireLease("alert-heartbeat:b", "b", 30_000, 5);
    expect(await subs.leases()).toEqual([
      { name: "alert-heartbeat:b", holder: "b", expiresAt: 30_005 },
      { name: "poster", holder: "a", expiresAt: 1_000 },
    ]);
  });

  it("keeps the ranking of the previous digest", async () => {
    const { subs } = await open();
    const a = await subs.upsertSubscription(sub("1"), 1);
    await subs.setLastRanking(a.id, ["x-solana", "y-solana"]);
    expect((await subs.listSubscriptions({ platform: "telegram", chatId: "1" }))[0]?.lastRanking).toEqual(["x-solana", "y-solana"]);
  });
});
