/**
 * Subscriptions, digest deliveries and leases in PostgreSQL: the statements of
 * sqlite/subscriptions.ts with numbered parameters, and the same behaviour.
 */
import type { SqlRunner } from "./sql.js";
import { postgresSendRows } from "../send-rows.js";
import { DIGEST_SEND_TABLE, toSubscription, type SubscriptionRow } from "../subscription-rows.js";
import type { ChatKey, DeliveryState, NewSubscription, PendingDelivery, SubscriptionStore } from "../types.js";

export function postgresSubscriptions(sql: SqlRunner): SubscriptionStore {
  const one = async (platform: string, chatId: string, chain: string) =>
    (await sql.read<SubscriptionRow>("SELECT * FROM subscriptions WHERE platform = $1 AND chat_id = $2 AND chain = $3", [platform, chatId, chain]))[0];

  const sends = postgresSendRows(sql, DIGEST_SEND_TABLE);

  return {
    async upsertSubscription(s: NewSubscription, now: number) {
      const { rows } = await sql.write<SubscriptionRow>(
        `INSERT INTO subscriptions (platform, chat_id, chain, cron, timezone, label, interval_minutes, top_n, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (platform, chat_id, chain) DO UPDATE SET
           cron = excluded.cron, timezone = excluded.timezone, label = excluded.label,
           interval_minutes = excluded.interval_minutes, top_n = excluded.top_n, paused_reason = NULL
         RETURNING *`,
        [s.platform, s.chatId, s.chain, s.cron, s.timezone, s.label, s.intervalMinutes, s.topN, now],
      );
      const row = rows[0] ?? (await one(s.platform, s.chatId, s.chain));
      if (row === undefined) throw new Error("the subscription was not stored");
      return toSubscription(row);
    },
    async removeSubscriptions(chat: ChatKey, chain: string) {
      const r =
        chain === "all"
          ? await sql.write("DELETE FROM subscriptions WHERE platform = $1 AND chat_id = $2", [chat.platform, chat.chatId])
          : await sql.write("DELETE FROM subscriptions WHERE platform = $1 AND chat_id = $2 AND chain = $3", [chat.platform, chat.chatId, chain]);
      return r.count;
    },
    async listSubscriptions(chat: ChatKey) {
      const rows = await sql.read<SubscriptionRow>("SELECT * FROM subscriptions WHERE platform = $1 AND chat_id = $2 ORDER BY chain COLLATE \"C\"", [
        chat.platform,
        chat.chatId,
      ]);
      return rows.map(toSubscription);
    },
    async activeSchedules() {
      const rows = await sql.read<{ cron: string; timezone: string; max_interval: number }>(
        `SELECT cron, timezone, MAX(interval_minutes) AS max_interval FROM subscriptions
         WHERE paused_reason IS NULL GROUP BY cron, timezone`,
      );
      return rows.map((r) => ({ cron: r.cron, timezone: r.timezone, maxIntervalMinutes: r.max_interval }));
    },
    async subscriptionsOn(cron: string, timezone: string) {
      const rows = await sql.read<SubscriptionRow>(
        "SELECT * FROM subscriptions WHERE cron = $1 AND timezone = $2 AND paused_reason IS NULL ORDER BY id",
        [cron, timezone],
      );
      return rows.map(toSubscription);
    },
    async queueDeliveries(slot, ids, now) {
      if (ids.length === 0) return 0;
      const r = await sql.write(
        `INSERT INTO digest_deliveries (subscription_id, slot, state, updated_at)
         SELECT id, $2, 'queued', $3 FROM unnest($1::bigint[]) AS id
         ON CONFLICT (subscription_id, slot) DO NOTHING`,
        [[...ids], slot, now],
      );
      return r.count;
    },
    async queuedDeliveries(): Promise<PendingDelivery[]> {
      const rows = await sql.read<SubscriptionRow & { d_slot: number }>(
        `SELECT d.slot AS d_slot, s.* FROM digest_deliveries d JOIN subscriptions s ON s.id = d.subscription_id
         WHERE d.state IN ('queued', 'interrupted') ORDER BY d.slot, s.id`,
      );
      return rows.map((r) => ({ slot: r.d_slot, subscription: toSubscription(r) }));
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
      return (await sql.write("DELETE FROM digest_deliveries WHERE state NOT IN ('queued', 'sending') AND slot < $1", [before])).count;
    },
    async deliveryCounts(slot?: number) {
      const rows =
        slot === undefined
          ? await sql.read<{ state: DeliveryState; n: number }>("SELECT state, COUNT(*) AS n FROM digest_deliveries GROUP BY state")
          : await sql.read<{ state: DeliveryState; n: number }>(
              "SELECT state, COUNT(*) AS n FROM digest_deliveries WHERE slot = $1 GROUP BY state",
              [slot],
            );
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
    async setLastRanking(id, ranking) {
      await sql.write("UPDATE subscriptions SET last_ranking = $1 WHERE id = $2", [JSON.stringify(ranking), id]);
    },
    async pauseSubscription(id, reason) {
      await sql.write("UPDATE subscriptions SET paused_reason = $1 WHERE id = $2", [reason, id]);
    },
    async acquireLease(name, holder, ttlMs, now) {
      const { rows } = await sql.write<{ holder: string }>(
        `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE leases.holder = excluded.holder OR leases.expires_at <= $4
         RETURNING holder`,
        [name, holder, now + ttlMs, now],
      );
      return rows[0]?.holder === holder;
    },
    async releaseLease(name, holder) {
      await sql.write("DELETE FROM leases WHERE name = $1 AND holder = $2", [name, holder]);
    },
    async leaseHolder(name) {
      return (await sql.read<{ holder: string }>("SELECT holder FROM leases WHERE name = $1", [name]))[0]?.holder;
    },
    async leases() {
      const rows = await sql.read<{ name: string; holder: string; expires_at: string }>("SELECT name, holder, expires_at FROM leases ORDER BY name");
      return rows.map((r) => ({ name: r.name, holder: r.holder, expiresAt: Number(r.expires_at) }));
    },
    async takeOverLease(name, deadHolder, holder, ttlMs, now) {
      const r = await sql.write("UPDATE leases SET holder = $1, expires_at = $2 WHERE name = $3 AND holder = $4", [
        holder,
        now + ttlMs,
        name,
        deadHolder,
      ]);
      return r.count === 1;
    },
  };
}
