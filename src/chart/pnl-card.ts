/**
 * The PnL card: a call's picture, drawn as an SVG document of the chart's size and rasterised
 * like a chart. Every string comes from the caller in the chat's language, cleaned and cut
 * here, and escaped once: token symbols and member names are drawn as text, never markup.
 */
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

/** The card as an SVG document of `CHART_LAYOUT.width` × `height` pixels. Pure and synchronous. */
export function renderPnlSvg(spec: PnlCardSpec): string {
  const parts = [
    text(L.left + 20, 70, clean(spec.title, L.maxTitle), `font-size="34" font-weight="600" fill="${T.text}"`),
    text(L.left + 20, 110, clean(spec.subtitle, L.maxSubtitle), `font-size="${L.fontSize.subtitle + 3}" fill="${T.muted}"`),
    text(L.left + 20, 290, clean(spec.headline, 16), `font-size="132" font-weight="700" fill="${spec.up ? T.up : T.down}"`),
    text(L.left + 24, 340, clean(spec.headlineLabel, 48), `font-size="22" fill="${T.muted}"`),
  ];
  spec.rows.slice(0, MAX_ROWS).forEach((row, i) => {
    const y = 190 + i * 58;
    parts.push(
      text(640, y, clean(row.label, 28), `font-size="20" fill="${T.muted}"`),
      text(L.notesRight, y, clean(row.value, 36), `font-size="26" font-weight="600" text-anchor="end" fill="${T.text}"`),
      `<rect x="640" y="${y + 18}" width="${L.notesRight - 640}" height="1" fill="${T.grid}"/>`,
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
