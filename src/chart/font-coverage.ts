import { readFileSync } from "node:fs";

/** Whether a font has a glyph for a code point. */
export type Coverage = (codePoint: number) => boolean;

/** Adds the code points of a format 4 subtable (BMP fonts: segments, each mapped by a delta or a glyph array) that map to a glyph. */
function format4Ranges(view: DataView, sub: number, ranges: [number, number][]): void {
  const segments = view.getUint16(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const offsets = deltas + segments * 2;
  for (let i = 0; i < segments; i++) {
    const start = view.getUint16(starts + i * 2);
    const end = view.getUint16(ends + i * 2);
    const delta = view.getUint16(deltas + i * 2);
    const rangeOffset = view.getUint16(offsets + i * 2);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (cp + delta) & 0xffff;
      else {
        const at = offsets + i * 2 + rangeOffset + (cp - start) * 2;
        glyph = at + 2 <= view.byteLength ? view.getUint16(at) : 0;
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph === 0) continue;
      const last = ranges.at(-1);
      if (last !== undefined && last[1] === cp - 1) last[1] = cp;
      else ranges.push([cp, cp]);
    }
  }
}

/**
 * The code points a TrueType/OpenType font maps, from its cmap's format 12 subtable (every
 * Unicode font with characters past the BMP has one), else its format 4 (fonts of the BMP
 * alone, such as Arabic and Hebrew). resvg has no way to ask, and the chart needs to know
 * before it chooses the fonts: see `rasterizeOptions`. A font with neither reports nothing
 * covered.
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
    const offsets = Array.from({ length: subtables }, (_, s) => cmap + view.getUint32(cmap + 4 + s * 8 + 4));
    const full = offsets.find((sub) => view.getUint16(sub) === 12);
    const bmp = offsets.find((sub) => view.getUint16(sub) === 4);
    if (full !== undefined) {
      const groups = view.getUint32(full + 12);
      for (let g = 0; g < groups; g++) {
        const at = full + 16 + g * 12;
        ranges.push([view.getUint32(at), view.getUint32(at + 4)]);
      }
    } else if (bmp !== undefined) format4Ranges(view, bmp, ranges);
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
