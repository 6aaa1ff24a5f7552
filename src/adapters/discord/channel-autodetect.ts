/**
 * Auto-detect in server channels (with the message-content intent): a message that may hold a
 * contract address or a link goes to the core, which answers with the token card where the
 * channel's auto-detect is on; the card replies to the message without pinging its author. A
 * fresher answer the core hands later is edited into that reply.
 *
 * A card takes its turn in the channel's pace, which it shares with the scheduled posts there (a
 * busy buy feed): discord.js refuses a channel post while the channel's bucket is spent
 * (`rejectOnRateLimit`, so that the poster paces its queue), and the card then waits for the
 * bucket's reset and goes. It waits at most one window of that pace (5 s), so a paste is
 * answered within the answer deadline and one window; a card whose turn lies further off, behind
 * a flood of posts, would land far below the paste it answers, and is dropped with a log line.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Message, MessageReplyOptions } from "discord.js";
import type { Logger } from "pino";
import type { BotCore } from "../../core/bot-core.js";
import type { ChatContext } from "../../core/command.js";
import type { Reply } from "../../core/reply.js";
import type { ActionStore } from "./buttons.js";
import { discordMember } from "./interactions.js";
import { editOptions, NO_MENTIONS, renderMessage, replyOptions } from "./message.js";
import { CHANNEL_MESSAGES } from "./route-pace.js";
import { classifySendError } from "./send.js";

// A pasted address is at least 26 characters (Bitcoin-style base58 is the shortest family);
// anything shorter without a link cannot be one, so the core is not asked about it.
const MAYBE_TOKEN = /[0-9A-Za-z]{26,}|https?:\/\//;

export interface ChannelAutodetectDeps {
  core: BotCore;
  actions: ActionStore;
  now: () => number;
  noteGuild(chatId: string, guildId: string): void;
  logger: Logger;
}

/**
 * Replies with `options` in the channel's turn: while discord.js refuses the post for the spent
 * bucket, waits as long as it says and asks again; when the next turn lies past `patienceMs` of
 * waiting in all, says when that is instead.
 */
async function replyInTurn(message: Message, options: MessageReplyOptions, patienceMs: number): Promise<{ sent: Message } | { nextTurnMs: number }> {
  let waited = 0;
  for (;;) {
    try {
      return { sent: await message.reply(options) };
    } catch (err) {
      const outcome = classifySendError(err);
      if (outcome.kind !== "retry") throw err;
      if (waited + outcome.afterMs > patienceMs) return { nextTurnMs: waited + outcome.afterMs };
      waited += outcome.afterMs;
      await delay(outcome.afterMs);
    }
  }
}

export function channelAutodetect(deps: ChannelAutodetectDeps): (message: Message) => Promise<void> {
  const render = (reply: Reply) => renderMessage(reply, { actions: deps.actions, now: deps.now });
  return async (message) => {
    if (message.author.bot || !message.inGuild() || !MAYBE_TOKEN.test(message.content)) return;
    deps.noteGuild(message.channelId, message.guildId);
    const chat: ChatContext = {
      platform: "discord",
      chatId: message.channelId,
      userId: message.author.id,
      isPrivate: false,
      isAdmin: async () => false,
      guildId: message.guildId,
      member: discordMember(message.author, message.member),
    };
    let shown!: (sent: Message | undefined) => void;
    const out = new Promise<Message | undefined>((resolve) => (shown = resolve));
    const onFresher = async (reply: Reply): Promise<void> => {
      const sent = await out;
      if (sent !== undefined) await sent.edit(editOptions(render(reply)));
    };
    try {
      // The core answers only where the channel's auto-detect is on.
      const reply = await deps.core.detect(chat, message.content, { onFresher });
      if (reply === null || reply.error !== undefined) return;
      const { embeds, components, files } = replyOptions(render(reply));
      const patienceMs = CHANNEL_MESSAGES.windowMs;
      const posted = await replyInTurn(message, { embeds, components, files, allowedMentions: { ...NO_MENTIONS, repliedUser: false } }, patienceMs);
      if ("sent" in posted) shown(posted.sent);
      else deps.logger.warn({ channel: message.channelId, message: message.id, nextTurnMs: posted.nextTurnMs, patienceMs }, "discord auto-detect card dropped: the channel's pace had no turn for it in time");
    } finally {
      shown(undefined);
    }
  };
}
