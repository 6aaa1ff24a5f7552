/**
 * Subscriptions, digest deliveries and leases in SQLite. The SQL is plain enough for
 * PostgreSQL (ON CONFLICT upserts, no rowid tricks) so that a shared store can follow.
 */
import type Database from "better-sqlite3";
import { sqliteSendRows } from "../send-rows.js";
import { DIGEST_SEND_TABLE, toSubscription, type SubscriptionRow as Row } from "../subscription-rows.js";
import type { ChatKey, DeliveryState, LeaseRow, NewSubscription, PendingDelivery, SubscriptionStore } from "../types.js";

/** Subscription queries on an open better-sqlite3 database that has the digest's tables (migration 2). */
export function sqliteSubscriptions(db: Database.Database): SubscriptionStore {
  const q = {
    upsert: db.prepare(`
      INSERT INTO subscriptions (platform, chat_id, chain, cron, timezone, label, interval_minutes, top_n, created_at)
      VALUES (@platform, @chatId, @chain, @cron, @timezone, @label, @intervalMinutes, @topN, @now)
      ON CONFLICT (platform, chat_id, chain) DO UPDATE SET
        cron = excluded.cron, timezone = excluded.timezone, label = excluded.label,
        interval_minutes = excluded.interval_minutes, top_n = excluded.top_n, paused_reason = NULL`),
    one: db.prepare(`SELECT * FROM subscriptions WHERE platform = ? AND chat_id = ? AND chain = ?`),
    list: db.prepare(`SELECT * FROM subscriptions WHERE platform = ? AND chat_id = ? ORDER BY chain`),
    removeOne: db.prepare(`DELETE FROM subscriptions WHERE platform = ? AND chat_id = ? AND chain = ?`),
    removeAll: db.prepare(`DELETE FROM subscriptions WHERE platform = ? AND chat_id = ?`),
    schedules: db.prepare(`
      SELECT cron, timezone, MAX(interval_minutes) AS max_interval FROM subscriptions
      WHERE paused_reason IS NULL GROUP BY cron, timezone`),
    on: db.prepare(`SELECT * FROM subscriptions WHERE cron = ? AND timezone = ? AND paused_reason IS NULL ORDER BY id`),
    queue: db.prepare(`
      INSERT INTO digest_deliveries (subscription_id, slot, state, updated_at) VALUES (?, ?, 'queued', ?)
      ON CONFLICT (subscription_id, slot) DO NOTHING`),
    queued: db.prepare(`
      SELECT d.slot AS d_slot, s.* FROM digest_deliveries d JOIN subscriptions s ON s.id = d.subscription_id
      WHERE d.state IN ('queued', 'interrupted') ORDER BY d.slot, s.id`),
    prune: db.prepare(`DELETE FROM digest_deliveries WHERE state NOT IN ('queued', 'sending') AND slot < ?`),
    countAll: db.prepare(`SELECT state, COUNT(*) AS n FROM digest_deliveries GROUP BY state`),
    countSlot: db.prepare(`SELECT state, COUNT(*) AS n FROM digest_deliveries WHERE slot = ? GROUP BY state`),
    ranking: db.prepare(`UPDATE subscriptions SET last_ranking = ? WHERE id = ?`),
    pause: db.prepare(`UPDATE subscriptions SET paused_reason = ? WHERE id = ?`),
    lease: db.prepare(`
      INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expires)
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
      WHERE leases.holder = excluded.holder OR leases.expires_at <= @now`),
    leaseHolder: db.prepare(`SELECT holder FROM leases WHERE name = ?`),
    leases: db.prepare(`SELECT name, holder, expires_at AS expiresAt FROM leases ORDER BY name`),
    release: db.prepare(`DELETE FROM leases WHERE name = ? AND holder = ?`),
    takeOver: db.prepare(`UPDATE leases SET holder = ?, expires_at = ? WHERE name = ? AND holder = ?`),
  };

  const queueMany = db.transaction((slot: number, ids: readonly number[], now: number) => {
    let added = 0;
    for (const id of ids) added += q.queue.run(id, slot, now).changes;
    return added;
  });

  const sends = sqliteSendRows(db, DIGEST_SEND_TABLE);

  return {
    async upsertSubscription(s: NewSubscription, now: number) {
      q.upsert.run({ ...s, now });
      return toSubscription(q.one.get(s.platform, s.chatId, s.chain) as Row);
    },
    async removeSubscriptions(chat: ChatKey, chain: string) {
      const r = chain === "all" ? q.removeAll.run(chat.platform, chat.chatId) : q.removeOne.run(chat.platform, chat.chatId, chain);
      return r.changes;
    },
    async listSubscriptions(chat: ChatKey) {
      return (q.list.all(chat.platform, chat.chatId) as Row[]).map(toSubscription);
    },
    async activeSchedules() {
      return (q.schedules.all() as { cron: string; timezone: string; max_interval: number }[]).map((r) => ({
        cron: r.cron,
        timezone: r.timezone,
        maxIntervalMinutes: r.max_interval,
      }));
    },
    async subscriptionsOn(cron: string, timezone: string) {
      return (q.on.all(cron, timezone) as Row[]).map(toSubscription);
    },
    async queueDeliveries(slot, ids, now) {
      return queueMany(slot, ids, now);
    },
    async queuedDeliveries(): Promise<PendingDelivery[]> {
      return (q.queued.all() as (Row & { d_slot: number })[]).map((r) => ({ slot: r.d_slot, subscription: toSubscription(r) }));
    },
    async transitionDelivery(subscriptionId, slot, from, to, now, detail) {
      return sends.transition([subscriptionId, slot], from, to, now, detail);
    },
    async claimDelivery(id, slot, sender, lease, now) {
      return sends.claim([id, slot], sender, lease, now);
    },
    async settleDelivery(id, slot, sender, to, now, detail) {
      return sends.settle([id, slot], sender, to, now, detail);
    },
    async interruptSending(now, holder) {
      return sends.interruptOthers(now, holder);
    },
    async pruneDeliveries(before) {
      return q.prune.run(before).changes;
    },
    async deliveryCounts(slot?: number) {
      const rows = (slot === undefined ? q.countAll.all() : q.countSlot.all(slot)) as { state: DeliveryState; n: number }[];
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
    async setLastRanking(id, ranking) {
      q.ranking.run(JSON.stringify(ranking), id);
    },
    async pauseSubscription(id, reason) {
      q.pause.run(reason, id);
    },
    async acquireLease(name, holder, ttlMs, now) {
      q.lease.run({ name, holder, expires: now + ttlMs, now });
      return (q.leaseHolder.get(name) as { holder: string } | undefined)?.holder === holder;
    },
    async releaseLease(name, holder) {
      q.release.run(name, holder);
    },
    async leaseHolder(name) {
      return (q.leaseHolder.get(name) as { holder: string } | undefined)?.holder;
    },
    async leases() {
      return q.leases.all() as LeaseRow[];
    },
    async takeOverLease(name, deadHolder, holder, ttlMs, now) {
      return q.takeOver.run(holder, now + ttlMs, name, deadHolder).changes === 1;
    },
  };
}
