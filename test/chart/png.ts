import { inflateSync } from "node:zlib";

/** A decoded PNG: RGBA pixels, row by row. */
export interface DecodedPng {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes an 8-bit, non-interlaced PNG (greyscale, RGB, grey+alpha or RGBA) into RGBA: enough
 * for the pictures resvg writes, with no dependency beyond node:zlib.
 */
export function decodePng(bytes: Uint8Array): DecodedPng {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  PNG_SIGNATURE.forEach((b, i) => {
    if (buf[i] !== b) throw new Error("not a PNG: bad signature");
  });
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length; ) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const colourType = data[9] ?? -1;
      channels = CHANNELS[colourType] ?? 0;
      if (depth !== 8 || channels === 0 || data[12] !== 0) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colourType}, interlace ${data[12]}`);
      }
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      break;
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const value = raw[src + x] ?? 0;
      const a = x >= channels ? (rows[out + x - channels] ?? 0) : 0;
      const b = y > 0 ? (rows[out - stride + x] ?? 0) : 0;
      const c = x >= channels && y > 0 ? (rows[out - stride + x - channels] ?? 0) : 0;
      const predictor = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      rows[out + x] = (value + predictor) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const p = i * channels;
    const grey = channels <= 2;
    pixels[i * 4] = rows[p] ?? 0;
    pixels[i * 4 + 1] = rows[grey ? p : p + 1] ?? 0;
    pixels[i * 4 + 2] = rows[grey ? p : p + 2] ?? 0;
    pixels[i * 4 + 3] = channels === 4 ? (rows[p + 3] ?? 0) : channels === 2 ? (rows[p + 1] ?? 0) : 255;
  }
  return { width, height, pixels };
}

/** The RGB of one pixel as `#rrggbb`. */
export function pixelHex(png: DecodedPng, x: number, y: number): string {
  const i = (Math.round(y) * png.width + Math.round(x)) * 4;
  return `#${[0, 1, 2].map((k) => (png.pixels[i + k] ?? 0).toString(16).padStart(2, "0")).join("")}`;
}

/** How many pixels in the box differ from `background` by more than `threshold` in some channel. */
export function countDiffering(
  png: DecodedPng,
  box: { x: number; y: number; width: number; height: number },
  background: string,
  threshold = 40,
): number {
  const bg = [1, 3, 5].map((k) => parseInt(background.slice(k, k + 2), 16));
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * png.width + x) * 4;
      if (bg.some((v, k) => Math.abs((png.pixels[i + k] ?? 0) - v) > threshold)) count++;
    }
  }
  return count;
}
