/**
 * The one list of characters that never reach a chat, a chart or a log line from strangers'
 * text: control characters, bidi marks and overrides, zero-width and other invisible format
 * characters, lone surrogates, and the Hangul fillers that render as a blank "name". The
 * core, both adapters and the chart renderer strip through this module, so a character added
 * here is gone everywhere at once.
 */

/**
 * Control characters (C0, DEL, C1; tab and line feed included), every format character
 * (bidi U+061C, U+200E, U+200F, U+202A–202E, U+2066–2069; zero-width U+200B–200D, U+2060,
 * U+FEFF; soft hyphen, tag characters), lone surrogates, the blank Hangul fillers, and the
 * noncharacters U+FFFE and U+FFFF (not allowed in XML, so not in a chart's SVG either).
 */
const LISTED = "[\\p{Cc}\\p{Cf}\\p{Cs}\\u115F\\u1160\\u3164\\uFFA0\\uFFFE\\uFFFF]";

/**
 * The format characters that are part of an emoji as people see it, kept in text: a joiner
 * between two pictographs (👨‍👩‍👧 is three joined by two), and the tag letters of a
 * subdivision flag (at most six, ended by the cancel tag) after its 🏴. Each is drawn as part of
 * the emoji, never as a gap in a word, and none can stand in a run of invisible characters.
 */
const IN_EMOJI = "(?<=[\\p{Extended_Pictographic}\\p{Emoji_Modifier}]\\uFE0F?)\\u200D(?=\\p{Extended_Pictographic})" +
  "|(?<=\\u{1F3F4}[\\u{E0030}-\\u{E007A}]{0,5})[\\u{E0030}-\\u{E007A}](?=[\\u{E0030}-\\u{E007A}]{0,5}\\u{E007F})" +
  "|(?<=\\u{1F3F4}[\\u{E0030}-\\u{E007A}]{1,6})\\u{E007F}";

// The look at the listed class first: the lookbehinds of IN_EMOJI at every character tripled the time.
const INVISIBLE = new RegExp(`(?=${LISTED})(?!${IN_EMOJI})${LISTED}`, "gu");

/** Every invisible character except tab and line feed, for text that keeps its lines. */
const INVISIBLE_KEEPING_LINES = new RegExp(`(?![\\t\\n])${INVISIBLE.source}`, "gu");

/** Line and paragraph breaks of every kind, which a one-line text turns into spaces. */
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

export interface StripOptions {
  /**
   * Keep line feeds and tabs (a paragraph of several lines); other breaks become `\n`.
   * Default false: every break becomes a space.
   */
  keepLines?: boolean;
}

const ONE_INVISIBLE = new RegExp(`^${LISTED}$`, "u");

/** Whether `ch` (one code point) is on the list (alone: a joiner inside an emoji is kept in text). */
export function isInvisible(ch: string): boolean {
  return ONE_INVISIBLE.test(ch);
}

/** `s` without any listed character; line breaks become spaces unless `keepLines`. */
export function stripInvisible(s: string, opts: StripOptions = {}): string {
  if (opts.keepLines === true) {
    return s.replace(/\r\n?|[\v\f\u0085\u2028\u2029]/g, "\n").replace(INVISIBLE_KEEPING_LINES, "");
  }
  return s.replace(LINE_BREAKS, " ").replace(INVISIBLE, "");
}

/** Longer links are not worth a button. */
const MAX_URL_LENGTH = 2048;

/**
 * The URL (normalised) when `s` is an absolute http(s) URL without credentials and at most
 * `max` characters, else `undefined`: rejects `javascript:`, `data:`, relative paths,
 * `https://a.com@evil.com`, and whitespace or control characters hidden inside.
 */
export function safeHttpUrl(s: string | undefined, max = MAX_URL_LENGTH): string | undefined {
  if (s === undefined) return undefined;
  const text = s.trim();
  if (text.length > max || !/^https?:\/\//i.test(text)) return undefined;
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
  return url.href.length > max ? undefined : url.href;
}
