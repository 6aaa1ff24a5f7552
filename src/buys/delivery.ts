/**
 * Sends the buys owed to chats through the platforms' paced queues (the digest's and alerts'),
 * each token's buys of a chat as posts, folded into one summary when the chat's pace cannot
 * take them all within two minutes (fold.ts). A buy is settled (`queued` → `posted`/`folded`)
 * after the pace's wait and right before its request, so two workers never both send it and a
 * restart never sends it again. It stands in for the one send protocol of the digests and
 * alerts (prepare → claim under lease → send → record) until the feed's posts join it.
 */
import type { Logger } from "pino";
import type { SendOutcome } from "../adapters/types.js";
import type { Reply } from "../core/reply.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import { postLanguage } from "../i18n/index.js";
import type { BuyFeed, BuyFeedStore, ChatKey, OwedBuy, Platform, SettingsStore } from "../store/types.js";
import { planFold, SLOTS_IN_TWO_MINUTES } from "./fold.js";
import { buyPost, summaryPost, type PostContext } from "./post.js";
import type { Trade } from "./trade.js";

export interface BuySink {
  send(chatId: string, reply: Reply): Promise<SendOutcome>;
}

export interface BuyDeliveryOptions {
  buys: BuyFeedStore;
  chats: Pick<SettingsStore, "getSettings" | "forgetChat" | "moveChat">;
  sinks: Partial<Record<Platform, BuySink>>;
  queues: Partial<Record<Platform, PacedQueue>>;
  /** What a post adds from the market: the token's cap or FDV and the chain's explorer. Default nothing. */
  extras?: (tokenId: string, chain: string) => Promise<Pick<PostContext, "cap" | "explorer">>;
  logger: Logger;
  now?: () => number;
  /** Each buy's state and how long after its trade it went out (metrics, tests). */
  onSettled?: (e: { platform: Platform; state: "posted" | "folded"; count: number; delayMs: number }) => void;
}

export interface BuyDelivery {
  /** Queues every owed buy not under way yet; resolves when they all have an outcome. */
  flush(): Promise<void>;
}

const TWO_MINUTES = 120_000;

export function createBuyDelivery(opts: BuyDeliveryOptions): BuyDelivery {
  const now = opts.now ?? Date.now;
  const inProgress = new Set<string>();

  const send = async (chat: ChatKey, keys: string[], state: "posted" | "folded", reply: Reply, newest: number): Promise<void> => {
    const queue = opts.queues[chat.platform];
    const sink = opts.sinks[chat.platform];
    if (queue === undefined || sink === undefined) return;
    const result = await queue.push({
      chatId: chat.chatId,
      deadline: now() + TWO_MINUTES,
      send: async () => {
        const summaryId = state === "folded" ? `${keys[0] ?? ""}+${keys.length}` : undefined;
        if ((await opts.buys.settleBuys(chat, keys, state, now(), summaryId)) === 0) return { kind: "delivered" };
        opts.onSettled?.({ platform: chat.platform, state, count: keys.length, delayMs: now() - newest * 1000 });
        return sink.send(chat.chatId, reply);
      },
    });
    if (result.kind === "gone") await opts.chats.forgetChat(chat);
    else if (result.kind === "moved") await opts.chats.moveChat(chat, result.toChatId);
    else if (result.kind !== "delivered" && result.kind !== "stopped" && result.kind !== "expired") {
      opts.logger.warn({ platform: chat.platform, chatId: chat.chatId, outcome: result }, "buy post not delivered");
    }
  };

  const deliverChat = async (chat: ChatKey): Promise<void> => {
    const queued = await opts.buys.queuedBuys(chat);
    const feeds = new Map<string, BuyFeed>((await opts.buys.listFeeds(chat)).map((f) => [f.tokenId, f]));
    const byToken = new Map<string, OwedBuy[]>();
    for (const b of queued) byToken.set(b.tokenId, [...(byToken.get(b.tokenId) ?? []), b]);
    const i18n = await postLanguage(opts.chats, chat);
    const slots = Math.max(1, Math.floor((SLOTS_IN_TWO_MINUTES[chat.platform] - (opts.queues[chat.platform]?.pending() ?? 0)) / Math.max(1, byToken.size)));
    const jobs: Promise<void>[] = [];
    for (const [tokenId, owed] of byToken) {
      const feed = feeds.get(tokenId);
      // A feed stopped since: its buys are no longer wanted.
      if (feed === undefined) {
        await opts.buys.settleBuys(chat, owed.map((b) => b.swapKey), "dropped", now());
        continue;
      }
      const extras = (await opts.extras?.(tokenId, feed.chain).catch(() => ({}))) ?? {};
      const ctx = (): PostContext => ({ i18n, now: now(), symbol: feed.symbol, ...extras });
      const plan = planFold(owed, slots);
      if (plan.folded.length > 0) {
        const trades = plan.folded.map((b) => JSON.parse(b.payload) as Trade);
        jobs.push(send(chat, plan.folded.map((b) => b.swapKey), "folded", summaryPost(trades, feed.options, ctx()), Math.max(...trades.map((t) => t.txTime))));
      }
      for (const b of plan.posts) {
        const trade = JSON.parse(b.payload) as Trade;
        jobs.push(send(chat, [b.swapKey], "posted", buyPost(trade, feed.options, ctx()), trade.txTime));
      }
    }
    await Promise.all(jobs);
  };

  return {
    async flush() {
      const chats = (await opts.buys.chatsOwed()).filter((c) => opts.sinks[c.platform] !== undefined && !inProgress.has(`${c.platform}:${c.chatId}`));
      await Promise.all(
        chats.map(async (c) => {
          const key = `${c.platform}:${c.chatId}`;
          inProgress.add(key);
          try {
            await deliverChat(c);
          } catch (e) {
            opts.logger.warn({ err: e instanceof Error ? e.message : String(e), platform: c.platform, chatId: c.chatId }, "buy delivery failed");
          } finally {
            inProgress.delete(key);
          }
        }),
      );
    },
  };
}
