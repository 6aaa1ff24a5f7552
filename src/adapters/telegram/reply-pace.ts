/**
 * Replies keep the bot's one pace. Telegram takes about 30 messages a second from a bot and 20
 * a minute in a group, counting answers to people and scheduled posts alike, so every message
 * the bot sends or edits in a chat takes a slot from the same ledger as digests and alerts (in
 * Redis when the workers share one, so all of them count together).
 *
 * Replies wait in one line per process, first come first served, and the ledger is asked for
 * the first of them whose chat has room (a group at its 20 a minute does not hold up the
 * others). A reply rides in the webhook's answer only in its slot: the call waits here, and
 * rides if the update's answer is still open when its turn comes (else it goes to the API).
 * Riding is what keeps a reply once across a crash (webhook-reply.ts), and in its slot the
 * pace has room for it, so Telegram does not refuse it unseen for the bot's rate.
 *
 * A send of an update's handling joins the line only once no earlier update of its chat still
 * holds a ticket (chat-order.ts): a reply answered after its update's answer (it waited past the
 * webhook's patience) goes before any reply of the chat's later updates, on whichever worker.
 */
import type { Transformer } from "grammy";
import { MAX_CANDIDATES, type PaceLedger, type PaceSlot } from "../../digest/pace-ledger.js";
import { updateInHand, type ChatOrder } from "./chat-order.js";

/**
 * How long a waiting reply keeps its chat's slots from scheduled posts, renewed while it waits:
 * the chat's next slot (a second apart) goes to the person, not to a backlog of buys that would
 * otherwise take every second as it frees.
 */
const REPLY_HOLD_MS = 5_000;

/** What puts or changes a message in a chat: the calls Telegram's limits count. */
const PACED_METHODS = new Set(["sendMessage", "sendPhoto", "sendAnimation", "sendVideo", "editMessageText", "editMessageMedia"]);

export interface ReplyPaceOptions {
  /** The bot's pace, shared with its scheduled sends. */
  ledger: PaceLedger;
  /** The chats' reply tickets, shared by the workers (Redis) like the ledger. Default: in process. */
  order?: ChatOrder;
  /** Time a reply waited for its slot (metrics). */
  onWait?: (ms: number) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Waiter {
  chatId: string;
  joinedAt: number;
  /** Given the slot's stamp. */
  resolve(stamp: string): void;
  reject(e: unknown): void;
}

/** The grammY transformer that paces the bot's sends and edits; other calls pass as they are. */
export function replyPace(opts: ReplyPaceOptions): Transformer {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const line: Waiter[] = [];
  let pumping = false;
  /** Chats this process holds from scheduled posts while their replies wait. */
  const held = new Set<string>();
  let wake: (() => void) | undefined;
  // A reply joining the line ends the pump's wait: its chat may have room while the others' have none.
  const nap = (ms: number): Promise<void> => Promise.race([sleep(ms), new Promise<void>((r) => (wake = r))]);

  /** Hands out slots to the line until it is empty; one pump at a time, so no two replies get one slot. */
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      while (line.length > 0) {
        const candidates = line.slice(0, MAX_CANDIDATES);
        let slot: PaceSlot;
        try {
          slot = await opts.ledger.take(candidates.map((w) => w.chatId), now());
        } catch (e) {
          for (const w of line.splice(0)) w.reject(e);
          return;
        }
        if ("waitMs" in slot) {
          // Only a reply that waits holds its chat: one that gets its slot at once costs no more.
          await holdFor(line.map((x) => x.chatId));
          await nap(Math.max(1, slot.waitMs));
          continue;
        }
        const w = candidates[slot.index] as Waiter;
        line.splice(line.indexOf(w), 1);
        if (held.has(w.chatId) && !line.some((x) => x.chatId === w.chatId)) {
          held.delete(w.chatId);
          await opts.ledger.hold(w.chatId, 0).catch(() => undefined);
        }
        opts.onWait?.(now() - w.joinedAt);
        w.resolve(slot.stamp);
      }
    } finally {
      pumping = false;
    }
  };

  /** Keeps the chats' next slots from scheduled posts while their replies wait; a failure only loses that precedence. */
  const holdFor = async (chatIds: readonly string[]): Promise<void> => {
    const until = now() + REPLY_HOLD_MS;
    const chats = new Set(chatIds);
    for (const c of chats) held.add(c);
    await Promise.all([...chats].map((c) => opts.ledger.hold(c, until).catch(() => undefined)));
  };

  const turn = (chatId: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      line.push({ chatId, joinedAt: now(), resolve, reject });
      wake?.();
      void pump();
    });

  return async (prev, method, payload, signal) => {
    const chatId = PACED_METHODS.has(method) && payload && "chat_id" in payload ? String(payload.chat_id) : undefined;
    if (chatId === undefined) return prev(method, payload, signal);
    const updateId = updateInHand();
    if (updateId !== undefined) await opts.order?.turn(chatId, updateId);
    const stamp = await turn(chatId);
    try {
      const res = await prev(method, payload, signal);
      if (!res.ok && res.error_code === 429) await opts.ledger.pause(now() + (res.parameters?.retry_after ?? 1) * 1000);
      return res;
    } finally {
      await opts.ledger.answered(chatId, stamp, now());
    }
  };
}
