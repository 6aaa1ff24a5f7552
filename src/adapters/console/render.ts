/**
 * Replies as terminal text: title, paragraphs, label–value lines, aligned tables, numbered
 * buttons and a footer that says where and when the data is from. Colours only when asked
 * (a TTY); plain text otherwise, so pipes and `ask` get clean lines.
 */
import { formatAsOf } from "../../core/format/index.js";
import type { Action, Block, Reply, Tone } from "../../core/reply.js";
import { DEFAULT_LOCALE, displayWidth, messages } from "../../i18n/index.js";

export interface RenderOptions {
  /** ANSI colours. Default false. */
  color?: boolean;
  /** Clock for "as of … (12s ago)", epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Time zone of the "as of" time. Default UTC. */
  timeZone?: string;
}

const ANSI = {
  reset: "\u001b[0m",
  bold: "\u001b[1m",
  dim: "\u001b[2m",
  red: "\u001b[31m",
  green: "\u001b[32m",
  yellow: "\u001b[33m",
  cyan: "\u001b[36m",
} as const;

const TONE_COLOR: Readonly<Record<Tone, string>> = { info: ANSI.cyan, good: ANSI.green, warn: ANSI.yellow, danger: ANSI.red };

/** Display width: code points, Chinese and other wide characters two columns each. */
const width = displayWidth;

function pad(s: string, w: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, w - width(s)));
  return align === "right" ? fill + s : s + fill;
}

/** Control characters never reach the terminal: data may carry escape sequences. */
function safe(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}

function renderBlock(block: Block, paint: (code: string, s: string) => string): string[] {
  switch (block.kind) {
    case "text":
      return safe(block.text).split("\n");
    case "fields": {
      const labelWidth = Math.max(0, ...block.fields.map((f) => width(safe(f.label))));
      return block.fields.map((f) => `${paint(ANSI.dim, pad(safe(f.label), labelWidth, "left"))}  ${safe(f.value)}`);
    }
    case "table": {
      const cells = [block.columns, ...block.rows].map((r) => r.map(safe));
      const widths = block.columns.map((_, i) => Math.max(...cells.map((r) => width(r[i] ?? ""))));
      const line = (r: string[]) =>
        r.map((c, i) => pad(c, widths[i] ?? 0, block.align?.[i] ?? "left")).join("  ").trimEnd();
      const [head, ...body] = cells;
      return [paint(ANSI.bold, line(head ?? [])), ...body.map(line)];
    }
  }
}

function actionLabel(a: Action): string {
  return a.kind === "url" ? `${safe(a.label)} → ${safe(a.url)}` : safe(a.label);
}

/** The reply's buttons, numbered in reading order from 1: what a typed number presses. */
export function numberedActions(reply: Reply): Action[] {
  return reply.actions.flat();
}

/** A reply as terminal text, buttons numbered `[1]`, `[2]`, … in the order of `numberedActions`. */
export function renderText(reply: Reply, opts: RenderOptions = {}): string {
  const color = opts.color === true;
  const paint = (code: string, s: string) => (color ? `${code}${s}${ANSI.reset}` : s);
  const now = (opts.now ?? Date.now)();
  const lines: string[] = [];
  const mark = reply.error === "user" ? "⚠ " : reply.error === "internal" ? "✖ " : "";
  lines.push(paint(ANSI.bold + TONE_COLOR[reply.tone], `${mark}${safe(reply.title)}`));
  if (reply.url !== undefined) lines.push(paint(ANSI.dim, safe(reply.url)));
  for (const block of reply.blocks) {
    lines.push("");
    lines.push(...renderBlock(block, paint));
  }
  const i18n = messages().translator(reply.locale ?? DEFAULT_LOCALE);
  if (reply.image !== undefined) {
    const size = Math.ceil(reply.image.png.length / 1024);
    lines.push("", i18n.t("console-image", { alt: safe(reply.image.alt), file: safe(reply.image.filename), kb: size }));
  }
  let n = 0;
  const rows = reply.actions
    .filter((row) => row.length > 0)
    .map((row) => row.map((a) => `${paint(ANSI.cyan, `[${++n}]`)} ${actionLabel(a)}`).join("  "));
  if (rows.length > 0) lines.push("", ...rows);
  const f = reply.footer;
  if (f !== undefined) {
    const parts = [safe(f.source)];
    if (f.asOf !== undefined) parts.push(formatAsOf(f.asOf, now, { timeZone: opts.timeZone, i18n }));
    if (f.stale === true) parts.push(i18n.t("console-stale"));
    lines.push("", paint(ANSI.dim, parts.join(" · ")));
  }
  return lines.join("\n");
}
