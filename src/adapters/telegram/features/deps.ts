/** What every feature composer works with, and the one way a feature answers a message. */
import type { Context } from "grammy";
import type { Message } from "grammy/types";
import type { Logger } from "pino";
import type { BotCore } from "../../../core/bot-core.js";
import type { ChatContext } from "../../../core/command.js";
import type { Reply } from "../../../core/reply.js";
import type { SettingsStore } from "../../../store/types.js";
import type { ActionStore } from "../action-store.js";
import type { AdminCheck } from "../admins.js";
import type { ChatGuard } from "../chat-guard.js";
import { sendReply, isOurMistake, thread } from "../deliver.js";
import { describeError } from "../errors.js";

export interface FeatureDeps {
  core: BotCore;
  store: SettingsStore;
  log: Logger;
  actions: ActionStore;
  admins: AdminCheck;
  guard: ChatGuard;
}

/** Said instead when Telegram refuses a rendered reply (a bug of ours, already logged). */
const FALLBACK = "Sorry, I could not show that answer here. It has been logged.";

/** The core's view of the chat an update came from (inline queries: the user's own chat). */
export function chatContext(ctx: Context, admins: AdminCheck): ChatContext {
  const from = ctx.from;
  const chat = ctx.chat;
  if (!chat) {
    const id = String(from?.id ?? 0);
    return { platform: "telegram", chatId: id, userId: id, isPrivate: true, isAdmin: async () => false };
  }
  const senderChat = ctx.msg?.sender_chat?.id;
  return {
    platform: "telegram",
    chatId: String(chat.id),
    userId: String(from?.id ?? chat.id),
    isPrivate: chat.type === "private",
    isAdmin: () => (from ? admins.isAdmin(chat, from.id, senderChat) : Promise.resolve(false)),
  };
}

/**
 * Sends `reply` as the answer to `message`. Never throws: a refusal of our own making gets a
 * one-line plain fallback (so the asker still gets exactly one answer); others are logged.
 */
export async function answerMessage(ctx: Context, deps: FeatureDeps, message: Message, reply: Reply): Promise<void> {
  const target = { chatId: message.chat.id, replyTo: message.message_id, ...thread(message) };
  try {
    await sendReply(ctx.api, deps.actions, target, reply);
  } catch (e) {
    if (!isOurMistake(e)) {
      deps.log.warn({ err: describeError(e), chatId: message.chat.id }, "telegram answer not delivered");
      return;
    }
    deps.log.error({ err: describeError(e), chatId: message.chat.id, title: reply.title }, "telegram refused a rendered reply");
    await ctx.api
      .sendMessage(message.chat.id, FALLBACK, { reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true } })
      .catch((err: unknown) => deps.log.warn({ err: describeError(err) }, "telegram fallback answer not delivered"));
  }
}
