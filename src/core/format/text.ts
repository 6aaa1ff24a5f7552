/**
 * Strings that came from strangers: token names, symbols, holder aliases, links in a token's
 * metadata. Cleaning keeps them plain, visible, one-line text of bounded length, with every "@"
 * written "＠" so that no platform reads a mention in them (Telegram turns "@name" into a
 * mention that notifies, and has no setting against it); escaping for HTML or Markdown is the
 * adapters' job.
 */
import { stripInvisible } from "./clean.js";
import { DASH } from "./number.js";

/** Stacks of combining marks ("Zalgo" text) are cut to three, enough for real scripts. */
const MARK_STACK = /(\p{M}{3})\p{M}+/gu;
/** The full-width at sign: it reads as "@", and neither Telegram nor Discord makes a mention of it. */
const SAFE_AT = "＠";
const ELLIPSIS = "…";
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * One line of plain visible text: control, bidi and zero-width characters removed, whitespace
 * collapsed, "@" written "＠", cut at a character boundary to at most `maxLen` UTF-16 units with
 * `…`. Nothing left → `—`. `maxLen` default 64, at least 1.
 */
export function cleanText(s: string | undefined, maxLen = 64): string {
  if (s === undefined) return DASH;
  const text = stripInvisible(s)
    .replace(MARK_STACK, "$1")
    .replace(/\s+/gu, " ")
    .replace(/@/g, SAFE_AT)
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
