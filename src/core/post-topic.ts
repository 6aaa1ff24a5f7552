/**
 * Where in a chat the bot's own posts go. In a Telegram forum every message is in a topic; a
 * digest, an alert, a launch post or a buy set up from inside one belongs there, not in General,
 * so each setup records its topic as the chat's (`ChatSettings.postTopic`) and every post the
 * chat gets from then on goes there. One topic a chat: the latest setup's.
 */
import type { CommandContext } from "./command.js";

export async function keepPostTopic(ctx: Pick<CommandContext, "store" | "chat">): Promise<void> {
  const { postTopic } = await ctx.store.getSettings(ctx.chat);
  if (postTopic !== ctx.chat.topic) await ctx.store.updateSettings(ctx.chat, { postTopic: ctx.chat.topic });
}
