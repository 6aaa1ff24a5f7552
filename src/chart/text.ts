/**
 * Strings that reach the picture come from strangers (token names, symbols): they are drawn
 * as text, never parsed as markup, and never allowed to reorder or hide what is around them.
 */

/**
 * C0/C1 controls, bidi embeddings/overrides/isolates, zero-width and invisible format
 * characters, the BOM, noncharacters U+FFFE/U+FFFF (not allowed in XML) and lone surrogates
 * (not encodable as UTF-8).
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Removes invisible and direction-changing characters and collapses whitespace to single spaces. */
export function cleanText(text: string): string {
  return text.replace(/[\t\n\r\v\f\u2028\u2029]+/g, " ").replace(UNSAFE, "").replace(/ {2,}/g, " ").trim();
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

/** Cleans, truncates to `max` code points and XML-escapes: the one way text enters the SVG. */
export function svgText(text: string, max: number): string {
  return escapeXml(truncate(cleanText(text), max));
}
