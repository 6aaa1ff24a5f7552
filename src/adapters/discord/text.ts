/**
 * Plain text from the core (and from strangers: token names, labels) made safe for Discord:
 * control characters dropped, markdown and mention syntax escaped, lengths kept in code points
 * as Discord counts them.
 */

// C0/C1 controls except tab and newline, plus bidi overrides that can reorder a line.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Drops characters that have no business in a chat message. */
export function stripControl(text: string): string {
  return text.replace(CONTROL, "");
}

// Every character Discord markdown gives a meaning to, `<` for mentions, timestamps and
// custom emoji, `@` so that `@everyone` does not even look like a mention, `:` for emoji codes.
const MARKDOWN = /[\\*_~`|<>[\]()#@:-]/g;

/** Escapes text shown in embed titles, descriptions and fields so it renders literally. */
export function escapeMarkdown(text: string): string {
  return stripControl(text).replace(MARKDOWN, (ch) => `\\${ch}`);
}

/** Text inside a ``` code block: only backticks can end it, so they become look-alikes. */
export function escapeCodeBlock(text: string): string {
  return stripControl(text).replace(/`/g, "ˋ");
}

/** Length as Discord counts it (code points). */
export function length(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * At most `max` code points, ending in "…" when cut. A cut never leaves a dangling escape
 * backslash, which would swallow the ellipsis.
 */
export function truncate(text: string, max: number): string {
  if (length(text) <= max) return text;
  if (max <= 0) return "";
  let cut = [...text].slice(0, max - 1).join("");
  const trailing = /\\+$/.exec(cut)?.[0].length ?? 0;
  if (trailing % 2 === 1) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** An http(s) URL, or undefined: `javascript:`, `data:` and garbage never become links. */
export function httpUrl(url: string | undefined, max = 2048): string | undefined {
  if (url === undefined || url.length > max || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
}
