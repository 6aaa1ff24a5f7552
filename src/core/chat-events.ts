/**
 * What an adapter tells the core about a chat's life on its platform. The adapter only reports
 * the event; the core owns what it means for the chat's settings, subscriptions and alerts,
 * so no adapter reads or writes the store.
 */
import type { Logger } from "pino";
import type { ChatKey, SettingsStore } from "../store/types.js";

export interface ChatEvents {
  /** The bot was removed from the chat (or blocked in a private one): its state goes. Never rejects. */
  left(chat: ChatKey): Promise<void>;
  /** The chat has a new id (a Telegram group became a supergroup): its state follows. Never rejects. */
  moved(chat: ChatKey, toChatId: string): Promise<void>;
  /**
   * A Discord channel belongs to this server, so that leaving the server forgets it; false when
   * it could not be noted (ask again later). Never rejects.
   */
  inServer(chat: ChatKey, guildId: string): Promise<boolean>;
  /** The bot left a Discord server: every channel of it is forgotten. Never rejects. */
  leftServer(guildId: string): Promise<void>;
  /** The Discord server a channel was noted in, if any; rejects when the store cannot tell. */
  serverOf(chat: ChatKey): Promise<string | undefined>;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function chatEvents(store: SettingsStore, log: Logger): ChatEvents {
  return {
    async left(chat) {
      try {
        await store.forgetChat(chat);
        log.info({ platform: chat.platform, chatId: chat.chatId }, "bot removed from a chat: its settings and subscriptions are dropped");
      } catch (e) {
        log.error({ err: message(e), platform: chat.platform, chatId: chat.chatId }, "could not forget a chat");
      }
    },
    async moved(chat, toChatId) {
      try {
        await store.moveChat(chat, toChatId);
        log.info({ platform: chat.platform, from: chat.chatId, to: toChatId }, "chat has a new id: its state moved");
      } catch (e) {
        log.error({ err: message(e), platform: chat.platform, from: chat.chatId, to: toChatId }, "could not move a chat");
      }
    },
    async inServer(chat, guildId) {
      try {
        await store.noteGuild(chat, guildId);
        return true;
      } catch (e) {
        log.warn({ err: message(e), chatId: chat.chatId, guildId }, "could not note the server of a channel");
        return false;
      }
    },
    async leftServer(guildId) {
      try {
        await store.forgetGuild(guildId);
        log.info({ guild: guildId }, "removed from a Discord server: its settings and subscriptions are dropped");
      } catch (e) {
        log.error({ err: message(e), guild: guildId }, "could not forget a Discord server");
      }
    },
    serverOf(chat) {
      return store.guildOf(chat);
    },
  };
}
