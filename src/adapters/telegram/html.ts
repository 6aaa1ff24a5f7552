/**
 * Text hygiene for Telegram's HTML parse mode. Every string in a Reply may come from token
 * metadata written by strangers: it is cleaned of invisible and control characters, then
 * escaped, before it meets any tag of ours.
 */
import { stripInvisible } from "../../core/format/index.js";

/** Removes the core's list of invisible characters; keeps newlines unless `oneLine`. */
export function cleanText(s: string, opts: { oneLine?: boolean } = {}): string {
  return opts.oneLine === true ? stripInvisible(s) : stripInvisible(s, { keepLines: true });
}

/** Escapes `& < > "` for HTML text and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
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
