/** What every feature composer works with, and the one way a feature answers a message. */
import { type Context, GrammyError } from "grammy";
import type { Message, User } from "grammy/types";
import type { Logger } from "pino";
import type { BotCore } from "../../../core/bot-core.js";
import type { AttachedFile, ChatContext, Member } from "../../../core/command.js";
import type { Answering } from "../../../core/fresher.js";
import type { Reply } from "../../../core/reply.js";
import type { ActionStore } from "../action-store.js";
import type { AdminCheck } from "../admins.js";
import type { ChatGuard } from "../chat-guard.js";
import { editReply, sendReply, isOurMistake, type Sent, thread } from "../deliver.js";
import { describeError } from "../errors.js";
import { DEFAULT_LOCALE, messages } from "../../../i18n/index.js";

export interface FeatureDeps {
  core: BotCore;
  log: Logger;
  actions: ActionStore;
  admins: AdminCheck;
  guard: ChatGuard;
}

/** Said instead when Telegram refuses a rendered reply (a bug of ours, already logged). */

/**
 * Logs an answer Telegram did not take. A 429 here outlasted what auto-retry waits (or its
 * attempts): the answer is dropped rather than sent minutes late with stale numbers into a
 * chat still under the limit, and the log says so plainly.
 */
export function logUndelivered(log: Logger, e: unknown, fields: Record<string, unknown>, what: string): void {
  if (e instanceof GrammyError && e.error_code === 429) {
    log.warn({ ...fields, method: e.method, retryAfterSeconds: e.parameters.retry_after }, `${what} dropped: Telegram rate limit outlasted the retry window`);
  } else {
    log.warn({ ...fields, err: describeError(e) }, `${what} not delivered`);
  }
}

/** A message's sender as the core names members: posting as the group or a channel is anonymous. */
function memberOf(from: User | undefined, senderChat: Message["sender_chat"]): Member | undefined {
  if (senderChat !== undefined) return { name: senderChat.title ?? "", kind: "anonymous" };
  if (from === undefined) return undefined;
  const name = [from.first_name, from.last_name].filter((p) => p !== undefined && p !== "").join(" ");
  return { name, ...(from.username === undefined ? {} : { handle: from.username }), kind: from.is_bot ? "bot" : "person" };
}

/** Who wrote a message the bot answers, and whose message it replies to (only messages: a button or inline query names nobody). */
function messageMembers(message: Message | undefined): Pick<ChatContext, "member" | "repliedTo"> {
  if (message === undefined) return {};
  const member = memberOf(message.from, message.sender_chat);
  const replied = message.reply_to_message;
  const other = replied === undefined ? undefined : memberOf(replied.from, replied.sender_chat);
  return {
    ...(member === undefined ? {} : { member }),
    ...(other === undefined || replied?.from === undefined || replied.sender_chat !== undefined ? {} : { repliedTo: { ...other, userId: String(replied.from.id) } }),
  };
}

/** The file a command comes with: the photo, GIF (an animation) or video of the message it replies to; another kind of file is `other`. */
function attachedOf(message: Message | undefined): Pick<ChatContext, "attached"> {
  const of = (m: Message | undefined): AttachedFile | undefined => {
    if (m === undefined) return undefined;
    // An animation's message also carries it as a document: the animation says what it is.
    if (m.animation !== undefined) return { kind: "animation", fileId: m.animation.file_id };
    const photo = m.photo?.at(-1);
    if (photo !== undefined) return { kind: "photo", fileId: photo.file_id };
    if (m.video !== undefined) return { kind: "video", fileId: m.video.file_id };
    if (m.document !== undefined || m.sticker !== undefined || m.audio !== undefined || m.voice !== undefined || m.video_note !== undefined) return { kind: "other" };
    return undefined;
  };
  const attached = of(message?.reply_to_message);
  return attached === undefined ? {} : { attached };
}

/** The core's view of the chat an update came from (inline queries: the user's own chat). */
export function chatContext(ctx: Context, admins: AdminCheck): ChatContext {
  const from = ctx.from;
  const chat = ctx.chat;
  // The user's app language: a private chat speaks it unless /settings language says otherwise.
  const language = from?.language_code === undefined ? {} : { userLanguage: from.language_code };
  if (!chat) {
    const id = String(from?.id ?? 0);
    return { platform: "telegram", chatId: id, userId: id, isPrivate: true, isAdmin: async () => false, ...language };
  }
  const senderChat = ctx.msg?.sender_chat?.id;
  return {
    platform: "telegram",
    chatId: String(chat.id),
    // An anonymous admin or a linked channel writes as a chat: every one of them shares the one
    // `from` (GroupAnonymousBot, Telegram's channel bot), so the chat they write as is who they are.
    userId: String(senderChat ?? from?.id ?? chat.id),
    isPrivate: chat.type === "private",
    isAdmin: () => (from ? admins.isAdmin(chat, from.id, senderChat) : Promise.resolve(false)),
    botName: ctx.me.username,
    // With privacy mode on, a group shows the bot only commands, unless the bot is its admin.
    seesMessages: async () => chat.type === "private" || ctx.me.can_read_all_group_messages || admins.isAdmin(chat, ctx.me.id),
    ...language,
    ...messageMembers(ctx.message),
    ...attachedOf(ctx.message),
    ...(ctx.msg?.is_topic_message === true && ctx.msg.message_thread_id !== undefined ? { topic: String(ctx.msg.message_thread_id) } : {}),
  };
}

/** What a fresher answer replaces: the first message an answer put in the chat, when it was an answer and not a failure. */
function replaceable(reply: Reply, sent: readonly Sent[]): Message | undefined {
  const first = sent[0];
  return reply.error === undefined && first !== undefined && first !== true ? first : undefined;
}

/**
 * Asks the core through `ask` and puts what it sends where `show` puts it; a fresher answer the
 * core hands later (it asks again when an answer showed older data) replaces the message sent,
 * once that is out. Never throws.
 */
export async function answerAsked(
  ctx: Context,
  deps: FeatureDeps,
  ask: (answering: Answering) => Promise<Reply | null>,
  show: (reply: Reply) => Promise<Message | undefined>,
): Promise<void> {
  let shown!: (message: Message | undefined) => void;
  const out = new Promise<Message | undefined>((resolve) => (shown = resolve));
  const onFresher = async (reply: Reply): Promise<void> => {
    const message = await out;
    if (message !== undefined) await editReply(ctx.api, deps.actions, message, reply);
  };
  try {
    const reply = await ask({ onFresher });
    if (reply !== null) shown(await show(reply));
  } finally {
    shown(undefined);
  }
}

/**
 * Sends `reply` as the answer to `message`; returns the message a fresher answer may replace.
 * Never throws: a refusal of our own making gets a one-line plain fallback unless a part
 * already went out (so the asker gets exactly one answer); others are logged.
 */
export async function answerMessage(ctx: Context, deps: FeatureDeps, message: Message, reply: Reply): Promise<Message | undefined> {
  const target = { chatId: message.chat.id, replyTo: message.message_id, ...thread(message) };
  const sent: Sent[] = [];
  try {
    await sendReply(ctx.api, deps.actions, target, reply, sent);
    return replaceable(reply, sent);
  } catch (e) {
    if (!isOurMistake(e)) {
      logUndelivered(deps.log, e, { chatId: message.chat.id, partsDelivered: sent.length }, "telegram answer");
      return undefined;
    }
    deps.log.error({ err: describeError(e), chatId: message.chat.id, title: reply.title, partsDelivered: sent.length }, "telegram refused a rendered reply");
    // Once a part is in the chat, a fallback would be a second answer to one question.
    if (sent.length > 0) return undefined;
    await ctx.api
      .sendMessage(message.chat.id, messages().translator(reply.locale ?? DEFAULT_LOCALE).t("telegram-fallback"), { reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true } })
      .catch((err: unknown) => deps.log.warn({ err: describeError(err) }, "telegram fallback answer not delivered"));
    return undefined;
  }
}
