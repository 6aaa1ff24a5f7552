/**
 * Plain text from the core (and from strangers: token names, labels) made safe for Discord:
 * the core's invisible characters dropped, markdown and mention syntax escaped, lengths kept
 * in code points as Discord counts them.
 */
import { stripInvisible } from "../../core/format/index.js";

/** Drops characters that have no business in a chat message (the core's one list); keeps lines. */
export function stripControl(text: string): string {
  return stripInvisible(text, { keepLines: true });
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
