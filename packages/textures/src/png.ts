import { hasAlpha } from './alpha.js';
import { be32, type RawPng, readPng } from './png-read.js';
import { writePng } from './png-write.js';
import { checkDimensions, need, textureError } from './limits.js';
import type { RgbaImage } from './types.js';

/** Unpacks 1/2/4-bit samples (rows padded to a byte) to one byte per sample. */
function unpackSamples(data: ArrayLike<number>, width: number, height: number, depth: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const rowBytes = Math.ceil((width * depth) / 8);
  const mask = (1 << depth) - 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = x * depth;
      const byte = data[y * rowBytes + (bit >> 3)] ?? 0;
      out[y * width + x] = (byte >> (8 - depth - (bit & 7))) & mask;
    }
  }
  return out;
}

/**
 * Decodes a PNG (any bit depth and colour type; 16-bit samples keep their high byte) to RGBA8.
 * The IHDR size is checked against the limits before fast-png allocates.
 *
 * ```ts
 * const { width, height, data } = decodePng(bytes, 'diffuse.png');
 * ```
 */
export function decodePng(bytes: Uint8Array, file?: string): RgbaImage {
  need(bytes, 0, 33, file, 'IHDR');
  checkDimensions(be32(bytes, 16), be32(bytes, 20), file, 16, 'IHDR.width');
  let png: RawPng;
  try {
    png = readPng(bytes);
  } catch (e) {
    textureError(`PNG does not decode: ${(e as Error).message}`, file, undefined, 'png');
  }
  const { width, height, channels, depth } = png;
  const n = width * height;
  const out = new Uint8Array(n * 4);
  if (png.palette && png.palette.length > 0) {
    const idx = depth === 8 ? (png.data as Uint8Array) : unpackSamples(png.data, width, height, depth);
    const pal = png.palette;
    for (let i = 0; i < n; i++) {
      const c = pal[idx[i]!];
      if (!c) textureError(`palette index ${idx[i]} past the ${pal.length} colours`, file, undefined, 'PLTE');
      out[i * 4] = c[0]!;
      out[i * 4 + 1] = c[1]!;
      out[i * 4 + 2] = c[2]!;
      out[i * 4 + 3] = c.length > 3 ? c[3]! : 255;
    }
    return { width, height, data: out };
  }
  let src: ArrayLike<number> = png.data;
  let scale = 1;
  if (depth === 16) scale = 1 / 257;
  else if (depth < 8) {
    src = unpackSamples(png.data, width, height * channels, depth); // gray only below 8 bits
    scale = 255 / ((1 << depth) - 1);
  }
  const trns = png.transparency;
  const key = trns && trns.length > 0 ? trns : undefined;
  for (let i = 0; i < n; i++) {
    let r: number;
    let g: number;
    let b: number;
    let a = 255;
    const s = i * channels;
    if (channels <= 2) {
      const v = src[s]!;
      r = g = b = Math.round(v * scale);
      if (channels === 2) a = Math.round(src[s + 1]! * scale);
      else if (key && v === key[0]) a = 0;
    } else {
      r = Math.round(src[s]! * scale);
      g = Math.round(src[s + 1]! * scale);
      b = Math.round(src[s + 2]! * scale);
      if (channels === 4) a = Math.round(src[s + 3]! * scale);
      else if (key && key.length >= 3 && src[s] === key[0] && src[s + 1] === key[1] && src[s + 2] === key[2])
        a = 0;
    }
    out[i * 4] = r;
    out[i * 4 + 1] = g;
    out[i * 4 + 2] = b;
    out[i * 4 + 3] = a;
  }
  return { width, height, data: out };
}

/** Options of {@link encodePng}. */
export interface EncodePngOptions {
  /** Write a paletted PNG (8-bit indices, PLTE + tRNS) when the image has ≤ 256 RGBA colours. Default true. */
  palette?: boolean;
  /** The pixels were decoded from DXT/BC blocks (see `WritePngOptions.blockCompressed`). Default false. */
  blockCompressed?: boolean;
}

export const ENCODE_PNG_DEFAULTS: Required<EncodePngOptions> = { palette: true, blockCompressed: false };

/**
 * The image as ≤ 256 palette entries + indices, or undefined when it has more colours. Entries
 * with alpha < 255 come first: fast-png writes tRNS as the alphas of the non-opaque entries in
 * palette order, which is only right when they are a prefix.
 */
function toPalette(image: RgbaImage): { palette: number[][]; indices: Uint8Array } | undefined {
  const { data } = image;
  const n = image.width * image.height;
  const px = new Uint32Array(data.buffer, data.byteOffset, n);
  const seen = new Map<number, number>();
  const aligned = data.byteOffset % 4 === 0;
  const colourAt = (i: number) =>
    aligned
      ? px[i]!
      : (data[i * 4]! | (data[i * 4 + 1]! << 8) | (data[i * 4 + 2]! << 16) | (data[i * 4 + 3]! << 24)) >>> 0;
  const first: number[] = [];
  const raw = new Uint8Array(n);
  let last = -1;
  let lastIdx = 0;
  for (let i = 0; i < n; i++) {
    const c = colourAt(i);
    if (c !== last) {
      let idx = seen.get(c);
      if (idx === undefined) {
        if (seen.size === 256) return undefined;
        idx = seen.size;
        seen.set(c, idx);
        first.push(i);
      }
      last = c;
      lastIdx = idx;
    }
    raw[i] = lastIdx;
  }
  // non-opaque entries first (stable), then the opaque ones
  const order = first
    .map((_p, k) => k)
    .sort((a, b) => {
      const oa = data[first[a]! * 4 + 3] === 255 ? 1 : 0;
      const ob = data[first[b]! * 4 + 3] === 255 ? 1 : 0;
      return oa - ob || a - b;
    });
  const remap = new Uint8Array(order.length);
  order.forEach((k, j) => {
    remap[k] = j;
  });
  const translucent = order.some((k) => data[first[k]! * 4 + 3] !== 255);
  const palette = order.map((k) => {
    const p = first[k]! * 4;
    return translucent
      ? [data[p]!, data[p + 1]!, data[p + 2]!, data[p + 3]!]
      : [data[p]!, data[p + 1]!, data[p + 2]!];
  });
  for (let i = 0; i < n; i++) raw[i] = remap[raw[i]!]!;
  return { palette, indices: raw };
}

/**
 * Encodes RGBA8 as a PNG: paletted (8-bit indices) when the image has ≤ 256 colours — an 8-bit
 * PCX skin gives a PNG ~25–35 % smaller than RGB — else RGB when every alpha is 255, else RGBA.
 * Decoding gives back exactly the same RGBA in every case.
 *
 * ```ts
 * const png = encodePng({ width: 1, height: 1, data: new Uint8Array([255, 0, 0, 255]) });
 * ```
 */
export function encodePng(image: RgbaImage, options: EncodePngOptions = {}): Uint8Array {
  const { width, height, data } = image;
  if (options.palette ?? ENCODE_PNG_DEFAULTS.palette) {
    const indexed = toPalette(image);
    if (indexed) {
      const palette = new Uint8Array(indexed.palette.length * 3);
      const alphas: number[] = [];
      indexed.palette.forEach((c, i) => {
        palette.set(c.slice(0, 3), i * 3);
        if (c.length > 3 && c[3] !== 255) alphas.push(c[3]!);
      });
      return writePng({
        width,
        height,
        channels: 1,
        data: indexed.indices,
        palette,
        alpha: new Uint8Array(alphas),
      });
    }
  }
  const how = { blockCompressed: options.blockCompressed ?? ENCODE_PNG_DEFAULTS.blockCompressed };
  if (hasAlpha(data)) return writePng({ width, height, channels: 4, data }, 6, how);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < data.length; i += 4, j += 3) {
    rgb[j] = data[i]!;
    rgb[j + 1] = data[i + 1]!;
    rgb[j + 2] = data[i + 2]!;
  }
  return writePng({ width, height, channels: 3, data: rgb }, 6, how);
}

/**
 * An 8-bit paletted PNG of indices and a 256-entry (768-byte) palette as given — the PNG keeps the
 * palette's order and every entry, so the indices come back exactly (an 8-bit PCX's image is
 * this); `transparentIndex0` writes entry 0 with alpha 0 (Unreal's masked index 0).
 *
 * ```ts
 * const png = encodePngIndexed(256, 256, pcx.indices!, pcx.palette!, { transparentIndex0: true });
 * ```
 */
export function encodePngIndexed(
  width: number,
  height: number,
  indices: Uint8Array,
  palette: Uint8Array,
  options: { transparentIndex0?: boolean } = {},
): Uint8Array {
  return writePng({
    width,
    height,
    channels: 1,
    data: indices,
    palette: palette.subarray(0, 768),
    alpha: options.transparentIndex0 ? new Uint8Array([0]) : undefined,
  });
}

/**
 * The indices and palette of an 8-bit paletted PNG (as {@link encodePngIndexed} writes), or
 * undefined for any other PNG. `palette` is 3 bytes per PLTE entry, `alpha` the tRNS bytes.
 *
 * ```ts
 * const indexed = decodePngIndexed(png); // { width, height, indices, palette, alpha }
 * ```
 */
export function decodePngIndexed(
  bytes: Uint8Array,
  file?: string,
):
  | { width: number; height: number; indices: Uint8Array; palette: Uint8Array; alpha: Uint8Array }
  | undefined {
  need(bytes, 0, 33, file, 'IHDR');
  if (bytes[24] !== 8 || bytes[25] !== 3) return undefined;
  checkDimensions(be32(bytes, 16), be32(bytes, 20), file, 16, 'IHDR.width');
  let png: RawPng;
  try {
    png = readPng(bytes);
  } catch (e) {
    textureError(`PNG does not decode: ${(e as Error).message}`, file, undefined, 'png');
  }
  if (!png.palette || png.depth !== 8 || png.channels !== 1) return undefined;
  const palette = new Uint8Array(png.palette.length * 3);
  const alpha: number[] = [];
  png.palette.forEach((c, i) => {
    palette[i * 3] = c[0]!;
    palette[i * 3 + 1] = c[1]!;
    palette[i * 3 + 2] = c[2]!;
    if (c.length > 3) alpha[i] = c[3]!;
  });
  let last = alpha.length;
  while (last > 0 && alpha[last - 1] === 255) last--;
  return {
    width: png.width,
    height: png.height,
    indices: png.data as Uint8Array,
    palette,
    alpha: Uint8Array.from(alpha.slice(0, last)),
  };
}
