/** Project links from a token's `appendix` (JSON text whose keys vary): http(s) only, labelled by key. */
import { cleanText, safeHttpUrl } from "../format/index.js";
import type { Action } from "../reply.js";

/** Links shown at most. */
const MAX_LINKS = 5;

/** Keyed by strangers' JSON keys: a Map, so a key named `constructor` is just an unknown label. */
const LABELS: ReadonlyMap<string, string> = new Map([
  ["website", "Website"], ["twitter", "X / Twitter"], ["x", "X / Twitter"], ["telegram", "Telegram"], ["discord", "Discord"],
  ["github", "GitHub"], ["medium", "Medium"], ["blog", "Blog"], ["whitepaper", "Whitepaper"], ["reddit", "Reddit"],
]);

/** Link buttons from an appendix; anything that is not JSON or not an http(s) URL is left out. */
export function appendixLinks(appendix: string | undefined): Action[] {
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
    const label = LABELS.get(key.toLowerCase()) ?? cleanText(key.replace(/[_-]+/g, " "), 20);
    out.push({ kind: "url", label, url });
  }
  return out;
}
