/**
 * The one send protocol of every scheduled message (digests, alerts, and each kind to come):
 * prepare → claim → send → record.
 *
 * 1. Prepare: the platform's paced queue gives the post its turn (the bot's pace and the
 *    chat's), a post that tells its age is written for that moment (`Post.writeAt`), then the
 *    adapter's `prepareSend` runs every other check and wait (blocked chats, Discord's shared
 *    REST rate) and renders.
 * 2. Claim: the kind's row goes `queued` (or `interrupted`) → `sending` under this sender's
 *    name, only while its lease holds. Nothing but the claim's own round trip lies between the
 *    end of every wait and the request: Telegram has no idempotency key.
 * 3. Send: the request leaves with no await after the claim; a 429 waits and sends again under
 *    the same claim.
 * 4. Record: what the platform said is applied (a gone chat forgotten, a moved one followed and
 *    sent to) and written on the row by the sender that claimed it, even over `interrupted`.
 *
 * A sender that dies between claim and record leaves its row `sending`; whoever sends the kind
 * next marks it `interrupted` and sends it once more (a claim that finds `interrupted` is a
 * resend, named in the log and recorded `resent`). So a message is never lost once queued, and
 * an outcome once recorded is never sent again; the one double left is a request the platform
 * accepted in the instant before its sender died.
 *
 * A kind brings its rows (`SendRows`, usually the store's send-rows.ts queries on its table)
 * and what an outcome means for it besides the row (`SendKind.after`).
 */
import type { Logger } from "pino";
import type { PreparedSend, SendOutcome } from "../adapters/types.js";
import type { Reply } from "../core/reply.js";
import type { DeliveryResult, PacedQueue, Unclaimed } from "../digest/paced-queue.js";
import type { Platform, SendClaim, SendState, SettingsStore } from "../store/types.js";

/** What the protocol needs of an adapter: `prepareSend`, when it has one, runs before the claim. */
export interface SendSink {
  send(chatId: string, reply: Reply): Promise<SendOutcome>;
  prepareSend?(chatId: string, reply: Reply): Promise<PreparedSend>;
}

/** A kind's rows as the protocol drives them; the sender's name and lease are the kind's. */
export interface SendRows<Item> {
  /** `queued` or `interrupted` → `sending` under this sender, only while its lease holds. */
  claim(item: Item, now: number): Promise<SendClaim>;
  /** The outcome of a row this sender claimed, from `sending` or over `interrupted`; false when it is not its (or is gone). */
  settle(item: Item, to: SendState, now: number, detail?: string): Promise<boolean>;
  /** A row never claimed whose deadline passed (`queued` or `interrupted` → `expired`). */
  expire(item: Item, now: number, detail?: string): Promise<boolean>;
}

/** One kind of scheduled message. */
export interface SendKind<Item> {
  /** Names the kind in the log and the metrics: `digest`, `alert`, … */
  readonly name: string;
  /** Its posts go before a chat's other queued posts (`DeliveryJob.urgent`): a price alert is news of the moment. */
  readonly urgent?: boolean;
  readonly rows: SendRows<Item>;
  /** Chat state to drop when a chat is gone, or to move when a group migrated. */
  readonly chats: Pick<SettingsStore, "forgetChat" | "moveChat">;
  /**
   * What the recorded outcome means for the kind besides the row, run before it is written
   * (the digest keeps its ranking, or pauses a forbidden subscription); may turn `forbidden`
   * into another state. Default: nothing.
   */
  after?(item: Item, state: SendState, out: SendOutcome, post: Post<Item>): Promise<SendState | void>;
  /** The state written on a row (metrics); `gone` rows go with their chat and are reported too. */
  recorded?(item: Item, state: SendState): void;
}

/** One message of a kind, ready to go. */
export interface Post<Item> {
  item: Item;
  platform: Platform;
  chatId: string;
  /** After this (epoch ms) the message is not sent late: recorded `expired`. */
  deadline: number;
  reply: Reply;
  /**
   * The reply as it reads leaving at `at` (epoch ms), written again at each attempt, for a post
   * that says how long ago its news is (the buy feed's "25 s ago"): `reply` was written when the
   * post was queued, and the chat's pace may hold it for minutes. Default: `reply`.
   */
  writeAt?(at: number): Promise<Reply>;
  /** Whether this sender claims now (holds its lease, is not stopping). */
  claiming(): boolean;
  /** A claim found the sender's lease run out: it should claim nothing more until it renews it. */
  unleased(): void;
  /** Log fields naming the row. */
  names: Record<string, unknown>;
}

/** What became of one post, honestly: the state this sender recorded, or why it did not send. */
export type SendReport =
  /** Claimed and sent by this sender (once more when `resend`), and the outcome recorded (`written` false: the row was gone or another's). */
  | { kind: "recorded"; state: SendState; resend: boolean; written: boolean }
  /** Not sent by this sender: the row is another's, the lease ran out, or it no longer claims. */
  | Unclaimed
  /** Its deadline passed before it was claimed: recorded `expired`. */
  | { kind: "expired" }
  /** The queue stopped (or the sender stopped claiming) before its turn: the row waits for the next sender. */
  | { kind: "stopped" }
  /** No adapter or queue for its platform in this process: the row waits. */
  | { kind: "off" };

export interface SendProtocolOptions {
  queues: Partial<Record<Platform, PacedQueue>>;
  adapters: Partial<Record<Platform, SendSink>>;
  logger: Logger;
  now?: () => number;
  /** Every recorded send: kind, platform, state (metrics: sends per outcome). */
  onOutcome?: (kind: string, platform: Platform, state: SendState) => void;
  /** Where each chat's `postTopic` is read: every post and notice goes to its chat's topic. */
  settings?: Pick<SettingsStore, "getSettings">;
}

export interface SendProtocol {
  send<Item>(kind: SendKind<Item>, post: Post<Item>): Promise<SendReport>;
  /** A message outside any row (a notice beside a post), paced like posts, sent at most once. */
  paced(platform: Platform, chatId: string, deadline: number, reply: Reply): Promise<DeliveryResult>;
  /** Whether posts to `platform` can go from this process. */
  running(platform: Platform): boolean;
}

export function createSendProtocol(opts: SendProtocolOptions): SendProtocol {
  const now = opts.now ?? Date.now;
  const log = opts.logger;

  /**
   * `reply` in the topic its chat's posts go to (the one its latest digest, alert, launch or buy
   * feed was set up in); a chat whose settings cannot be read now gets it in its main thread.
   */
  const placed = async (platform: Platform, chatId: string, reply: Reply): Promise<Reply> => {
    if (opts.settings === undefined) return reply;
    let topic: string | undefined;
    try {
      topic = (await opts.settings.getSettings({ platform, chatId })).postTopic;
    } catch {
      return reply;
    }
    return topic === undefined ? reply : { ...reply, topic };
  };

  /** A message outside any row, written when its turn comes. */
  const pacedAt = (platform: Platform, chatId: string, deadline: number, write: () => Promise<Reply>): Promise<DeliveryResult> => {
    const queue = opts.queues[platform];
    const adapter = opts.adapters[platform];
    if (!queue || !adapter) return Promise.resolve({ kind: "stopped" });
    return queue.push({ chatId, deadline, send: async () => adapter.send(chatId, await placed(platform, chatId, await write())) });
  };
  const paced = (platform: Platform, chatId: string, deadline: number, reply: Reply): Promise<DeliveryResult> =>
    pacedAt(platform, chatId, deadline, () => Promise.resolve(reply));
  const replyNow = <Item>(post: Post<Item>): Promise<Reply> => post.writeAt?.(now()) ?? Promise.resolve(post.reply);

  /** What the platform's answer means for the chat; returns the state to record. */
  const follow = async <Item>(kind: SendKind<Item>, post: Post<Item>, out: SendOutcome, resend: boolean): Promise<SendState> => {
    const chat = { platform: post.platform, chatId: post.chatId };
    const at = { kind: kind.name, platform: post.platform, chatId: post.chatId, ...post.names };
    switch (out.kind) {
      case "delivered":
        return resend ? "resent" : "delivered";
      case "gone":
        log.info({ ...at, reason: out.reason }, "the chat of a post is gone: dropping it");
        await kind.chats.forgetChat(chat);
        return "gone";
      case "moved": {
        log.info({ ...at, to: out.toChatId }, "the chat of a post migrated: following it");
        await kind.chats.moveChat(chat, out.toChatId);
        // Still under this sender's claim: the row stays `sending` until this is recorded.
        const again = await pacedAt(post.platform, out.toChatId, post.deadline, () => replyNow(post));
        if (again.kind !== "delivered") return "moved";
        return resend ? "resent" : "delivered";
      }
      case "forbidden":
        log.warn({ ...at, reason: out.reason }, "the chat of a post forbids posting");
        return "forbidden";
      case "retry":
      case "failed":
        log.warn({ ...at, outcome: out }, "a post could not be delivered");
        return "failed";
    }
  };

  const send = async <Item>(kind: SendKind<Item>, post: Post<Item>): Promise<SendReport> => {
    const queue = opts.queues[post.platform];
    const adapter = opts.adapters[post.platform];
    if (!queue || !adapter) return { kind: "off" };
    let claim: SendClaim | undefined;
    const claimed = () => claim === "claimed" || claim === "resend";
    const result = await queue.push({
      chatId: post.chatId,
      deadline: post.deadline,
      ...(kind.urgent === true ? { urgent: true } : {}),
      live: () => claimed() || post.claiming(),
      send: async () => {
        const reply = await placed(post.platform, post.chatId, await replyNow(post));
        const prepared: PreparedSend = adapter.prepareSend
          ? await adapter.prepareSend(post.chatId, reply)
          : { send: () => adapter.send(post.chatId, reply) };
        if (!claimed()) {
          // Claimed once, row by row: a stop or a crash before it leaves the row for the next
          // sender. A retry after a 429 sends under the same claim. The claim is one conditional
          // UPDATE under the lease rather than a job queue's lock, so that a row survives its
          // sender's death as plain state the next sender reads.
          if (!post.claiming()) return { kind: "unclaimed", why: "not-claiming" };
          claim = await kind.rows.claim(post.item, now());
          if (claim === "unleased") post.unleased();
          if (claim === "taken" || claim === "unleased") return { kind: "unclaimed", why: claim };
          if (claim === "resend") {
            log.warn({ kind: kind.name, platform: post.platform, chatId: post.chatId, ...post.names }, "resending a message whose send was cut off: its outcome was never recorded");
          }
        }
        const sent = "outcome" in prepared ? prepared.outcome : await prepared.send();
        if (sent.kind === "retry" && sent.reason !== undefined) {
          log.warn({ kind: kind.name, platform: post.platform, chatId: post.chatId, ...post.names, reason: sent.reason, retryMs: sent.afterMs }, "a post could not reach the platform: trying again");
        }
        return sent;
      },
    });
    if (result.kind === "stopped" || result.kind === "unclaimed") return result;
    if (result.kind === "expired") {
      // A post that only waited past its deadline was never claimed; one whose 429 outlasted it was.
      if (claimed()) return record(kind, post, "expired", claim === "resend");
      if (await kind.rows.expire(post.item, now())) kind.recorded?.(post.item, "expired");
      return { kind: "expired" };
    }
    const resend = claim === "resend";
    let state = await follow(kind, post, result, resend);
    state = (await kind.after?.(post.item, state, result, post)) ?? state;
    return record(kind, post, state, resend);
  };

  const record = async <Item>(kind: SendKind<Item>, post: Post<Item>, state: SendState, resend: boolean): Promise<SendReport> => {
    const written = await kind.rows.settle(post.item, state, now());
    // A chat that is gone may have taken its rows with it: its send is reported all the same.
    if (written || state === "gone") {
      kind.recorded?.(post.item, state);
      opts.onOutcome?.(kind.name, post.platform, state);
    }
    return { kind: "recorded", state, resend, written };
  };

  return {
    send,
    paced,
    running: (p) => opts.queues[p] !== undefined && opts.adapters[p] !== undefined,
  };
}
