/**
 * Strings that came from strangers: token names, symbols, holder aliases, links in a token's
 * metadata. Cleaning keeps them plain, visible, one-line text of bounded length; escaping for
 * HTML or Markdown and disabling mentions is the adapters' job.
 */
import { DASH } from "./number.js";

/** Line and paragraph breaks of every kind become spaces before the rest is stripped. */
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/**
 * Control characters (null bytes included), format characters (bidi overrides and isolates
 * U+202A–202E and U+2066–2069, zero-width U+200B–200F, U+2060, U+FEFF, soft hyphen, tags),
 * lone surrogates, and the Hangul fillers that render as blank "names".
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\u115F\u1160\u3164\uFFA0]/gu;
/** Stacks of combining marks ("Zalgo" text) are cut to three, enough for real scripts. */
const MARK_STACK = /(\p{M}{3})\p{M}+/gu;
const ELLIPSIS = "…";
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * One line of plain visible text: control, bidi and zero-width characters removed, whitespace
 * collapsed, cut at a character boundary to at most `maxLen` UTF-16 units with `…`. Nothing
 * left → `—`. `maxLen` default 64, at least 1.
 */
export function cleanText(s: string | undefined, maxLen = 64): string {
  if (s === undefined) return DASH;
  const text = s
    .replace(LINE_BREAKS, " ")
    .replace(INVISIBLE, "")
    .replace(MARK_STACK, "$1")
    .replace(/\s+/gu, " ")
    .trim();
  if (text === "") return DASH;
  return truncate(text, Math.max(1, Math.floor(maxLen)));
}

function truncate(text: string, maxLen: number): string {
  if (text.length <= maxLen) return text;
  let out = "";
  for (const { segment } of segmenter.segment(text)) {
    if (out.length + segment.length + ELLIPSIS.length > maxLen) break;
    out += segment;
  }
  return `${out.trimEnd()}${ELLIPSIS}`;
}

/** Longer links are not worth a button. */
const MAX_URL_LENGTH = 2048;

/**
 * The URL (normalised) when `s` is an absolute http(s) URL without credentials, else
 * `undefined`: rejects `javascript:`, `data:`, relative paths, `https://a.com@evil.com`, and
 * whitespace or control characters hidden inside.
 */
export function safeHttpUrl(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const text = s.trim();
  if (text.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(text)) return undefined;
  // The URL parser silently drops tabs and newlines (`java\nscript:`); refuse them instead.
  if (/[\s\p{Cc}\p{Cf}]/u.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "" || url.hostname === "") return undefined;
  return url.href;
}

/**
 * An address shortened for display: `0x1234…abcd` (EVM), `So11…1112` (others); short strings
 * as they are (cleaned); empty → `—`.
 */
export function shortAddress(addr: string | undefined): string {
  const a = cleanText(addr, 128);
  const chars = Array.from(a);
  if (chars.length <= 13) return a;
  const head = a.startsWith("0x") ? 6 : 4;
  return `${chars.slice(0, head).join("")}…${chars.slice(-4).join("")}`;
}
