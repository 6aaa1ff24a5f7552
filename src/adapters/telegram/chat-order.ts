/**
 * A chat's replies in the order of its updates, across workers. Telegram sends a chat its next
 * update only after the previous one was answered, so while every reply is sent before its
 * update's answer the chat's order holds by itself. A reply still waiting when the answer goes
 * out (its turn of the pace, or a slow command, outlasted the webhook's patience) breaks that:
 * the next update may reach another worker, whose reply may find the pace free first. So before
 * answering early, the update takes a ticket in its chat (`hold`), kept until its handling ends;
 * every paced send of a later update of the chat waits until no earlier ticket is left (`turn`).
 * A ticket lives `TICKET_MS` unless its holder renews it, so a worker that died holding one
 * delays the chat's later replies by that much at most.
 *
 * This file keeps the tickets in process; `src/redis/chat-order.ts` keeps them in Redis for
 * every worker. The update a send answers is carried through the async calls of its handling.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface ChatOrder {
  /** Update `updateId` of `chatId` has replies to send after its answer: later updates' wait. Resolves with its release. */
  hold(chatId: string, updateId: number): Promise<() => Promise<void>>;
  /** Resolves once no earlier update of `chatId` holds a ticket. */
  turn(chatId: string, updateId: number): Promise<void>;
}

/** A ticket not renewed lives this long: the most a dead holder delays its chat's later replies. */
export const TICKET_MS = 30_000;
/** How often a waiting reply looks at the tickets again. */
export const TURN_POLL_MS = 50;

const handling = new AsyncLocalStorage<number>();

/** Runs the handling of update `updateId`: the sends it makes answer that update. */
export function inUpdate<T>(updateId: number, handle: () => Promise<T>): Promise<T> {
  return handling.run(updateId, handle);
}

/** The update whose handling makes the current call, if any. */
export function updateInHand(): number | undefined {
  return handling.getStore();
}

/** The chat an update is about, when it is about one. */
export function chatOfUpdate(u: {
  message?: { chat: { id: number } };
  edited_message?: { chat: { id: number } };
  callback_query?: { message?: { chat: { id: number } } };
}): string | undefined {
  const id = u.message?.chat.id ?? u.edited_message?.chat.id ?? u.callback_query?.message?.chat.id;
  return id === undefined ? undefined : String(id);
}

/** The tickets in this process. */
export function memoryChatOrder(opts: { pollMs?: number } = {}): ChatOrder {
  const pollMs = opts.pollMs ?? TURN_POLL_MS;
  /** Per chat, the updates holding a ticket. */
  const tickets = new Map<string, Set<number>>();
  const earlier = (chatId: string, updateId: number): boolean => [...(tickets.get(chatId) ?? [])].some((u) => u < updateId);
  return {
    async hold(chatId, updateId) {
      tickets.set(chatId, (tickets.get(chatId) ?? new Set<number>()).add(updateId));
      return async () => {
        const held = tickets.get(chatId);
        held?.delete(updateId);
        if (held?.size === 0) tickets.delete(chatId);
      };
    },
    async turn(chatId, updateId) {
      while (earlier(chatId, updateId)) await new Promise((r) => setTimeout(r, pollMs));
    },
  };
}
