import { readFileSync } from "node:fs";

/** Whether a font has a glyph for a code point. */
export type Coverage = (codePoint: number) => boolean;

/**
 * The code points a TrueType/OpenType font maps, from its cmap's format 12 subtable (every
 * Unicode font made this century has one). resvg has no way to ask, and the chart needs to
 * know before it chooses the fonts: see `rasterizeOptions`. A font without that subtable
 * reports nothing covered, so the caller falls back to every font.
 */
export function fontCoverage(file: string): Coverage {
  const buf = readFileSync(file);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const ranges: [number, number][] = [];
  const tables = view.getUint16(4);
  for (let t = 0; t < tables; t++) {
    const record = 12 + t * 16;
    if (buf.toString("latin1", record, record + 4) !== "cmap") continue;
    const cmap = view.getUint32(record + 8);
    const subtables = view.getUint16(cmap + 2);
    for (let s = 0; s < subtables && ranges.length === 0; s++) {
      const sub = cmap + view.getUint32(cmap + 4 + s * 8 + 4);
      if (view.getUint16(sub) !== 12) continue;
      const groups = view.getUint32(sub + 12);
      for (let g = 0; g < groups; g++) {
        const at = sub + 16 + g * 12;
        ranges.push([view.getUint32(at), view.getUint32(at + 4)]);
      }
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return (cp) => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, end] = ranges[mid] as [number, number];
      if (cp < start) hi = mid - 1;
      else if (cp > end) lo = mid + 1;
      else return true;
    }
    return false;
  };
}
