/**
 * The PnL card: a call's picture, drawn as an SVG document of the chart's size and rasterised
 * like a chart. Every string comes from the caller in the chat's language, cleaned and cut
 * here, and escaped once: token symbols and member names are drawn as text, never markup.
 */
import { displayWidth } from "../i18n/width.js";
import { cleanText, escapeXml, truncate } from "./text.js";
import { CHART_LAYOUT as L, CHART_THEME as T } from "./theme.js";

/** What a PnL card shows. */
export interface PnlCardSpec {
  /** e.g. "PEPE · eth". */
  title: string;
  /** e.g. "called by ana". */
  subtitle: string;
  /** The multiple drawn large, e.g. "3.1×", and what it is ("high since the call"). */
  headline: string;
  headlineLabel: string;
  /** Whether the call is up now (colours the headline). */
  up: boolean;
  /** Label–value rows: price and market cap at the call, the high and when, now. */
  rows: readonly { label: string; value: string }[];
  /** Where the numbers come from, written on the picture so a forwarded one still says so. */
  source?: string;
}

/** Rows drawn at most. */
const MAX_ROWS = 7;

function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${x}" y="${y}" ${attrs}>${escapeXml(content)}</text>`;
}

const clean = (s: string, max: number): string => truncate(cleanText(s), max);

/** The rows' column: labels above their values, so a long value never runs into its label. */
const ROWS_X = 640;
const ROWS_WIDTH = L.notesRight - ROWS_X;
const ROWS_TOP = 172;
const ROW_STEP = 66;
/** The headline's column, left of the rows. */
const HEAD_X = L.left + 20;
const HEAD_WIDTH = ROWS_X - 24 - HEAD_X;

/** Emoji, drawn about an em wide by the emoji font. */
const EMOJI = /\p{Extended_Pictographic}/u;

/**
 * A string's width in ems, over-estimated: a wide character (two columns by `displayWidth`, or
 * an emoji) one em, any other 0.62, about Inter's widest digits at semibold. resvg cannot measure
 * text before drawing it, and an estimate too short would let a value run off the picture.
 */
function ems(s: string): number {
  let w = 0;
  for (const c of s) w += displayWidth(c) === 2 || EMOJI.test(c) ? 1 : 0.62;
  return w;
}

/**
 * `content` in at most `width` pixels: at `size`, or smaller down to `min`, and cut with "…"
 * past that. A price with many digits or a long phrase in Chinese shrinks rather than run into
 * its neighbour or off the picture.
 */
function fitted(content: string, width: number, size: number, min: number): { text: string; size: number } {
  const fits = Math.floor(width / Math.max(ems(content), 1));
  if (fits >= min) return { text: content, size: Math.min(size, fits) };
  let cut = Array.from(content);
  while (cut.length > 1 && ems(`${cut.join("")}…`) * min > width) cut = cut.slice(0, -1);
  return { text: `${cut.join("").trimEnd()}…`, size: min };
}

function fittedText(x: number, y: number, content: string, box: { width: number; size: number; min: number }, attrs: string): string {
  const fit = fitted(content, box.width, box.size, box.min);
  return text(x, y, fit.text, `font-size="${fit.size}" ${attrs}`);
}

/** The card as an SVG document of `CHART_LAYOUT.width` × `height` pixels. Pure and synchronous. */
export function renderPnlSvg(spec: PnlCardSpec): string {
  const wide = L.notesRight - HEAD_X;
  const parts = [
    fittedText(HEAD_X, 70, clean(spec.title, L.maxTitle), { width: wide, size: 34, min: 20 }, `font-weight="600" fill="${T.text}"`),
    fittedText(HEAD_X, 110, clean(spec.subtitle, L.maxSubtitle), { width: wide, size: L.fontSize.subtitle + 3, min: 14 }, `fill="${T.muted}"`),
    fittedText(HEAD_X, 290, clean(spec.headline, 16), { width: HEAD_WIDTH, size: 132, min: 48 }, `font-weight="700" fill="${spec.up ? T.up : T.down}"`),
    fittedText(HEAD_X + 4, 340, clean(spec.headlineLabel, 48), { width: HEAD_WIDTH, size: 22, min: 14 }, `fill="${T.muted}"`),
  ];
  spec.rows.slice(0, MAX_ROWS).forEach((row, i) => {
    const y = ROWS_TOP + i * ROW_STEP;
    parts.push(
      fittedText(ROWS_X, y, clean(row.label, 40), { width: ROWS_WIDTH, size: 18, min: 14 }, `fill="${T.muted}"`),
      fittedText(ROWS_X, y + 30, clean(row.value, 60), { width: ROWS_WIDTH, size: 26, min: 16 }, `font-weight="600" fill="${T.text}"`),
      `<rect x="${ROWS_X}" y="${y + 44}" width="${ROWS_WIDTH}" height="1" fill="${T.grid}"/>`,
    );
  });
  if (spec.source !== undefined) {
    parts.push(text(L.notesRight, L.height - 30, clean(spec.source, 40), `font-size="${L.fontSize.note}" font-weight="600" text-anchor="end" fill="${T.text}"`));
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="${L.height}" viewBox="0 0 ${L.width} ${L.height}" font-family="${L.fontFamily}">` +
    `<rect width="${L.width}" height="${L.height}" fill="${T.background}"/>` +
    `<rect x="${L.left}" y="150" width="4" height="200" fill="${spec.up ? T.up : T.down}"/>` +
    parts.join("") +
    `</svg>`
  );
}
