/**
 * New-launch subscriptions and posts in SQLite. A launch post is one row per (chat, token), so
 * a token reaches a chat once however often the watcher sees it; its send columns carry it
 * through the send protocol like a digest delivery. Tokens past a chat's hourly cap wait as
 * `folded` rows until one `summary` row names them all.
 */
import type Database from "better-sqlite3";
import { LAUNCH_SEND_TABLE, launchKey, toLaunchPost, toLaunchSubscription, type LaunchPostRow, type LaunchSubscriptionRow } from "../launch-rows.js";
import { sqliteSendRows } from "../send-rows.js";
import type { ChatKey, LaunchPostState, LaunchStore, NewLaunchPost } from "../types.js";

export function sqliteLaunches(db: Database.Database): LaunchStore {
  const q = {
    upsert: db.prepare(`
      INSERT INTO launch_subscriptions (platform, chat_id, chain, min_liquidity, created_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (platform, chat_id, chain) DO UPDATE SET min_liquidity = excluded.min_liquidity`),
    one: db.prepare(`SELECT * FROM launch_subscriptions WHERE platform = ? AND chat_id = ? AND chain = ?`),
    remove: db.prepare(`DELETE FROM launch_subscriptions WHERE platform = ? AND chat_id = ? AND chain = ?`),
    drop: db.prepare(`UPDATE launch_posts SET state = 'dropped' WHERE platform = ? AND chat_id = ? AND chain = ? AND state IN ('queued', 'folded')`),
    list: db.prepare(`SELECT * FROM launch_subscriptions WHERE platform = ? AND chat_id = ? ORDER BY chain`),
    chains: db.prepare(`SELECT DISTINCT chain FROM launch_subscriptions ORDER BY chain`),
    on: db.prepare(`SELECT * FROM launch_subscriptions WHERE chain = ? ORDER BY platform, chat_id`),
    queue: db.prepare(`
      INSERT INTO launch_posts (platform, chat_id, token_id, kind, chain, payload, queued_at, state, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, token_id) DO NOTHING`),
    counted: db.prepare(`
      SELECT COUNT(*) AS n FROM launch_posts
      WHERE platform = ? AND chat_id = ? AND kind = 'token' AND queued_at >= ? AND state NOT IN ('folded', 'summarised')`),
    waiting: db.prepare(`SELECT * FROM launch_posts WHERE state IN ('queued', 'interrupted') ORDER BY queued_at, token_id`),
    folded: db.prepare(`SELECT * FROM launch_posts WHERE state = 'folded' AND queued_at < ? ORDER BY queued_at, token_id`),
    summarise: db.prepare(`UPDATE launch_posts SET state = 'summarised', updated_at = ? WHERE platform = ? AND chat_id = ? AND token_id = ? AND state = 'folded'`),
    prune: db.prepare(`DELETE FROM launch_posts WHERE state NOT IN ('queued', 'sending', 'interrupted', 'folded') AND queued_at < ?`),
    counts: db.prepare(`SELECT state, COUNT(*) AS n FROM launch_posts GROUP BY state`),
    has: db.prepare(`SELECT 1 FROM launch_posts WHERE platform = ? AND chat_id = ? AND token_id = ?`),
  };
  const sends = sqliteSendRows(db, LAUNCH_SEND_TABLE);
  const unsubscribe = db.transaction((chat: ChatKey, chain: string): number => {
    q.drop.run(chat.platform, chat.chatId, chain);
    return q.remove.run(chat.platform, chat.chatId, chain).changes;
  });
  const summarise = db.transaction((chat: ChatKey, tokenIds: readonly string[], now: number) => {
    for (const id of tokenIds) q.summarise.run(now, chat.platform, chat.chatId, id);
  });
  return {
    async upsertLaunchSubscription(s, now) {
      q.upsert.run(s.platform, s.chatId, s.chain, s.minLiquidity, now);
      return toLaunchSubscription(q.one.get(s.platform, s.chatId, s.chain) as LaunchSubscriptionRow);
    },
    async removeLaunchSubscription(chat, chain) {
      return unsubscribe(chat, chain);
    },
    async hasLaunchPost(chat, tokenId) {
      return q.has.get(chat.platform, chat.chatId, tokenId) !== undefined;
    },
    async listLaunchSubscriptions(chat) {
      return (q.list.all(chat.platform, chat.chatId) as LaunchSubscriptionRow[]).map(toLaunchSubscription);
    },
    async launchChains() {
      return (q.chains.all() as { chain: string }[]).map((r) => r.chain);
    },
    async launchSubscribersOn(chain) {
      return (q.on.all(chain) as LaunchSubscriptionRow[]).map(toLaunchSubscription);
    },
    async queueLaunchPost(p: NewLaunchPost, state: "queued" | "folded", now: number) {
      return q.queue.run(p.platform, p.chatId, p.tokenId, p.kind, p.chain, p.payload, now, state, now).changes === 1;
    },
    async launchesCountedSince(chat, since) {
      return (q.counted.get(chat.platform, chat.chatId, since) as { n: number }).n;
    },
    async waitingLaunchPosts() {
      return (q.waiting.all() as LaunchPostRow[]).map(toLaunchPost);
    },
    async foldedBefore(before) {
      return (q.folded.all(before) as LaunchPostRow[]).map(toLaunchPost);
    },
    async markSummarised(chat, tokenIds, now) {
      summarise(chat, tokenIds, now);
    },
    claimLaunchPost: (p, sender, lease, now) => sends.claim(launchKey(p), sender, lease, now),
    settleLaunchPost: (p, sender, to, now, detail) => sends.settle(launchKey(p), sender, to, now, detail),
    transitionLaunchPost: (p, from, to, now, detail) => sends.transition(launchKey(p), from, to, now, detail),
    interruptLaunchPosts: (now, holder) => sends.interruptOthers(now, holder),
    async pruneLaunchPosts(before) {
      return q.prune.run(before).changes;
    },
    async launchPostCounts() {
      const out: Partial<Record<LaunchPostState, number>> = {};
      for (const r of q.counts.all() as { state: LaunchPostState; n: number }[]) out[r.state] = r.n;
      return out;
    },
  };
}
