/**
 * Reply → Telegram HTML. The title is bold (a link when its URL is http(s)), fields are
 * `label: value` lines, tables sit in `<pre>` with aligned columns, the footer is italic with
 * the source, the "as of" time and a stale note. Every string is cleaned and escaped here.
 *
 * Output is cut into parts that each stay within Telegram's limit as Telegram counts it
 * (visible UTF-16 code units after entity parsing), never inside a tag: every part is
 * well-formed on its own.
 */
import type { Block, Footer, Reply, Tone } from "../../core/reply.js";
import { safeHttpUrl } from "../../core/format/index.js";
import { cleanText, escapeHtml, truncate } from "./html.js";
import { DEFAULT_LOCALE, displayWidth, messages, type Translator } from "../../i18n/index.js";

/** Visible characters in one message. */
export const MESSAGE_LIMIT = 4096;
/** Visible characters in a photo caption. */
export const CAPTION_LIMIT = 1024;

// Caps on single strings keep every rendered piece well under the caption limit, so that
// packing pieces into parts never has to cut inside one.
const TITLE_MAX = 256;
const LABEL_MAX = 64;
const VALUE_MAX = 900;
const PARAGRAPH_PIECE = 900;
const CELL_MAX = 32;
const TABLE_PIECE = 900;
const FOOTER_MAX = 300;

const TONE_MARK: Record<Tone, string> = { info: "", good: "🟢 ", warn: "⚠️ ", danger: "⛔ " };


/** A well-formed piece of HTML and the length Telegram will count for it. */
interface Piece {
  html: string;
  length: number;
  /** Starts a new block: a blank line before it. */
  gap: boolean;
}

function piece(plain: string, wrap: (escaped: string) => string, gap: boolean): Piece {
  return { html: wrap(escapeHtml(plain)), length: plain.length, gap };
}

function splitParagraph(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const cut = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    let at = cut > max / 2 ? cut : max;
    if (/[\ud800-\udbff]/.test(rest.charAt(at - 1))) at -= 1;
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.trim() !== "") out.push(rest);
  return out;
}

/** Lines of a monospaced table: header, then rows, columns padded to their widest cell. */
export function tableLines(columns: readonly string[], rows: readonly (readonly string[])[], align: readonly ("left" | "right")[] = []): string[] {
  const cell = (s: string | undefined): string => truncate(cleanText(s ?? "", { oneLine: true }), CELL_MAX);
  const header = columns.map(cell);
  const body = rows.map((r) => columns.map((_, i) => cell(r[i])));
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...body.map((r) => displayWidth(r[i] ?? ""))));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - displayWidth(c));
        return align[i] === "right" ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd();
  return [line(header), ...body.map(line)];
}

function tablePieces(block: Extract<Block, { kind: "table" }>): Piece[] {
  const [header = "", ...rows] = tableLines(block.columns, block.rows, block.align);
  const pieces: Piece[] = [];
  let lines: string[] = [header];
  const flush = (): void => {
    pieces.push(piece(lines.join("\n"), (e) => `<pre>${e}</pre>`, pieces.length === 0));
    lines = [header];
  };
  for (const row of rows) {
    if ([...lines, row].join("\n").length > TABLE_PIECE) flush();
    lines.push(row);
  }
  if (lines.length > 1 || pieces.length === 0) flush();
  return pieces;
}

function blockPieces(block: Block, i18n: Translator): Piece[] {
  switch (block.kind) {
    case "text":
      return splitParagraph(cleanText(block.text), PARAGRAPH_PIECE).map((t, i) => piece(t, (e) => e, i === 0));
    case "fields":
      return block.fields.map((f, i) => {
        const label = truncate(cleanText(f.label, { oneLine: true }), LABEL_MAX);
        const value = truncate(cleanText(f.value, { oneLine: true }), VALUE_MAX);
        // "Price: $1.23" in English, "价格：$1.23" in Chinese.
        const sep = i18n.t("telegram-field-sep");
        return { html: `${escapeHtml(label)}${escapeHtml(sep)}<b>${escapeHtml(value)}</b>`, length: label.length + sep.length + value.length, gap: i === 0 };
      });
    case "table":
      return tablePieces(block);
  }
}

function clock(epochMs: number, i18n: Translator): string {
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) return i18n.t("telegram-unknown-time");
  return `${d.toISOString().slice(11, 16)} UTC`;
}

function footerPiece(footer: Footer, i18n: Translator): Piece {
  const bits = [cleanText(footer.source, { oneLine: true })];
  if (footer.asOf !== undefined) bits.push(i18n.t("telegram-as-of", { time: clock(footer.asOf, i18n) }));
  if (footer.stale) bits.push(i18n.t("telegram-stale"));
  return piece(truncate(bits.filter((b) => b !== "").join(" · "), FOOTER_MAX), (e) => `<i>${e}</i>`, true);
}

function titlePiece(reply: Reply): Piece {
  const title = truncate(cleanText(reply.title, { oneLine: true }).trim(), TITLE_MAX) || "(untitled)";
  const mark = reply.titleMarked === true ? "" : TONE_MARK[reply.tone];
  const link = safeHttpUrl(reply.url);
  const inner = link ? `<a href="${escapeHtml(link)}">${escapeHtml(title)}</a>` : escapeHtml(title);
  return { html: `${mark}<b>${inner}</b>`, length: mark.length + title.length, gap: false };
}

function sep(p: Piece): number {
  return p.gap ? 2 : 1;
}

/** Packs pieces into parts; the first part may have a smaller limit (a caption). */
function pack(pieces: readonly Piece[], firstLimit: number, limit: number): Piece[][] {
  const parts: Piece[][] = [];
  let current: Piece[] = [];
  let used = 0;
  for (const p of pieces) {
    const max = parts.length === 0 ? firstLimit : limit;
    const add = current.length === 0 ? p.length : sep(p) + p.length;
    if (current.length > 0 && used + add > max) {
      parts.push(current);
      current = [];
      used = 0;
    }
    used += current.length === 0 ? p.length : sep(p) + p.length;
    current.push(p);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function join(pieces: readonly Piece[]): string {
  return pieces.map((p, i) => (i === 0 ? "" : p.gap ? "\n\n" : "\n") + p.html).join("");
}

function length(pieces: readonly Piece[]): number {
  return pieces.reduce((n, p, i) => n + p.length + (i === 0 ? 0 : sep(p)), 0);
}

export interface RenderOptions {
  /**
   * "split" (default): as many parts as needed. "trim": exactly one part, cut short with a
   * note and keeping the footer (for messages with buttons, and for edits).
   */
  mode?: "split" | "trim";
  /** Limit of the first part; `CAPTION_LIMIT` when it is a photo caption. Default `MESSAGE_LIMIT`. */
  firstLimit?: number;
}

/**
 * Renders a Reply as Telegram HTML parts, each within the limit (the first within
 * `firstLimit`, the others within 4096 visible characters).
 */
export function renderReplyHtml(reply: Reply, opts: RenderOptions = {}): string[] {
  const firstLimit = opts.firstLimit ?? MESSAGE_LIMIT;
  const i18n = messages().translator(reply.locale ?? DEFAULT_LOCALE);
  const body = [titlePiece(reply), ...reply.blocks.flatMap((b) => blockPieces(b, i18n))];
  const footer = reply.footer ? [footerPiece(reply.footer, i18n)] : [];
  const all = [...body, ...footer];
  if (opts.mode !== "trim" || length(all) <= firstLimit) {
    return pack(all, firstLimit, MESSAGE_LIMIT).map(join);
  }
  const note = piece(i18n.t("telegram-cut-short"), (e) => `<i>${e}</i>`, true);
  const room = firstLimit - 2 - length([note, ...footer]);
  const kept = pack(body, room, room)[0] ?? [];
  return [join([...kept, note, ...footer])];
}

/** A photo reply: the caption (≤ 1024) and the parts that follow it as messages. */
export function renderPhotoReply(reply: Reply): { caption: string; rest: string[] } {
  const [caption = "", ...rest] = renderReplyHtml(reply, { firstLimit: CAPTION_LIMIT });
  return { caption, rest };
}
