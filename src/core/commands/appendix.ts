/** Project links from a token's `appendix` (JSON text whose keys vary): http(s) only, labelled by key. */
import { cleanText, safeHttpUrl } from "../format/index.js";
import type { Translator } from "../../i18n/index.js";
import type { Action } from "../reply.js";

/** Links shown at most. */
const MAX_LINKS = 5;

/**
 * Keyed by strangers' JSON keys: Maps, so a key named `constructor` is just an unknown label.
 * Brands keep their names in every language; the words are said in the chat's.
 */
const BRANDS: ReadonlyMap<string, string> = new Map([
  ["twitter", "X / Twitter"], ["x", "X / Twitter"], ["telegram", "Telegram"], ["discord", "Discord"],
  ["github", "GitHub"], ["medium", "Medium"], ["reddit", "Reddit"],
]);
const WORDS: ReadonlyMap<string, string> = new Map([["website", "link-website"], ["blog", "link-blog"], ["whitepaper", "link-whitepaper"]]);

function labelOf(key: string, i18n: Translator): string {
  const lower = key.toLowerCase();
  const word = WORDS.get(lower);
  if (word !== undefined) return i18n.t(word);
  return BRANDS.get(lower) ?? cleanText(key.replace(/[_-]+/g, " "), 20);
}

/** Link buttons from an appendix; anything that is not JSON or not an http(s) URL is left out. */
export function appendixLinks(appendix: string | undefined, i18n: Translator): Action[] {
  if (appendix === undefined || appendix.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(appendix);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  const out: Action[] = [];
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (out.length >= MAX_LINKS) break;
    if (typeof value !== "string") continue;
    const url = safeHttpUrl(value);
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    out.push({ kind: "url", label: labelOf(key, i18n), url });
  }
  return out;
}
