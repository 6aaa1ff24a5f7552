/**
 * Strings that reach the picture come from strangers (token names, symbols): they are drawn
 * as text, never parsed as markup, and never allowed to reorder or hide what is around them.
 */
import { stripInvisible } from "../core/format/index.js";

/** Removes the core's invisible characters and collapses whitespace to single spaces. */
export function cleanText(text: string): string {
  return stripInvisible(text).replace(/ {2,}/g, " ").trim();
}

/** Cuts `text` to at most `max` code points, ending with "…" when something was cut. */
export function truncate(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points.slice(0, Math.max(0, max - 1)).join("").trimEnd()}…`;
}

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Escapes the five XML special characters, for text content and attribute values alike. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}
