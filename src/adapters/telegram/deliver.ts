/**
 * Putting a rendered Reply into a chat: as an answer to a message, as a post (digests), or
 * in place of a message whose button was pressed. Long text is split (the parts after the
 * first do not reply again); a message with buttons stays one message, cut short if need be;
 * an image becomes a photo with the reply as its caption when it fits the caption limit, else
 * the text goes first and the picture follows it. A chat's media (a whale buy's photo, GIF or
 * video, by Telegram's file id) goes the same way, as sendPhoto, sendAnimation or sendVideo.
 *
 * A reply that is one text message may ride in the webhook response of the update it answers
 * (see webhook-reply.ts), which makes it exactly once; a photo (an upload) or several messages
 * go as API calls, since only one call rides and it would reach the chat after the others.
 * An answer that showed older data goes as an API call too: the core may hand a fresher one to
 * put in its place, which needs the message's id, and a ride answers with none.
 */
import { type Api, GrammyError, InputFile } from "grammy";
import type { Message } from "grammy/types";
import type { Reply, ReplyMedia } from "../../core/reply.js";
import type { ActionStore } from "./action-store.js";
import { isNotModified } from "./errors.js";
import { buildKeyboard } from "./keyboard.js";
import { CAPTION_LIMIT, renderPhotoReply, renderReplyHtml } from "./render.js";
import { mayRide } from "./webhook-reply.js";

/** What a send put in the chat: the Message, or `true` when it rode in the webhook response. */
export type Sent = Message | true;

/** Where a reply goes. */
export interface Target {
  chatId: number | string;
  /** Answer this message (`reply_parameters`); only the first part replies. */
  replyTo?: number;
  /** Forum topic of the asking message. */
  threadId?: number;
}

const NO_PREVIEW = { is_disabled: true } as const;

type MediaOptions = Parameters<Api["sendPhoto"]>[2] & Parameters<Api["sendAnimation"]>[2] & Parameters<Api["sendVideo"]>[2];

/** Sends a file Telegram already holds by its id, as the kind it is. */
function sendMedia(api: Api, chatId: number | string, media: ReplyMedia & { fileId: string }, options: MediaOptions): Promise<Message> {
  switch (media.kind) {
    case "photo":
      return api.sendPhoto(chatId, media.fileId, options);
    case "animation":
      return api.sendAnimation(chatId, media.fileId, options);
    case "video":
      return api.sendVideo(chatId, media.fileId, options);
  }
}

/**
 * Telegram's refusal of a file id it does not take from this bot (one of another bot, or one
 * it dropped): the post goes without the media rather than not at all.
 */
function fileRefused(e: unknown): boolean {
  return e instanceof GrammyError && e.error_code === 400 && /wrong file identifier|wrong remote file|file reference/i.test(e.description);
}

/** The reply's media Telegram can send by id, when it has no image of its own. */
function mediaOf(reply: Reply): (ReplyMedia & { fileId: string }) | undefined {
  const media = reply.media;
  return reply.image === undefined && media?.fileId !== undefined ? { ...media, fileId: media.fileId } : undefined;
}

/**
 * Sends `reply` to `target`; returns what was sent, also collected in `sent` as it goes (so a
 * caller can tell a failure after the first part). Throws the first API error.
 */
export async function sendReply(api: Api, actions: ActionStore, target: Target, reply: Reply, sent: Sent[] = []): Promise<Sent[]> {
  const keyboard = buildKeyboard(reply.actions, actions);
  const common = { parse_mode: "HTML" as const, ...(target.threadId === undefined ? {} : { message_thread_id: target.threadId }) };
  const answering =
    target.replyTo === undefined ? {} : { reply_parameters: { message_id: target.replyTo, allow_sending_without_reply: true } };
  const media = mediaOf(reply);
  const photo = reply.image === undefined && media === undefined ? undefined : renderPhotoReply(reply);
  if (reply.image && photo?.rest.length === 0) {
    const file = new InputFile(reply.image.png, reply.image.filename);
    sent.push(await api.sendPhoto(target.chatId, file, { ...common, ...answering, caption: photo.caption, ...(keyboard ? { reply_markup: keyboard } : {}) }));
    return sent;
  }
  if (media && photo?.rest.length === 0) {
    try {
      sent.push(await sendMedia(api, target.chatId, media, { ...common, ...answering, caption: photo.caption, ...(keyboard ? { reply_markup: keyboard } : {}) }));
    } catch (e) {
      if (!fileRefused(e)) throw e;
      return sendReply(api, actions, target, { ...reply, media: undefined }, sent);
    }
    return sent;
  }
  // Text over the caption limit goes first, whole and with its buttons; the picture follows it.
  const [first = "", ...more] = renderReplyHtml(reply, { mode: keyboard ? "trim" : "split" });
  const send = () => api.sendMessage(target.chatId, first, { ...common, ...answering, link_preview_options: NO_PREVIEW, ...(keyboard ? { reply_markup: keyboard } : {}) });
  sent.push(await (more.length === 0 && reply.image === undefined && media === undefined && reply.footer?.stale !== true ? mayRide(send) : send()));
  for (const part of more) sent.push(await api.sendMessage(target.chatId, part, { ...common, link_preview_options: NO_PREVIEW }));
  if (reply.image) sent.push(await api.sendPhoto(target.chatId, new InputFile(reply.image.png, reply.image.filename), common));
  else if (media) {
    // The text, the post itself, is in the chat already: a refused file only leaves it without the picture.
    try {
      sent.push(await sendMedia(api, target.chatId, media, common));
    } catch (e) {
      if (!fileRefused(e)) throw e;
    }
  }
  return sent;
}

/** Whether `reply`'s picture goes as a photo with the reply as its caption (else it follows the text). */
function captioned(reply: Reply): boolean {
  return reply.image !== undefined && renderPhotoReply(reply).rest.length === 0;
}

/**
 * Replaces `message` (the one whose button was pressed) with `reply`. Identical content
 * counts as success. When the kinds differ (text ↔ photo) the reply is posted as an answer
 * to the message instead.
 */
export async function editReply(api: Api, actions: ActionStore, message: Message, reply: Reply): Promise<void> {
  const chatId = message.chat.id;
  const keyboard = buildKeyboard(reply.actions, actions);
  const markup = keyboard ? { reply_markup: keyboard } : {};
  try {
    if (message.photo && reply.image) {
      const [caption = ""] = renderReplyHtml(reply, { mode: "trim", firstLimit: CAPTION_LIMIT });
      const media = new InputFile(reply.image.png, reply.image.filename);
      await api.editMessageMedia(chatId, message.message_id, { type: "photo", media, caption, parse_mode: "HTML" }, markup);
    } else if (!message.photo && !captioned(reply)) {
      // A text whose picture follows it (too long for a caption) is edited as text; the picture below stays.
      const [text = ""] = renderReplyHtml(reply, { mode: "trim" });
      await api.editMessageText(chatId, message.message_id, text, { parse_mode: "HTML", link_preview_options: NO_PREVIEW, ...markup });
    } else {
      await sendReply(api, actions, { chatId, replyTo: message.message_id, ...thread(message) }, reply);
    }
  } catch (e) {
    if (!isNotModified(e)) throw e;
  }
}

/** The forum topic a message sits in, for follow-up messages. */
export function thread(message: Message): { threadId?: number } {
  return message.is_topic_message && message.message_thread_id !== undefined ? { threadId: message.message_thread_id } : {};
}

/** Whether a refusal means our message itself was wrong (markup, length), not the chat. */
export function isOurMistake(err: unknown): boolean {
  return (
    err instanceof GrammyError &&
    err.error_code === 400 &&
    err.parameters.migrate_to_chat_id === undefined &&
    !/chat not found|not enough rights|group chat was/i.test(err.description)
  );
}
