/**
 * The language of what the bot posts on its own (digests, alerts): nobody asked, so there is no
 * user's locale to follow; the chat's `/settings language` decides, else the default.
 */
import type { ChatKey, SettingsStore } from "../store/types.js";
import { messages, type Catalog } from "./catalog.js";
import { chatLocale } from "./choose.js";
import { DEFAULT_LOCALE } from "./locale.js";
import type { Translator } from "./translator.js";

/** The translator for posts in `chat`; the default locale when its settings cannot be read. */
export async function postLanguage(settings: Pick<SettingsStore, "getSettings">, chat: ChatKey, catalog: Catalog = messages()): Promise<Translator> {
  try {
    const { language } = await settings.getSettings(chat);
    return catalog.translator(chatLocale({ platform: chat.platform, isPrivate: false, setting: language }, catalog.locales));
  } catch {
    return catalog.translator(DEFAULT_LOCALE);
  }
}

/** The footer's source label in `i18n`'s language, when it is one of the bot's own labels (in any language). */
export function sourceIn(source: string, i18n: Translator): string {
  const catalog = messages();
  const said = (k: string) => catalog.locales.some((l) => catalog.translator(l).t(k) === source);
  const key = ["source-demo", "source-live"].find(said);
  return key === undefined ? source : i18n.t(key);
}
