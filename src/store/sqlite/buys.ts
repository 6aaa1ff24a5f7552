/** The buy feed's state in SQLite: feeds, pair cursors and the buys owed to chats (buys-rows.ts). */
import type Database from "better-sqlite3";
import {
  BUY_MESSAGES, feedColumns, gapsValue, MEDIA_COLUMNS, mediaValues, toBuyPost, toFeed, toMedia, toOwed, toWatch,
  type FeedRow, type MediaRow, type MessageRow, type PairRow, type PostRow,
} from "../buys-rows.js";
import { sqliteSendRows } from "../send-rows.js";
import type { BuyFeed, BuyFeedStore, BuyPostKey, ChatKey, NewBuyPost, NewOwedBuy, OwedBuyState, PairWatch, SendState } from "../types.js";

/** Pairs watched afresh (no feed on their token yet) start at `now`; a pair already watched keeps its cursor. */
export const WATCH_PAIR_SQL = `
  INSERT INTO buy_pairs (pair_id, token_id, cursor, last_trade_at, next_poll_at) VALUES (?, ?, ?, NULL, ?)
  ON CONFLICT (pair_id) DO UPDATE SET cursor = excluded.cursor, last_trade_at = NULL, next_poll_at = excluded.next_poll_at, gaps = NULL
  WHERE NOT EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = buy_pairs.token_id)`;

/** A chat's buys still to be turned into posts, oldest first (the partial index of migration 18). */
export const QUEUED_BUYS_SQL = `SELECT * FROM buy_posts WHERE platform = ? AND chat_id = ? AND state = 'queued' ORDER BY tx_time, swap_key`;

export function sqliteBuys(db: Database.Database): BuyFeedStore {
  const q = {
    one: db.prepare(`SELECT ${feedColumns()} FROM buy_feeds WHERE platform = ? AND chat_id = ? AND token_id = ?`),
    media: db.prepare(`SELECT ${MEDIA_COLUMNS} FROM buy_feeds WHERE platform = ? AND chat_id = ? AND token_id = ?`),
    setMedia: db.prepare(`
      UPDATE buy_feeds SET media_kind = ?, media_file_id = ?, media_name = ?, media_type = ?, media_data = ? WHERE platform = ? AND chat_id = ? AND token_id = ?`),
    count: db.prepare(`SELECT COUNT(*) AS n FROM buy_feeds WHERE platform = ? AND chat_id = ?`),
    watchPair: db.prepare(WATCH_PAIR_SQL),
    insertFeed: db.prepare(`
      INSERT INTO buy_feeds (platform, chat_id, token_id, symbol, chain, options, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (platform, chat_id, token_id) DO UPDATE SET symbol = excluded.symbol, chain = excluded.chain, options = excluded.options`),
    list: db.prepare(`SELECT ${feedColumns()} FROM buy_feeds WHERE platform = ? AND chat_id = ? ORDER BY created_at, token_id`),
    removeOne: db.prepare(`DELETE FROM buy_feeds WHERE platform = ? AND chat_id = ? AND token_id = ?`),
    removeAll: db.prepare(`DELETE FROM buy_feeds WHERE platform = ? AND chat_id = ?`),
    unsentOne: db.prepare(`DELETE FROM buy_messages WHERE platform = ? AND chat_id = ? AND token_id = ? AND state IN ('queued', 'interrupted')`),
    unsentAll: db.prepare(`DELETE FROM buy_messages WHERE platform = ? AND chat_id = ? AND state IN ('queued', 'interrupted')`),
    unwatch: db.prepare(`DELETE FROM buy_pairs WHERE NOT EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = buy_pairs.token_id)`),
    forgetWallets: db.prepare(`DELETE FROM buy_wallets WHERE NOT EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = buy_wallets.token_id)`),
    walletCount: db.prepare(`SELECT COUNT(*) AS n FROM buy_wallets WHERE token_id = ?`),
    firstOf: db.prepare(`SELECT swap_key FROM buy_wallets WHERE token_id = ? AND wallet = ?`),
    recordWallet: db.prepare(`INSERT INTO buy_wallets (token_id, wallet, swap_key) VALUES (?, ?, ?) ON CONFLICT (token_id, wallet) DO NOTHING`),
    onPair: db.prepare(`
      SELECT ${feedColumns("f")} FROM buy_feeds f JOIN buy_pairs p ON p.token_id = f.token_id WHERE p.pair_id = ? ORDER BY f.platform, f.chat_id`),
    watches: db.prepare(`
      SELECT * FROM buy_pairs p WHERE EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = p.token_id) ORDER BY next_poll_at, pair_id`),
    setWatch: db.prepare(`
      UPDATE buy_pairs SET cursor = MAX(cursor, ?), gaps = ?, last_trade_at = ?, next_poll_at = ? WHERE pair_id = ? AND cursor = ? AND gaps IS ?`),
    owe: db.prepare(`
      INSERT INTO buy_posts (platform, chat_id, swap_key, token_id, tx_time, payload, state, queued_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?) ON CONFLICT (platform, chat_id, swap_key) DO NOTHING`),
    chatsOwed: db.prepare(`SELECT platform, chat_id, MIN(queued_at) AS first FROM buy_posts WHERE state = 'queued' GROUP BY platform, chat_id ORDER BY first, platform, chat_id`),
    queued: db.prepare(QUEUED_BUYS_SQL),
    settle: db.prepare(`
      UPDATE buy_posts SET state = ?, updated_at = ?, summary_id = ? WHERE platform = ? AND chat_id = ? AND swap_key = ? AND state = 'queued'`),
    prune: db.prepare(`DELETE FROM buy_posts WHERE state <> 'queued' AND queued_at < ? AND NOT EXISTS (
      SELECT 1 FROM buy_pairs p WHERE p.token_id = buy_posts.token_id AND (buy_posts.tx_time >= p.cursor - ? OR p.gaps IS NOT NULL))`),
    pruneMessages: db.prepare(`DELETE FROM buy_messages WHERE state NOT IN ('queued', 'sending', 'interrupted') AND queued_at < ?`),
    counts: db.prepare(`SELECT state, COUNT(*) AS n FROM buy_posts GROUP BY state`),
    postCounts: db.prepare(`SELECT state, COUNT(*) AS n FROM buy_messages GROUP BY state`),
    queueMessage: db.prepare(`
      INSERT INTO buy_messages (platform, chat_id, post_key, token_id, kind, tx_time, payload, queued_at, state, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?) ON CONFLICT (platform, chat_id, post_key) DO NOTHING`),
    waiting: db.prepare(`SELECT * FROM buy_messages WHERE state IN ('queued', 'interrupted') ORDER BY queued_at, platform, chat_id, tx_time, post_key`),
  };
  const rows = sqliteSendRows(db, BUY_MESSAGES);
  const key = (p: BuyPostKey) => [p.platform, p.chatId, p.postKey] as const;

  /** Thrown inside a transaction to undo it: one of the post's buys was taken by another post. */
  class Taken extends Error {}

  const upsert = db.transaction((feed: Omit<BuyFeed, "createdAt" | "media">, pairIds: readonly string[], max: number, now: number) => {
    const existing = q.one.get(feed.platform, feed.chatId, feed.tokenId) as FeedRow | undefined;
    if (existing === undefined) {
      const n = (q.count.get(feed.platform, feed.chatId) as { n: number }).n;
      if (n >= max) return { full: n };
      for (const pairId of pairIds) q.watchPair.run(pairId, feed.tokenId, Math.floor(now / 1000), now);
    }
    q.insertFeed.run(feed.platform, feed.chatId, feed.tokenId, feed.symbol, feed.chain, JSON.stringify(feed.options), existing?.created_at ?? now);
    return { feed: toFeed(q.one.get(feed.platform, feed.chatId, feed.tokenId) as FeedRow), created: existing === undefined };
  });

  const remove = db.transaction((chat: ChatKey, tokenId: string | "all") => {
    const n = tokenId === "all" ? q.removeAll.run(chat.platform, chat.chatId).changes : q.removeOne.run(chat.platform, chat.chatId, tokenId).changes;
    if (tokenId === "all") q.unsentAll.run(chat.platform, chat.chatId);
    else q.unsentOne.run(chat.platform, chat.chatId, tokenId);
    q.unwatch.run();
    q.forgetWallets.run();
    return n;
  });

  const firsts = db.transaction((tokenId: string, buys: readonly { wallet: string; swapKey: string }[], max: number) => {
    let room = max - (q.walletCount.get(tokenId) as { n: number }).n;
    const out = new Set<string>();
    for (const b of buys) {
      const known = q.firstOf.get(tokenId, b.wallet) as { swap_key: string } | undefined;
      if (known === undefined && room > 0) {
        q.recordWallet.run(tokenId, b.wallet, b.swapKey);
        room--;
        out.add(b.swapKey);
      } else if (known?.swap_key === b.swapKey) {
        out.add(b.swapKey);
      }
    }
    return out;
  });

  const commit = db.transaction((w: PairWatch, owed: readonly NewOwedBuy[], now: number, read: PairWatch) => {
    let added = 0;
    for (const o of owed) added += q.owe.run(o.platform, o.chatId, o.swapKey, o.tokenId, o.txTime, o.payload, now, now).changes;
    const values = [w.cursor, gapsValue(w), w.lastTradeAt ?? null, w.nextPollAt, w.pairId] as const;
    q.setWatch.run(...values, read.cursor, gapsValue(read));
    return added;
  });

  const settle = db.transaction((chat: ChatKey, keys: readonly string[], to: OwedBuyState, now: number, summaryId: string | null) => {
    let n = 0;
    for (const k of keys) n += q.settle.run(to, now, summaryId, chat.platform, chat.chatId, k).changes;
    return n;
  });

  const queuePost = db.transaction((p: NewBuyPost, now: number) => {
    if (q.queueMessage.run(p.platform, p.chatId, p.postKey, p.tokenId, p.kind, p.txTime, p.payload, now, now).changes === 0) throw new Taken();
    if (settle(p, p.swapKeys, p.kind === "summary" ? "folded" : "posted", now, p.postKey) !== p.swapKeys.length) throw new Taken();
  });

  return {
    async upsertFeed(feed, pairIds, max, now) {
      return upsert(feed, pairIds, max, now);
    },
    async listFeeds(chat) {
      return (q.list.all(chat.platform, chat.chatId) as FeedRow[]).map(toFeed);
    },
    async setFeedMedia(chat, tokenId, media) {
      return q.setMedia.run(...mediaValues(media), chat.platform, chat.chatId, tokenId).changes > 0;
    },
    async feedMedia(chat, tokenId) {
      return toMedia(q.media.get(chat.platform, chat.chatId, tokenId) as MediaRow | undefined);
    },
    async removeFeeds(chat, tokenId) {
      return remove(chat, tokenId);
    },
    async feedsOnPair(pairId) {
      return (q.onPair.all(pairId) as FeedRow[]).map(toFeed);
    },
    async watches() {
      return (q.watches.all() as PairRow[]).map(toWatch);
    },
    async commitPoll(watch, owed, now, read) {
      return commit(watch, owed, now, read);
    },
    async firstBuys(tokenId, buys, max) {
      return firsts(tokenId, buys, max);
    },
    async chatsOwed() {
      return (q.chatsOwed.all() as { platform: ChatKey["platform"]; chat_id: string }[]).map((r) => ({ platform: r.platform, chatId: r.chat_id }));
    },
    async queuedBuys(chat) {
      return (q.queued.all(chat.platform, chat.chatId) as PostRow[]).map(toOwed);
    },
    async dropBuys(chat, swapKeys, now) {
      return settle(chat, swapKeys, "dropped", now, null);
    },
    async queueBuyPost(post, now) {
      try {
        queuePost(post, now);
        return true;
      } catch (e) {
        if (e instanceof Taken) return false;
        throw e;
      }
    },
    async waitingBuyPosts() {
      return (q.waiting.all() as MessageRow[]).map(toBuyPost);
    },
    claimBuyPost: (p, sender, lease, now) => rows.claim(key(p), sender, lease, now),
    settleBuyPost: (p, sender, to, now, detail) => rows.settle(key(p), sender, to, now, detail),
    expireBuyPost: (p, now, detail) => rows.transition(key(p), ["queued", "interrupted"], "expired", now, detail),
    interruptBuyPosts: (now, holder) => rows.interruptOthers(now, holder),
    async pruneBuys(before, overlapSeconds) {
      q.pruneMessages.run(before);
      return q.prune.run(before, overlapSeconds).changes;
    },
    async buyCounts() {
      const out: Partial<Record<OwedBuyState, number>> = {};
      for (const r of q.counts.all() as { state: OwedBuyState; n: number }[]) out[r.state] = r.n;
      return out;
    },
    async buyPostCounts() {
      const out: Partial<Record<SendState, number>> = {};
      for (const r of q.postCounts.all() as { state: SendState; n: number }[]) out[r.state] = r.n;
      return out;
    },
  };
}
