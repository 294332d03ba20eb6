// A minimal PNG decoder for screenshots: 8-bit RGB or RGBA, not interlaced (what Chromium writes).
import { inflateSync } from "node:zlib";

export interface Image {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const color = body[9];
      const interlace = body[12];
      if (depth !== 8 || (color !== 2 && color !== 6) || interlace !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${color}, interlace ${interlace}`);
      channels = color === 6 ? 4 : 3;
    } else if (type === "IDAT") {
      data.push(body);
    } else if (type === "IEND") {
      break;
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const current = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? current[x - channels]! : 0;
      const b = previous[x]!;
      const c = x >= channels ? previous[x - channels]! : 0;
      let value = line[x]!;
      if (filter === 1) value += a;
      else if (filter === 2) value += b;
      else if (filter === 3) value += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        value += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      current[x] = value & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      out[o] = current[x * channels]!;
      out[o + 1] = current[x * channels + 1]!;
      out[o + 2] = current[x * channels + 2]!;
      out[o + 3] = channels === 4 ? current[x * channels + 3]! : 255;
    }
    previous = current;
  }
  return { width, height, pixels: out };
}

/** How many pixels have each colour ("#rrggbb"). */
export function colourCounts(image: Image): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < image.pixels.length; i += 4) {
    const key = `#${[image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Variance of the pixels' luminance: 0 for a blank image. */
export function luminanceVariance(image: Image): number {
  let sum = 0;
  let sumSq = 0;
  const n = image.pixels.length / 4;
  for (let i = 0; i < image.pixels.length; i += 4) {
    const l = 0.2126 * image.pixels[i]! + 0.7152 * image.pixels[i + 1]! + 0.0722 * image.pixels[i + 2]!;
    sum += l;
    sumSq += l * l;
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}
