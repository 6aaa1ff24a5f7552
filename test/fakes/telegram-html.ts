/**
 * Telegram's HTML parse mode as the fake Bot API checks it: the allowed tags and attributes,
 * well-formed nesting, entity escapes, link schemes, and the visible text whose UTF-16
 * length Telegram counts against its 4096 / 1024 limits.
 *
 * It follows the Bot API documentation ("formatting options", HTML style) and is stricter
 * than Telegram where Telegram is lenient but the documentation asks for escapes: a bare
 * `>` or a `&` that starts no entity is refused.
 */

/** Tags the Bot API accepts in HTML parse mode. */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "a",
  "code",
  "pre",
  "blockquote",
  "tg-spoiler",
  "span",
  "tg-emoji",
]);

export type ParsedHtml = { ok: true; text: string } | { ok: false; description: string };

const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"' };
const ENTITY = /^&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|lt|gt|amp|quot);/;
const LINK_SCHEME = /^(https?|tg):/i;

function byteOffset(s: string, index: number): number {
  return Buffer.byteLength(s.slice(0, index), "utf8");
}

function decodeEntity(body: string): string {
  if (body.startsWith("#x")) return String.fromCodePoint(Math.min(parseInt(body.slice(2), 16), 0x10ffff));
  if (body.startsWith("#")) return String.fromCodePoint(Math.min(parseInt(body.slice(1), 10), 0x10ffff));
  return NAMED_ENTITIES[body] ?? "";
}

/** Decodes entities in text or an attribute value; `undefined` when a `&` starts none. */
function decodeEntities(s: string): string | undefined {
  let out = "";
  for (let i = 0; i < s.length; ) {
    if (s[i] !== "&") {
      out += s[i];
      i += 1;
      continue;
    }
    const m = ENTITY.exec(s.slice(i, i + 12));
    if (!m?.[1]) return undefined;
    out += decodeEntity(m[1]);
    i += m[0].length;
  }
  return out;
}

function parseAttributes(raw: string): Map<string, string> | undefined {
  const attrs = new Map<string, string>();
  const re = /\s*([a-zA-Z][a-zA-Z0-9_-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y;
  let i = 0;
  while (i < raw.length) {
    if (/^\s*$/.test(raw.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(raw);
    if (!m?.[1]) return undefined;
    const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
    if (value === undefined) return undefined;
    attrs.set(m[1].toLowerCase(), value);
    i = re.lastIndex;
  }
  return attrs;
}

/** Why a start tag with these attributes is refused, or `undefined` when it is fine. */
function checkStartTag(name: string, attrs: Map<string, string>, parent: string | undefined): string | undefined {
  if (!ALLOWED_TAGS.has(name)) return `Unsupported start tag "${name}"`;
  if (parent === "code" || (parent === "pre" && name !== "code")) return `Entities can't be nested inside "${parent}"`;
  const allowed: Record<string, readonly string[]> = { a: ["href"], span: ["class"], "tg-emoji": ["emoji-id"], code: ["class"], blockquote: ["expandable"] };
  for (const key of attrs.keys()) {
    if (!(allowed[name] ?? []).includes(key)) return `Unsupported attribute "${key}" in tag "${name}"`;
  }
  if (name === "a") {
    const href = attrs.get("href");
    if (href === undefined || href === "") return `Tag "a" must have a href attribute`;
    if (!LINK_SCHEME.test(href)) return `Unsupported URL protocol in "a" tag`;
  }
  if (name === "span" && attrs.get("class") !== "tg-spoiler") return `Tag "span" must have class "tg-spoiler"`;
  if (name === "tg-emoji" && !attrs.get("emoji-id")) return `Tag "tg-emoji" must have an emoji-id attribute`;
  if (name === "code" && attrs.has("class") && (parent !== "pre" || !attrs.get("class")?.startsWith("language-"))) {
    return `Tag "code" may only have class "language-…" inside "pre"`;
  }
  return undefined;
}

/**
 * Parses `html` the way the Bot API does for `parse_mode: "HTML"`. On success returns the
 * visible text (tags removed, entities decoded); else the description Telegram answers
 * with, starting "Bad Request: can't parse entities:".
 */
export function parseTelegramHtml(html: string): ParsedHtml {
  const fail = (why: string, index: number): ParsedHtml => ({
    ok: false,
    description: `Bad Request: can't parse entities: ${why} at byte offset ${byteOffset(html, index)}`,
  });
  const stack: string[] = [];
  let text = "";
  let i = 0;
  while (i < html.length) {
    const c = html[i];
    if (c === "<") {
      const end = html.indexOf(">", i);
      if (end < 0) return fail("Unclosed start tag", i);
      const raw = html.slice(i + 1, end);
      if (raw.startsWith("/")) {
        const name = raw.slice(1).trim().toLowerCase();
        const open = stack.pop();
        if (open === undefined) return fail(`Unexpected end tag "${name}"`, i);
        if (open !== name) return fail(`Unmatched end tag, expected "</${open}>", found "</${name}>"`, i);
      } else {
        const m = /^([a-zA-Z][a-zA-Z0-9-]*)([\s\S]*)$/.exec(raw);
        if (!m?.[1]) return fail(`Unsupported start tag "${raw.slice(0, 20)}"`, i);
        const name = m[1].toLowerCase();
        const attrs = parseAttributes(m[2] ?? "");
        if (!attrs) return fail(`Can't parse attributes of tag "${name}"`, i);
        const refused = checkStartTag(name, attrs, stack[stack.length - 1]);
        if (refused) return fail(refused, i);
        stack.push(name);
      }
      i = end + 1;
    } else if (c === "&") {
      const m = ENTITY.exec(html.slice(i, i + 12));
      if (!m?.[1]) return fail("Character entity expected after '&'", i);
      text += decodeEntity(m[1]);
      i += m[0].length;
    } else if (c === ">") {
      return fail("Unexpected '>': escape it as &gt;", i);
    } else {
      text += c;
      i += 1;
    }
  }
  const unclosed = stack.pop();
  if (unclosed !== undefined) return fail(`Can't find end tag corresponding to start tag "${unclosed}"`, html.length);
  return { ok: true, text };
}

