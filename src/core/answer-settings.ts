/**
 * The chat's settings as an answer reads them (its default chain for a symbol typed). Through
 * a database outage a chat this process has not read gets the defaults: a market answer needs
 * no database, and README promises commands are answered through an outage. What keeps or
 * changes the chat's state (settings, alerts, watchlists, feeds) reads the store itself and
 * says the database could not be reached.
 */
import { toSettings } from "../store/chat-settings.js";
import { isStoreUnreachable } from "../store/errors.js";
import type { ChatSettings } from "../store/types.js";
import type { CommandContext } from "./command.js";

export async function answerSettings(ctx: Pick<CommandContext, "store" | "chat" | "log">): Promise<ChatSettings> {
  try {
    return await ctx.store.getSettings(ctx.chat);
  } catch (e) {
    if (!isStoreUnreachable(e)) throw e;
    ctx.log.debug({ kind: e.kind, chatId: ctx.chat.chatId }, "chat settings unreadable: answering with the defaults");
    return toSettings(undefined);
  }
}
