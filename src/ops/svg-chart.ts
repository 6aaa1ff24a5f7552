/**
 * The page's two charts as inline SVG, drawn on the server: layers stacked as areas over time
 * (the day's units by lane) and as bars (answers per minute). Every label is escaped; a chart
 * carries its numbers in its legend, so that what the eye reads is also text.
 */
import { esc, num } from "./html.js";

export interface Layer {
  label: string;
  color: string;
  /** One value per x, stacked on the layers before it. */
  values: readonly number[];
}

export interface RefLine {
  label: string;
  color: string;
  points: readonly (readonly [number, number])[];
  dashed?: boolean;
}

export interface ChartFrame {
  /** What the chart shows, for screen readers. */
  title: string;
  /** The x range (epoch ms). */
  x0: number;
  x1: number;
  yMax: number;
  xLabels: readonly { at: number; text: string }[];
}

const W = 720;
const H = 220;
const PAD = { left: 64, right: 12, top: 10, bottom: 24 };

function scale(frame: ChartFrame) {
  const yMax = frame.yMax > 0 ? frame.yMax : 1;
  const sx = (x: number) => PAD.left + ((x - frame.x0) / Math.max(1, frame.x1 - frame.x0)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - (Math.min(y, yMax) / yMax) * (H - PAD.top - PAD.bottom);
  return { sx, sy, yMax };
}

const f = (n: number) => n.toFixed(1);

function axes(frame: ChartFrame, body: string): string {
  const { sx, sy, yMax } = scale(frame);
  const ticks = frame.xLabels
    .map((l) => `<text x="${f(sx(l.at))}" y="${H - 6}" text-anchor="middle">${esc(l.text)}</text>`)
    .join("");
  return (
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(frame.title)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${esc(frame.title)}</title>` +
    `<line x1="${PAD.left}" y1="${f(sy(0))}" x2="${W - PAD.right}" y2="${f(sy(0))}" class="axis"/>` +
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${f(sy(0))}" class="axis"/>` +
    `<text x="${PAD.left - 6}" y="${f(sy(yMax) + 4)}" text-anchor="end">${esc(num(yMax))}</text>` +
    `<text x="${PAD.left - 6}" y="${f(sy(0))}" text-anchor="end">0</text>` +
    body +
    ticks +
    `</svg>`
  );
}

/** Layers stacked as areas over `xs`; reference lines (the allowance, the even pace) drawn over them. */
export function stackedAreaSvg(frame: ChartFrame, xs: readonly number[], layers: readonly Layer[], refs: readonly RefLine[] = []): string {
  const { sx, sy } = scale(frame);
  const base = xs.map(() => 0);
  const areas = layers.map((layer) => {
    const lower = [...base];
    layer.values.forEach((v, i) => (base[i] = (base[i] ?? 0) + v));
    if (xs.length === 0) return "";
    const top = xs.map((x, i) => `${f(sx(x))},${f(sy(base[i] ?? 0))}`);
    const bottom = xs.map((x, i) => `${f(sx(x))},${f(sy(lower[i] ?? 0))}`).reverse();
    const last = layer.values.at(-1) ?? 0;
    return `<polygon points="${[...top, ...bottom].join(" ")}" fill="${esc(layer.color)}" fill-opacity="0.75" stroke="${esc(layer.color)}" stroke-width="2" data-layer="${esc(layer.label)}" data-last="${last}"><title>${esc(layer.label)}: ${esc(num(last))}</title></polygon>`;
  });
  const lines = refs.map(
    (r) =>
      `<polyline points="${r.points.map(([x, y]) => `${f(sx(x))},${f(sy(y))}`).join(" ")}" fill="none" stroke="${esc(r.color)}" stroke-width="1.5"${r.dashed ? ' stroke-dasharray="5 4"' : ""}><title>${esc(r.label)}</title></polyline>`,
  );
  return axes(frame, areas.join("") + lines.join(""));
}

/** One bar per x (the end of its minute), its layers stacked. */
export function stackedBarsSvg(frame: ChartFrame, xs: readonly number[], layers: readonly Layer[], barMs: number): string {
  const { sx, sy } = scale(frame);
  const width = Math.max(1, sx(frame.x0 + barMs) - sx(frame.x0) - 1);
  const bars = xs.map((x, i) => {
    let y = 0;
    return layers
      .map((layer) => {
        const v = layer.values[i] ?? 0;
        if (v <= 0) return "";
        const rect = `<rect x="${f(sx(x) - width)}" y="${f(sy(y + v))}" width="${f(width)}" height="${f(sy(y) - sy(y + v))}" fill="${esc(layer.color)}"><title>${esc(layer.label)}: ${esc(num(v))}</title></rect>`;
        y += v;
        return rect;
      })
      .join("");
  });
  return axes(frame, bars.join(""));
}
