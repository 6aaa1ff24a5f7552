/**
 * Text hygiene for Telegram's HTML parse mode. Every string in a Reply may come from token
 * metadata written by strangers: it is cleaned of invisible and control characters, then
 * escaped, before it meets any tag of ours.
 */

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Bidi overrides and isolates can make a name read backwards next to our own text.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Removes control and bidi characters and lone surrogates; keeps newlines unless `oneLine`. */
export function cleanText(s: string, opts: { oneLine?: boolean } = {}): string {
  const cleaned = s.replace(/\r\n?/g, "\n").replace(CONTROL, "").replace(BIDI, "").replace(LONE_SURROGATE, "\ufffd");
  return opts.oneLine ? cleaned.replace(/[\n\t]+/g, " ") : cleaned;
}

/** Escapes `& < > "` for HTML text and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Whether `url` is an absolute http(s) URL safe to put in a link or a URL button. */
export function isHttpUrl(url: string): boolean {
  if (url.length > 2048 || /[\s\u0000-\u001f\u007f]/.test(url)) return false;
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * Cuts `s` to at most `max` UTF-16 code units (Telegram's unit), ending with "…" when cut,
 * never splitting a surrogate pair.
 */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = Math.max(0, max - 1);
  if (/[\ud800-\udbff]/.test(s.charAt(end - 1))) end -= 1;
  return `${s.slice(0, end)}…`;
}
