/**
 * Strings that came from strangers: token names, symbols, holder aliases, links in a token's
 * metadata. Cleaning keeps them plain, visible, one-line text of bounded length, with every "@"
 * written "＠" so that no platform reads a mention in them (Telegram turns "@name" into a
 * mention that notifies, and has no setting against it), and every link and command Telegram
 * would find in them written so that it finds none; escaping for HTML or Markdown is the
 * adapters' job.
 */
import { stripInvisible } from "./clean.js";
import { DASH } from "./number.js";

/** Stacks of combining marks ("Zalgo" text) are cut to three, enough for real scripts. */
const MARK_STACK = /(\p{M}{3})\p{M}+/gu;
/** The full-width at sign: it reads as "@", and neither Telegram nor Discord makes a mention of it. */
const SAFE_AT = "＠";
/**
 * Telegram makes a link of any `name.tld` and any `scheme://` in a message, and a tappable
 * command of `/word`; a token called "claim at pepe-airdrop.com" or "/stopbuys all" would put a
 * working link or command in the group under the bot's name. Its servers split a host at "."
 * and at the ideographic, fullwidth and halfwidth full stops, so those are written as the one
 * dot leader "․" (U+2024) where a label of letters follows (of Latin letters after the three
 * full stops, which end Chinese sentences), and a link's or command's "/" as the fraction
 * slash "⁄" (U+2044): both read the same, are in the chart's font, and start nothing.
 */
const HOST_DOT = /(?<=[\p{L}\p{N}_-])(?:\.(?=\p{L}{2})|[\u3002\uFF0E\uFF61](?=[A-Za-z]{2}))/gu;
/** An IPv4 host, `1.2.3.4`, is a link's host without a letter in it. */
const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])/g;
const SAFE_DOT = "\u2024";
const SCHEME_SLASHES = /:\/\//g;
// As Telegram reads one: not after a word, a slash or an angle bracket (`</b>` is no command).
const COMMAND_SLASH = /(?<![\p{L}\p{N}_/<>])\/(?=[A-Za-z0-9_])/gu;
const SAFE_SLASH = "\u2044";
const ELLIPSIS = "…";
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * One line of plain visible text: control, bidi and zero-width characters removed, whitespace
 * collapsed, "@" written "＠", a link's dots and slashes and a command's slash written as
 * lookalikes that start nothing, cut at a character boundary to at most `maxLen` UTF-16 units with
 * `…`. Nothing left → `—`. `maxLen` default 64, at least 1.
 */
export function cleanText(s: string | undefined, maxLen = 64): string {
  if (s === undefined) return DASH;
  const text = stripInvisible(s)
    .replace(MARK_STACK, "$1")
    .replace(/\s+/gu, " ")
    .replace(/@/g, SAFE_AT)
    .replace(HOST_DOT, SAFE_DOT)
    .replace(IPV4, (ip) => ip.replaceAll(".", SAFE_DOT))
    .replace(SCHEME_SLASHES, `:${SAFE_SLASH}${SAFE_SLASH}`)
    .replace(COMMAND_SLASH, SAFE_SLASH)
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
