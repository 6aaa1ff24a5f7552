import { layoutChart, type ChartLayout } from "./layout.js";
import { escapeXml } from "./text.js";
import { CHART_LAYOUT as L, CHART_THEME as T } from "./theme.js";
import type { ChartSpec } from "./types.js";
import { displayWidth } from "../i18n/width.js";

/** Every string in the layout is already cleaned and cut; this is the only escaping step. */
function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${x}" y="${y}" ${attrs}>${escapeXml(content)}</text>`;
}

/**
 * Rough advance width of Inter at `size` px, enough to size a label's box; a Chinese character
 * (from the CJK font) counts as two, as it does in a monospaced table.
 */
function textWidth(content: string, size: number): number {
  return displayWidth(content) * size * 0.56;
}

function header(layout: ChartLayout): string {
  const parts = [
    text(L.left, L.titleY, layout.title, `font-size="${L.fontSize.title}" font-weight="600" fill="${T.text}"`),
  ];
  if (layout.subtitle) {
    parts.push(text(L.left, L.subtitleY, layout.subtitle, `font-size="${L.fontSize.subtitle}" fill="${T.muted}"`));
  }
  if (layout.source) {
    // Under the notes, right-aligned: a forwarded picture still says where its numbers come from.
    parts.push(text(L.notesRight, L.subtitleY, layout.source, `font-size="${L.fontSize.note}" font-weight="600" text-anchor="end" fill="${T.text}"`));
  }
  if (layout.notes.length > 0) {
    const note = layout.notes.join(" · ");
    const width = textWidth(note, L.fontSize.note) + 24;
    parts.push(
      `<rect x="${L.notesRight - width}" y="${L.notesY - 20}" width="${width}" height="28" rx="6" fill="none" stroke="${T.noteBorder}"/>`,
      text(L.notesRight - width / 2, L.notesY, note, `font-size="${L.fontSize.note}" text-anchor="middle" fill="${T.text}"`),
    );
  }
  return parts.join("");
}

function grid(layout: ChartLayout): string {
  const lines: string[] = [];
  for (const t of layout.priceTicks) {
    lines.push(`<rect x="${L.left}" y="${t.y}" width="${L.right - L.left}" height="1" fill="${T.grid}"/>`);
  }
  for (const t of layout.timeTicks) {
    lines.push(`<rect x="${t.x}" y="${L.priceTop}" width="1" height="${L.volumeBottom - L.priceTop}" fill="${T.grid}"/>`);
  }
  lines.push(`<rect x="${L.left}" y="${L.volumeBottom}" width="${L.right - L.left}" height="1" fill="${T.grid}"/>`);
  return `<g shape-rendering="crispEdges">${lines.join("")}</g>`;
}

function candles(layout: ChartLayout): string {
  const up: string[] = [];
  const down: string[] = [];
  const volume: { up: string[]; down: string[] } = { up: [], down: [] };
  for (const c of layout.candles) {
    const into = c.up ? up : down;
    into.push(
      `<rect x="${c.wickX}" y="${c.wickTop}" width="1" height="${c.wickHeight}"/>`,
      `<rect x="${c.x}" y="${c.bodyTop}" width="${c.width}" height="${c.bodyHeight}"/>`,
    );
    if (c.volumeHeight > 0) {
      (c.up ? volume.up : volume.down).push(
        `<rect x="${c.x}" y="${L.volumeBottom - c.volumeHeight}" width="${c.width}" height="${c.volumeHeight}"/>`,
      );
    }
  }
  const o = T.volumeOpacity;
  return (
    `<g shape-rendering="crispEdges">` +
    `<g fill="${T.up}" fill-opacity="${o}">${volume.up.join("")}</g>` +
    `<g fill="${T.down}" fill-opacity="${o}">${volume.down.join("")}</g>` +
    `<g fill="${T.up}">${up.join("")}</g><g fill="${T.down}">${down.join("")}</g></g>`
  );
}

function axes(layout: ChartLayout): string {
  const size = L.fontSize.axis;
  const parts: string[] = [];
  for (const t of layout.priceTicks) {
    parts.push(text(L.right + 10, t.y + 5, t.label, `font-size="${size}" fill="${T.muted}"`));
  }
  for (const t of layout.timeTicks) {
    parts.push(text(t.x, L.timeLabelY, t.label, `font-size="${size}" text-anchor="middle" fill="${T.muted}"`));
  }
  parts.push(text(L.notesRight, L.timeLabelY, layout.timeZone, `font-size="${size}" text-anchor="end" fill="${T.muted}"`));
  if (layout.priceUnit) parts.push(text(L.right + 10, L.priceTop - 2, layout.priceUnit, `font-size="${size}" fill="${T.muted}"`));
  if (layout.volumeLabel) {
    // In the axis column, where no bar can run into it.
    parts.push(text(L.right + 10, L.volumeTop + 10, layout.volumeLabel, `font-size="${size}" fill="${T.muted}"`));
  }
  const last = layout.last;
  if (last) {
    const colour = last.up ? T.up : T.down;
    const width = Math.max(textWidth(last.label, size) + 16, 76);
    parts.push(
      `<line x1="${L.left}" x2="${L.right}" y1="${last.y + 0.5}" y2="${last.y + 0.5}" stroke="${colour}" stroke-dasharray="4 4"/>`,
      `<rect x="${L.right + 2}" y="${last.y - 12}" width="${width}" height="24" rx="4" fill="${colour}"/>`,
      text(L.right + 10, last.y + 5, last.label, `font-size="${size}" font-weight="600" fill="${T.background}"`),
    );
  }
  return parts.join("");
}

/**
 * The chart as an SVG document of `CHART_LAYOUT.width` × `height` pixels: candles, volume,
 * price and time axes, a line at the last price, title and subtitle. Pure and synchronous;
 * every string from the spec is cleaned, cut and escaped, so it is drawn as text.
 */
export function renderChartSvg(spec: ChartSpec): string {
  const layout = layoutChart(spec);
  const body = layout.emptyMessage
    ? text(
        L.width / 2,
        (L.priceTop + L.volumeBottom) / 2,
        layout.emptyMessage,
        `font-size="${L.fontSize.empty}" text-anchor="middle" fill="${T.muted}"`,
      )
    : grid(layout) + candles(layout) + axes(layout);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="${L.height}" viewBox="0 0 ${L.width} ${L.height}" font-family="${L.fontFamily}">` +
    `<rect width="${L.width}" height="${L.height}" fill="${T.background}"/>` +
    header(layout) +
    body +
    `</svg>`
  );
}
