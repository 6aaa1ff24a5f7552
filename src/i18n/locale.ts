/**
 * Locale names are the message files' names (`en`, `zh`). A platform's language tag
 * (`zh-hans`, `zh-CN`, `en-US`, `pt_BR`) maps to the file of its primary language, so
 * Traditional and Simplified Chinese both read `zh` and a third language is one new file.
 */

/** The language every message exists in, and the answer when nothing else applies. */
export const DEFAULT_LOCALE = "en";

/** The primary language of a tag, lowercased: `zh-Hant-TW` → `zh`. Empty for an empty tag. */
export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

/** The locale among `locales` that a platform's language tag asks for, if any. */
export function matchLocale(tag: string | undefined, locales: readonly string[]): string | undefined {
  if (tag === undefined) return undefined;
  const wanted = primaryLanguage(tag);
  return wanted === "" ? undefined : locales.find((l) => l === wanted);
}
