/**
 * The bot's state behind an interface: SQLite today, PostgreSQL later. Every method is async
 * so that a networked implementation fits without changing its callers.
 */

export type Platform = "telegram" | "discord" | "console";

/** A chat: a Telegram chat id, a Discord channel id (guild in `guildId`), or the console. */
export interface ChatKey {
  platform: Platform;
  chatId: string;
}

export interface ChatSettings {
  /** Chain used when a command names none. */
  defaultChain?: string;
  /** Auto-detect pasted addresses; undefined = the platform's default (on in private chats). */
  autodetect?: boolean;
  /** IANA time zone for "daily HH:MM" schedules. Default "UTC". */
  timezone: string;
}

export interface SettingsStore {
  getSettings(chat: ChatKey): Promise<ChatSettings>;
  /** Merges `patch` into the chat's settings and returns the result. */
  updateSettings(chat: ChatKey, patch: Partial<ChatSettings>): Promise<ChatSettings>;
  /** The bot was removed: drop everything about the chat. */
  forgetChat(chat: ChatKey): Promise<void>;
  /** A Discord server the bot left: drop every channel of it. */
  forgetGuild(guildId: string): Promise<void>;
  /** Remember which Discord server a channel belongs to, for `forgetGuild`. */
  noteGuild(chat: ChatKey, guildId: string): Promise<void>;
  /** A Telegram group became a supergroup: move its state to the new id. */
  moveChat(from: ChatKey, toChatId: string): Promise<void>;
}

export interface Store extends SettingsStore {
  isOpen(): boolean;
  close(): Promise<void>;
}
