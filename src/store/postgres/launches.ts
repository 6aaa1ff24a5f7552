/** New-launch subscriptions and posts in PostgreSQL: the statements of sqlite/launches.ts with numbered parameters. */
import type { SqlRunner } from "./sql.js";
import { postgresSendRows } from "../send-rows.js";
import { LAUNCH_SEND_TABLE, launchKey, toLaunchPost, toLaunchSubscription, type LaunchPostRow, type LaunchSubscriptionRow } from "../launch-rows.js";
import type { LaunchPostState, LaunchStore } from "../types.js";

export function postgresLaunches(sql: SqlRunner): LaunchStore {
  const sends = postgresSendRows(sql, LAUNCH_SEND_TABLE);
  return {
    async upsertLaunchSubscription(s, now) {
      const { rows } = await sql.write<LaunchSubscriptionRow>(
        `INSERT INTO launch_subscriptions (platform, chat_id, chain, min_liquidity, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (platform, chat_id, chain) DO UPDATE SET min_liquidity = excluded.min_liquidity RETURNING *`,
        [s.platform, s.chatId, s.chain, s.minLiquidity, now],
      );
      const row = rows[0];
      if (row === undefined) throw new Error("the launch subscription was not stored");
      return toLaunchSubscription(row);
    },
    async removeLaunchSubscription(chat, chain) {
      const at = [chat.platform, chat.chatId, chain];
      await sql.write("UPDATE launch_posts SET state = 'dropped' WHERE platform = $1 AND chat_id = $2 AND chain = $3 AND state IN ('queued', 'folded')", at);
      const r = await sql.write("DELETE FROM launch_subscriptions WHERE platform = $1 AND chat_id = $2 AND chain = $3", at);
      return r.count;
    },
    async hasLaunchPost(chat, tokenId) {
      const rows = await sql.read("SELECT 1 FROM launch_posts WHERE platform = $1 AND chat_id = $2 AND token_id = $3", [chat.platform, chat.chatId, tokenId]);
      return rows.length > 0;
    },
    async listLaunchSubscriptions(chat) {
      const rows = await sql.read<LaunchSubscriptionRow>(
        `SELECT * FROM launch_subscriptions WHERE platform = $1 AND chat_id = $2 ORDER BY chain COLLATE "C"`,
        [chat.platform, chat.chatId],
      );
      return rows.map(toLaunchSubscription);
    },
    async launchChains() {
      const rows = await sql.read<{ chain: string }>(`SELECT chain FROM launch_subscriptions GROUP BY chain ORDER BY chain COLLATE "C"`);
      return rows.map((r) => r.chain);
    },
    async launchSubscribersOn(chain) {
      const rows = await sql.read<LaunchSubscriptionRow>(
        `SELECT * FROM launch_subscriptions WHERE chain = $1 ORDER BY platform COLLATE "C", chat_id COLLATE "C"`,
        [chain],
      );
      return rows.map(toLaunchSubscription);
    },
    async queueLaunchPost(p, state, now) {
      const r = await sql.write(
        `INSERT INTO launch_posts (platform, chat_id, token_id, kind, chain, payload, queued_at, state, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7) ON CONFLICT (platform, chat_id, token_id) DO NOTHING`,
        [p.platform, p.chatId, p.tokenId, p.kind, p.chain, p.payload, now, state],
      );
      return r.count === 1;
    },
    async launchesCountedSince(chat, since) {
      const rows = await sql.read<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM launch_posts
         WHERE platform = $1 AND chat_id = $2 AND kind = 'token' AND queued_at >= $3 AND state NOT IN ('folded', 'summarised')`,
        [chat.platform, chat.chatId, since],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async waitingLaunchPosts() {
      const rows = await sql.read<LaunchPostRow>(
        `SELECT * FROM launch_posts WHERE state IN ('queued', 'interrupted') ORDER BY queued_at, token_id COLLATE "C"`,
      );
      return rows.map(toLaunchPost);
    },
    async foldedBefore(before) {
      const rows = await sql.read<LaunchPostRow>(
        `SELECT * FROM launch_posts WHERE state = 'folded' AND queued_at < $1 ORDER BY queued_at, token_id COLLATE "C"`,
        [before],
      );
      return rows.map(toLaunchPost);
    },
    async markSummarised(chat, tokenIds, now) {
      await sql.write(
        `UPDATE launch_posts SET state = 'summarised', updated_at = $1
         WHERE platform = $2 AND chat_id = $3 AND token_id = ANY($4::text[]) AND state = 'folded'`,
        [now, chat.platform, chat.chatId, [...tokenIds]],
      );
    },
    claimLaunchPost: (p, sender, lease, now) => sends.claim(launchKey(p), sender, lease, now),
    settleLaunchPost: (p, sender, to, now, detail) => sends.settle(launchKey(p), sender, to, now, detail),
    transitionLaunchPost: (p, from, to, now, detail) => sends.transition(launchKey(p), from, to, now, detail),
    interruptLaunchPosts: (now, holder) => sends.interruptOthers(now, holder),
    async pruneLaunchPosts(before) {
      const r = await sql.write(
        `DELETE FROM launch_posts WHERE state NOT IN ('queued', 'sending', 'interrupted', 'folded') AND queued_at < $1`,
        [before],
      );
      return r.count;
    },
    async launchPostCounts() {
      const rows = await sql.read<{ state: LaunchPostState; n: number | string }>(`SELECT state, COUNT(*) AS n FROM launch_posts GROUP BY state`);
      const out: Partial<Record<LaunchPostState, number>> = {};
      for (const r of rows) out[r.state] = Number(r.n);
      return out;
    },
  };
}
