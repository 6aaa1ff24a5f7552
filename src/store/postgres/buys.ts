/** The buy feed's state in PostgreSQL: the same tables and behaviour as sqlite/buys.ts. */
import {
  BUY_MESSAGES, feedColumns, gapsValue, MEDIA_COLUMNS, mediaValues, toBuyPost, toFeed, toMedia, toOwed, toWatch,
  type FeedRow, type MediaRow, type MessageRow, type PairRow, type PostRow,
} from "../buys-rows.js";
import type { Sql, SqlRunner } from "./sql.js";
import { postgresSendRows } from "../send-rows.js";
import type { BuyFeedStore, BuyPostKey, ChatKey, OwedBuyState, SendState } from "../types.js";

/** Thrown inside a transaction to undo it: one of the post's buys was taken by another post. */
class Taken extends Error {}

const settle = async (tx: SqlRunner, chat: ChatKey, swapKeys: readonly string[], to: OwedBuyState, now: number, summaryId: string | null): Promise<number> => {
  if (swapKeys.length === 0) return 0;
  const r = await tx.write(
    `UPDATE buy_posts SET state = $1, updated_at = $2, summary_id = $3
     WHERE platform = $4 AND chat_id = $5 AND swap_key = ANY($6::text[]) AND state = 'queued'`,
    [to, now, summaryId, chat.platform, chat.chatId, [...swapKeys]],
  );
  return r.count;
};

export function postgresBuys(sql: Sql): BuyFeedStore {
  const rows = postgresSendRows(sql, BUY_MESSAGES);
  const key = (p: BuyPostKey) => [p.platform, p.chatId, p.postKey] as const;
  return {
    async upsertFeed(feed, pairIds, max, now) {
      return sql.transaction(async (tx) => {
        // One chat's count and insert are one decision: two /buys at once must not both pass the limit.
        await tx.write("SELECT pg_advisory_xact_lock(hashtext($1))", [`buys:${feed.platform}:${feed.chatId}`]);
        const find = () => tx.read<FeedRow>(`SELECT ${feedColumns()} FROM buy_feeds WHERE platform = $1 AND chat_id = $2 AND token_id = $3`, [feed.platform, feed.chatId, feed.tokenId]);
        const existing = (await find())[0];
        if (existing === undefined) {
          const n = (await tx.read<{ n: number }>("SELECT COUNT(*) AS n FROM buy_feeds WHERE platform = $1 AND chat_id = $2", [feed.platform, feed.chatId]))[0]?.n ?? 0;
          if (n >= max) return { full: n };
          for (const pairId of pairIds) {
            await tx.write(
              `INSERT INTO buy_pairs (pair_id, token_id, cursor, last_trade_at, next_poll_at) VALUES ($1, $2, $3, NULL, $4)
               ON CONFLICT (pair_id) DO UPDATE SET cursor = excluded.cursor, last_trade_at = NULL, next_poll_at = excluded.next_poll_at, gaps = NULL
               WHERE NOT EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = buy_pairs.token_id)`,
              [pairId, feed.tokenId, Math.floor(now / 1000), now],
            );
          }
        }
        await tx.write(
          `INSERT INTO buy_feeds (platform, chat_id, token_id, symbol, chain, options, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (platform, chat_id, token_id) DO UPDATE SET symbol = excluded.symbol, chain = excluded.chain, options = excluded.options`,
          [feed.platform, feed.chatId, feed.tokenId, feed.symbol, feed.chain, JSON.stringify(feed.options), existing?.created_at ?? now],
        );
        return { feed: toFeed((await find())[0] as FeedRow), created: existing === undefined };
      });
    },
    async listFeeds(chat) {
      const rows = await sql.read<FeedRow>(
        `SELECT ${feedColumns()} FROM buy_feeds WHERE platform = $1 AND chat_id = $2 ORDER BY created_at, token_id COLLATE "C"`,
        [chat.platform, chat.chatId],
      );
      return rows.map(toFeed);
    },
    async setFeedMedia(chat, tokenId, media) {
      const r = await sql.write(
        `UPDATE buy_feeds SET media_kind = $1, media_file_id = $2, media_name = $3, media_type = $4, media_data = $5
         WHERE platform = $6 AND chat_id = $7 AND token_id = $8`,
        [...mediaValues(media), chat.platform, chat.chatId, tokenId],
      );
      return r.count > 0;
    },
    async feedMedia(chat, tokenId) {
      const rows = await sql.read<MediaRow>(
        `SELECT ${MEDIA_COLUMNS} FROM buy_feeds WHERE platform = $1 AND chat_id = $2 AND token_id = $3`,
        [chat.platform, chat.chatId, tokenId],
      );
      return toMedia(rows[0]);
    },
    async removeFeeds(chat, tokenId) {
      return sql.transaction(async (tx) => {
        const r =
          tokenId === "all"
            ? await tx.write("DELETE FROM buy_feeds WHERE platform = $1 AND chat_id = $2", [chat.platform, chat.chatId])
            : await tx.write("DELETE FROM buy_feeds WHERE platform = $1 AND chat_id = $2 AND token_id = $3", [chat.platform, chat.chatId, tokenId]);
        if (tokenId === "all") {
          await tx.write("DELETE FROM buy_messages WHERE platform = $1 AND chat_id = $2 AND state IN ('queued', 'interrupted')", [chat.platform, chat.chatId]);
        } else {
          await tx.write("DELETE FROM buy_messages WHERE platform = $1 AND chat_id = $2 AND token_id = $3 AND state IN ('queued', 'interrupted')", [chat.platform, chat.chatId, tokenId]);
        }
        await tx.write("DELETE FROM buy_pairs WHERE NOT EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = buy_pairs.token_id)");
        await tx.write("DELETE FROM buy_wallets WHERE NOT EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = buy_wallets.token_id)");
        return r.count;
      });
    },
    async feedsOnPair(pairId) {
      const rows = await sql.read<FeedRow>(
        `SELECT ${feedColumns("f")} FROM buy_feeds f JOIN buy_pairs p ON p.token_id = f.token_id WHERE p.pair_id = $1 ORDER BY f.platform COLLATE "C", f.chat_id COLLATE "C"`,
        [pairId],
      );
      return rows.map(toFeed);
    },
    async watches() {
      const rows = await sql.read<PairRow>(
        `SELECT * FROM buy_pairs p WHERE EXISTS (SELECT 1 FROM buy_feeds f WHERE f.token_id = p.token_id) ORDER BY next_poll_at, pair_id COLLATE "C"`,
      );
      return rows.map(toWatch);
    },
    async commitPoll(w, owed, now, read) {
      return sql.transaction(async (tx) => {
        let added = 0;
        for (const o of owed) {
          const r = await tx.write(
            `INSERT INTO buy_posts (platform, chat_id, swap_key, token_id, tx_time, payload, state, queued_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $7) ON CONFLICT (platform, chat_id, swap_key) DO NOTHING`,
            [o.platform, o.chatId, o.swapKey, o.tokenId, o.txTime, o.payload, now],
          );
          added += r.count;
        }
        const set = "UPDATE buy_pairs SET cursor = GREATEST(cursor, $1), gaps = $2, last_trade_at = $3, next_poll_at = $4 WHERE pair_id = $5";
        const values = [w.cursor, gapsValue(w), w.lastTradeAt ?? null, w.nextPollAt, w.pairId];
        await tx.write(`${set} AND cursor = $6 AND gaps IS NOT DISTINCT FROM $7`, [...values, read.cursor, gapsValue(read)]);
        return added;
      });
    },
    async firstBuys(tokenId, buys, max) {
      if (buys.length === 0) return new Set();
      return sql.transaction(async (tx) => {
        // One watcher writes a token's wallets; the lock keeps the bound if two ever overlap.
        await tx.write("SELECT pg_advisory_xact_lock(hashtext($1))", [`buy-wallets:${tokenId}`]);
        let room = max - ((await tx.read<{ n: number }>("SELECT COUNT(*)::int AS n FROM buy_wallets WHERE token_id = $1", [tokenId]))[0]?.n ?? 0);
        const known = new Map(
          (await tx.read<{ wallet: string; swap_key: string }>("SELECT wallet, swap_key FROM buy_wallets WHERE token_id = $1 AND wallet = ANY($2::text[])", [
            tokenId, [...new Set(buys.map((b) => b.wallet))],
          ])).map((r) => [r.wallet, r.swap_key]),
        );
        const out = new Set<string>();
        for (const b of buys) {
          const first = known.get(b.wallet);
          if (first === undefined && room > 0) {
            await tx.write("INSERT INTO buy_wallets (token_id, wallet, swap_key) VALUES ($1, $2, $3) ON CONFLICT (token_id, wallet) DO NOTHING", [tokenId, b.wallet, b.swapKey]);
            known.set(b.wallet, b.swapKey);
            room--;
            out.add(b.swapKey);
          } else if (first === b.swapKey) {
            out.add(b.swapKey);
          }
        }
        return out;
      });
    },
    async chatsOwed() {
      const rows = await sql.read<{ platform: "telegram" | "discord" | "console"; chat_id: string }>(
        `SELECT platform, chat_id, MIN(queued_at) AS first FROM buy_posts WHERE state = 'queued'
         GROUP BY platform, chat_id ORDER BY first, platform COLLATE "C", chat_id COLLATE "C"`,
      );
      return rows.map((r) => ({ platform: r.platform, chatId: r.chat_id }));
    },
    async queuedBuys(chat) {
      const rows = await sql.read<PostRow>(
        `SELECT * FROM buy_posts WHERE platform = $1 AND chat_id = $2 AND state = 'queued' ORDER BY tx_time, swap_key COLLATE "C"`,
        [chat.platform, chat.chatId],
      );
      return rows.map(toOwed);
    },
    async dropBuys(chat, swapKeys, now) {
      return settle(sql, chat, swapKeys, "dropped", now, null);
    },
    async queueBuyPost(p, now) {
      try {
        await sql.transaction(async (tx) => {
          const r = await tx.write(
            `INSERT INTO buy_messages (platform, chat_id, post_key, token_id, kind, tx_time, payload, queued_at, state, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $8) ON CONFLICT (platform, chat_id, post_key) DO NOTHING`,
            [p.platform, p.chatId, p.postKey, p.tokenId, p.kind, p.txTime, p.payload, now],
          );
          if (r.count === 0) throw new Taken();
          if ((await settle(tx, p, p.swapKeys, p.kind === "summary" ? "folded" : "posted", now, p.postKey)) !== p.swapKeys.length) throw new Taken();
        });
        return true;
      } catch (e) {
        if (e instanceof Taken) return false;
        throw e;
      }
    },
    async waitingBuyPosts() {
      const found = await sql.read<MessageRow>(
        `SELECT * FROM buy_messages WHERE state IN ('queued', 'interrupted') ORDER BY queued_at, platform COLLATE "C", chat_id COLLATE "C", tx_time, post_key COLLATE "C"`,
      );
      return found.map(toBuyPost);
    },
    claimBuyPost: (p, sender, lease, now) => rows.claim(key(p), sender, lease, now),
    settleBuyPost: (p, sender, to, now, detail) => rows.settle(key(p), sender, to, now, detail),
    expireBuyPost: (p, now, detail) => rows.transition(key(p), ["queued", "interrupted"], "expired", now, detail),
    interruptBuyPosts: (now, holder) => rows.interruptOthers(now, holder),
    async pruneBuys(before, overlapSeconds) {
      await sql.write("DELETE FROM buy_messages WHERE state NOT IN ('queued', 'sending', 'interrupted') AND queued_at < $1", [before]);
      const kept = "SELECT 1 FROM buy_pairs p WHERE p.token_id = buy_posts.token_id AND (buy_posts.tx_time >= p.cursor - $2 OR p.gaps IS NOT NULL)";
      return (await sql.write(`DELETE FROM buy_posts WHERE state <> 'queued' AND queued_at < $1 AND NOT EXISTS (${kept})`, [before, overlapSeconds])).count;
    },
    async buyCounts() {
      const out: Partial<Record<OwedBuyState, number>> = {};
      for (const r of await sql.read<{ state: OwedBuyState; n: number }>("SELECT state, COUNT(*) AS n FROM buy_posts GROUP BY state")) out[r.state] = r.n;
      return out;
    },
    async buyPostCounts() {
      const out: Partial<Record<SendState, number>> = {};
      for (const r of await sql.read<{ state: SendState; n: number }>("SELECT state, COUNT(*) AS n FROM buy_messages GROUP BY state")) out[r.state] = r.n;
      return out;
    },
  };
}
