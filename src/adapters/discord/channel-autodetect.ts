/**
 * Auto-detect in server channels (with the message-content intent): a message that may hold a
 * contract address or a link goes to the core, which answers with the token card where the
 * channel's auto-detect is on; the card replies to the message without pinging its author. A
 * fresher answer the core hands later is edited into that reply.
 */
import type { Message } from "discord.js";
import type { BotCore } from "../../core/bot-core.js";
import type { ChatContext } from "../../core/command.js";
import type { Reply } from "../../core/reply.js";
import type { ActionStore } from "./buttons.js";
import { discordMember } from "./interactions.js";
import { editOptions, NO_MENTIONS, renderMessage, replyOptions } from "./message.js";

// A pasted address is at least 26 characters (Bitcoin-style base58 is the shortest family);
// anything shorter without a link cannot be one, so the core is not asked about it.
const MAYBE_TOKEN = /[0-9A-Za-z]{26,}|https?:\/\//;

export interface ChannelAutodetectDeps {
  core: BotCore;
  actions: ActionStore;
  now: () => number;
  noteGuild(chatId: string, guildId: string): void;
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
      shown(await message.reply({ embeds, components, files, allowedMentions: { ...NO_MENTIONS, repliedUser: false } }));
    } finally {
      shown(undefined);
    }
  };
}
