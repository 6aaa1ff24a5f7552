/**
 * Which language a reply is written in. A chat's `/settings language` wins for what everyone
 * sees; unset, a private Telegram chat follows the user's `language_code`, a group stays in
 * the default; on Discord a public reply follows the server's `guild_locale` and a reply only
 * the caller sees follows the caller's own `locale`.
 */
import type { Platform } from "../store/types.js";
import { DEFAULT_LOCALE, matchLocale } from "./locale.js";

export interface LanguageHints {
  platform: Platform;
  isPrivate: boolean;
  /** The chat's `/settings language`, if set. */
  setting?: string | undefined;
  /** The caller's language as the platform says it: Telegram `language_code`, Discord interaction `locale`, console `--lang`. */
  user?: string | undefined;
  /** The server's language: Discord `guild_locale`. */
  server?: string | undefined;
}

/**
 * What a chat reads without `/settings language`: the caller's app language in a private chat,
 * the server's in a Discord channel, the default in a Telegram group (it has no language of its own).
 */
export function unsetLanguageFollows(h: Pick<LanguageHints, "platform" | "isPrivate">): "app" | "server" | "default" {
  if (h.platform === "discord" && !h.isPrivate) return "server";
  return h.isPrivate ? "app" : "default";
}

/** The locale of a reply everyone in the chat sees (and of digests and alerts posted there). */
export function chatLocale(h: LanguageHints, locales: readonly string[]): string {
  // `chainpulse ask --lang` names the language of one answer outright.
  const asked = h.platform === "console" ? matchLocale(h.user, locales) : undefined;
  if (asked !== undefined) return asked;
  const set = h.setting === undefined ? undefined : locales.find((l) => l === h.setting);
  if (set !== undefined) return set;
  switch (unsetLanguageFollows(h)) {
    case "server":
      return matchLocale(h.server, locales) ?? DEFAULT_LOCALE;
    case "app":
      return matchLocale(h.user, locales) ?? DEFAULT_LOCALE;
    case "default":
      return DEFAULT_LOCALE;
  }
}

/** The locale of a reply only the caller sees: Discord's ephemeral answers follow the caller's own locale. */
export function callerLocale(h: LanguageHints, locales: readonly string[]): string {
  if (h.platform === "discord") return matchLocale(h.user, locales) ?? chatLocale(h, locales);
  return chatLocale(h, locales);
}
