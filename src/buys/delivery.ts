/**
 * Sends the buys owed to chats by the one send protocol (src/delivery/protocol.ts), as the
 * digests and alerts are sent. Each turn first turns a chat's queued buys into posts: a post of
 * its own per buy, or one summary for those the chat's pace cannot take within two minutes
 * (fold.ts). A post is a row of `buy_messages`, queued in the transaction that moves its buys
 * out of `queued`, so a buy is in exactly one post and none is lost between the two. Then every
 * waiting post is started on its way (the paced queue gives it its turn): claimed under the watcher's lease (only the watcher sends, as only the
 * digest poster posts), sent, and its outcome recorded. A post left `sending` by a watcher that
 * is gone is marked `interrupted` by the next one and sent once more (recorded `resent`).
 */
import type { Logger } from "pino";
import type { BotCore } from "../core/bot-core.js";
import type { ScheduledPost } from "../core/posts/render.js";
import type { Reply } from "../core/reply.js";
import { isWhale, type BuyRecord } from "../core/posts/buy.js";
import type { PacedQueue } from "../digest/paced-queue.js";
import { createSendProtocol, type SendKind, type SendSink } from "../delivery/protocol.js";
import type { BuyFeed, BuyFeedStore, BuyOptions, BuyPost, ChatKey, NewBuyPost, OwedBuy, Platform, SendState, SettingsStore } from "../store/types.js";
import { planFold, SLOTS_IN_TWO_MINUTES } from "./fold.js";
import type { PostExtras } from "./extras.js";
import type { Trade } from "./trade.js";

export type BuySink = SendSink;

export interface BuyDeliveryOptions {
  buys: BuyFeedStore;
  chats: Pick<SettingsStore, "getSettings" | "forgetChat" | "moveChat">;
  /** Writes each post from its record, in the chat's language (`BotCore.render`). */
  core: Pick<BotCore, "render">;
  sinks: Partial<Record<Platform, BuySink>>;
  queues: Partial<Record<Platform, PacedQueue>>;
  /** The lease posts are claimed under (the watcher's) and this sender's name on it. */
  lease: string;
  sender: string;
  /** Whether this sender holds the lease now (the watcher leads and is not stopping). */
  leading: () => boolean;
  /** What a post adds from the market: the token's cap or FDV and the chain's explorer. Default nothing. */
  extras?: PostExtras;
  logger: Logger;
  now?: () => number;
  /** Each post delivered: its buys' state and how long after the newest trade it went out (metrics, tests). */
  onSettled?: (e: { platform: Platform; state: "posted" | "folded"; count: number; delayMs: number }) => void;
  /** Each send's recorded outcome (metrics: sends per outcome). */
  onSend?: (kind: string, platform: Platform, state: SendState) => void;
}

export interface BuyDelivery {
  /**
   * Queues the owed buys as posts and starts sending every waiting post not under way yet;
   * resolves once they are started, so a chat's pace never holds up the watcher (or its lease).
   */
  flush(): Promise<void>;
  /** Resolves when the sends started so far have an outcome. */
  settled(): Promise<void>;
}

/** What a post renders, as `buy_messages.payload` keeps it. */
interface PostPayload {
  symbol: string;
  chain: string;
  options: BuyOptions;
  trades: Trade[];
}

/** A post not sent within this long is recorded `expired`: news of a trade that old is no longer a buy feed. */
const HOUR = 3_600_000;

export function createBuyDelivery(opts: BuyDeliveryOptions): BuyDelivery {
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const protocol = createSendProtocol({ queues: opts.queues, adapters: opts.sinks, logger: log, now, settings: opts.chats, onOutcome: opts.onSend });
  const inProgress = new Set<string>();
  /**
   * Posts in progress here whose row no longer waits, found by a later turn: a /stopbuys (or
   * a chat gone) took them off. Not yet claimed, they leave the platform's queue before their
   * turn, so they use up none of the chat's pace that its other messages need.
   */
  const unwanted = new Set<string>();
  const deliveries = new Set<Promise<void>>();
  /** Cleared when a claim finds the lease run out: nothing more is claimed this turn. */
  let leased = true;
  const claiming = (): boolean => leased && opts.leading();
  const id = (p: ChatKey & { postKey: string }): string => `${p.platform}:${p.chatId}:${p.postKey}`;

  const posts: SendKind<BuyPost> = {
    name: "buy",
    chats: opts.chats,
    rows: {
      claim: (p, at) => opts.buys.claimBuyPost(p, opts.sender, opts.lease, at),
      settle: (p, to, at, detail) => opts.buys.settleBuyPost(p, opts.sender, to, at, detail),
      expire: (p, at, detail) => opts.buys.expireBuyPost(p, at, detail),
    },
    recorded: (p, state) => {
      if (state !== "delivered" && state !== "resent") return;
      const trades = (JSON.parse(p.payload) as PostPayload).trades;
      opts.onSettled?.({
        platform: p.platform, state: p.kind === "summary" ? "folded" : "posted", count: trades.length,
        delayMs: now() - Math.max(...trades.map((t) => t.txTime)) * 1000,
      });
    },
  };

  /** Turns the chat's queued buys into posts, returned as queued; `waiting` posts of the chat already take part of its pace. */
  const queueChat = async (chat: ChatKey, waiting: number): Promise<BuyPost[]> => {
    const made: BuyPost[] = [];
    const queue = async (post: NewBuyPost): Promise<void> => {
      const at = now();
      if (!(await opts.buys.queueBuyPost(post, at))) return;
      const { swapKeys: _, ...row } = post;
      made.push({ ...row, state: "queued", queuedAt: at });
    };
    const queued = await opts.buys.queuedBuys(chat);
    const feeds = new Map<string, BuyFeed>((await opts.buys.listFeeds(chat)).map((f) => [f.tokenId, f]));
    const byToken = new Map<string, OwedBuy[]>();
    for (const b of queued) byToken.set(b.tokenId, [...(byToken.get(b.tokenId) ?? []), b]);
    // What else of this chat waits in its platform's queue (posts under way, a digest, an alert) takes part of its pace; other chats' do not.
    const room = SLOTS_IN_TWO_MINUTES[chat.platform] - (opts.queues[chat.platform]?.pending(chat.chatId) ?? 0) - waiting;
    const slots = Math.max(1, Math.floor(room / Math.max(1, byToken.size)));
    for (const [tokenId, owed] of byToken) {
      const feed = feeds.get(tokenId);
      // A feed stopped since: its buys are no longer wanted.
      if (feed === undefined) {
        await opts.buys.dropBuys(chat, owed.map((b) => b.swapKey), now());
        continue;
      }
      const payload = (trades: Trade[]): string => JSON.stringify({ symbol: feed.symbol, chain: feed.chain, options: feed.options, trades } satisfies PostPayload);
      const plan = planFold(owed, slots, (b) => isWhale(feed.options, (JSON.parse(b.payload) as Trade).amountUsd));
      const first = plan.folded[0];
      if (first !== undefined) {
        await queue({
          ...chat, postKey: `fold:${first.swapKey}:${plan.folded.length}`, tokenId, kind: "summary",
          txTime: Math.max(...plan.folded.map((b) => b.txTime)), payload: payload(plan.folded.map((b) => JSON.parse(b.payload) as Trade)), swapKeys: plan.folded.map((b) => b.swapKey),
        });
      }
      for (const b of plan.posts) {
        await queue({ ...chat, postKey: b.swapKey, tokenId, kind: "post", txTime: b.txTime, payload: payload([JSON.parse(b.payload) as Trade]), swapKeys: [b.swapKey] });
      }
    }
    return made;
  };

  const chatOf = (c: ChatKey): string => `${c.platform}:${c.chatId}`;

  /** Per chat, the turn of the last post to take its place in the chat's queue: each waits for the one before. */
  const entering = new Map<string, Promise<void>>();

  /** The reply, or undefined when the post's record could not be read: the post is then given up (recorded, logged). */
  const readable = async (p: BuyPost, reply: Reply): Promise<{ reply: Reply } | undefined> => {
    if (reply.error !== undefined) {
      // Nothing to send: it is given up as one past its time is, with the reason recorded.
      log.error({ platform: p.platform, chatId: p.chatId, post: p.postKey }, "a buy post could not be read: dropped");
      if (await opts.buys.expireBuyPost(p, now(), "unreadable record")) posts.recorded?.(p, "expired");
      return undefined;
    }
    return { reply };
  };

  /**
   * The post written, and written again for the moment it leaves (a buy's "25 s ago" is counted
   * to its send, however long the chat's pace held it); undefined when it cannot be (recorded, logged).
   */
  const write = async (p: BuyPost): Promise<{ reply: Reply; writeAt?: (at: number) => Promise<Reply> } | undefined> => {
    const what = JSON.parse(p.payload) as PostPayload;
    // A summary's cap is at its newest trade's price.
    const newest = what.trades.reduce<Trade | undefined>((n, t) => (n === undefined || t.txTime > n.txTime ? t : n), undefined);
    const extras = (await opts.extras?.(p.tokenId, what.chain, newest?.priceUsd).catch(() => ({}))) ?? {};
    const record = JSON.stringify({ ...what, ...extras } satisfies BuyRecord);
    const trade = what.trades[0];
    // Only a whale buy shows the chat's media: the file is read for none other.
    const media = p.kind === "post" && trade?.side === "buy" && isWhale(what.options, trade.amountUsd) ? await opts.buys.feedMedia(p, p.tokenId) : undefined;
    // A summary tells the span of its trades, not their age: it reads the same whenever it leaves.
    if (p.kind === "summary") return readable(p, await opts.core.render(p, { kind: "buy-summary", record }));
    const post = (at: number): ScheduledPost => ({ kind: "buy", record, at, ...(media === undefined ? {} : { media }) });
    const reply = await readable(p, await opts.core.render(p, post(now())));
    return reply && { ...reply, writeAt: (at) => opts.core.render(p, post(at)) };
  };

  /**
   * Writes the post and puts it in the chat's queue after the chat's post before it, whatever
   * each took to write (a whale's media is read first), so a chat reads its trades in order.
   */
  const deliver = async (p: BuyPost, key: string): Promise<void> => {
    const chat = chatOf(p);
    const previous = entering.get(chat);
    let entered!: () => void;
    const turn = new Promise<void>((resolve) => (entered = resolve));
    entering.set(chat, turn);
    try {
      await previous;
      const written = await write(p);
      if (written === undefined) return;
      // `send` takes its place in the chat's queue before its first wait: the next post may follow.
      const sending = protocol.send(posts, {
        item: p,
        platform: p.platform,
        chatId: p.chatId,
        deadline: p.queuedAt + HOUR,
        ...written,
        claiming: () => claiming() && !unwanted.has(key),
        unleased: () => {
          if (!leased) return;
          leased = false;
          log.warn("the buy watcher's lease ran out mid-delivery: it claims no more posts this turn");
        },
        names: { post: p.postKey },
      });
      entered();
      await sending;
    } finally {
      entered();
      if (entering.get(chat) === turn) entering.delete(chat);
    }
  };

  return {
    async flush() {
      leased = true;
      if (!claiming()) return;
      const interrupted = await opts.buys.interruptBuyPosts(now(), opts.sender);
      if (interrupted > 0) log.warn({ posts: interrupted }, "buy posts cut off mid-send by a watcher that is gone are sent once more");
      // Read once a turn, with what this turn queues added as it is queued: every waiting post
      // read twice a turn (payloads and all) was most of a busy feed's store time.
      const waiting = await opts.buys.waitingBuyPosts();
      const stillWaiting = new Set(waiting.map(id));
      for (const key of inProgress) if (!stillWaiting.has(key)) unwanted.add(key);
      // Counted once per chat: filtering every waiting post for each chat owed made a turn's
      // work grow with chats × posts, which at 300 chats outlasted the turn.
      const waitingIn = new Map<string, number>();
      for (const p of waiting) {
        if (!inProgress.has(id(p))) waitingIn.set(chatOf(p), (waitingIn.get(chatOf(p)) ?? 0) + 1);
      }
      for (const chat of await opts.buys.chatsOwed()) {
        if (!protocol.running(chat.platform)) continue;
        waiting.push(...(await queueChat(chat, waitingIn.get(chatOf(chat)) ?? 0)));
      }
      for (const p of waiting) {
        const key = id(p);
        if (!protocol.running(p.platform) || inProgress.has(key)) continue;
        inProgress.add(key);
        const sending: Promise<void> = deliver(p, key)
          .catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e), platform: p.platform, chatId: p.chatId, post: p.postKey }, "buy post delivery failed"))
          .finally(() => {
            inProgress.delete(key);
            unwanted.delete(key);
            deliveries.delete(sending);
          });
        deliveries.add(sending);
      }
    },
    async settled() {
      await Promise.all([...deliveries]);
    },
  };
}
