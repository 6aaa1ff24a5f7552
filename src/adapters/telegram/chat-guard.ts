/**
 * After Telegram answers 403 for a chat (blocked, kicked, no rights), the bot stops calling
 * that chat: every further call would be refused the same way, and floods of refusals are
 * what gets bots limited. An update from the chat (a message, the bot re-added or promoted)
 * lifts the block.
 */
import type { Transformer } from "grammy";
import type { SendOutcome } from "../types.js";
import { classifyRefusal } from "./errors.js";

export class ChatGuard {
  private readonly blocked = new Map<string, string>();

  /** An API transformer that refuses calls to blocked chats without sending them. */
  readonly transformer: Transformer = async (prev, method, payload, signal) => {
    const chatId = payload && typeof payload === "object" && "chat_id" in payload ? String(payload.chat_id) : undefined;
    const known = chatId === undefined ? undefined : this.blocked.get(chatId);
    if (known !== undefined) return { ok: false, error_code: 403, description: known };
    const res = await prev(method, payload, signal);
    if (!res.ok && res.error_code === 403 && chatId !== undefined) this.blocked.set(chatId, res.description);
    return res;
  };

  /** Why calls to `chatId` are withheld, as a send outcome; `undefined` when they are not. */
  outcome(chatId: string): SendOutcome | undefined {
    const description = this.blocked.get(chatId);
    if (description === undefined) return undefined;
    return classifyRefusal(403, description);
  }

  /** Marks the chat as refusing us (e.g. `my_chat_member` says the bot was removed). */
  block(chatId: string, description: string): void {
    this.blocked.set(chatId, description);
  }

  /** The chat spoke to us again: calls may go through. */
  lift(chatId: string): void {
    this.blocked.delete(chatId);
  }
}
