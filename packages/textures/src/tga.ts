import { hasAlpha } from './alpha.js';
import { checkDimensions, need, textureError, u16 } from './limits.js';
import type { RgbaImage } from './types.js';

/** Writes the RGBA of one TGA pixel value (`bytes` little-endian BGR(A), gray, or 1:5:5:5). */
function pixel(src: Uint8Array, s: number, depth: number, gray: boolean, out: Uint8Array, d: number): void {
  if (gray) {
    out[d] = out[d + 1] = out[d + 2] = src[s]!;
    out[d + 3] = depth === 16 ? src[s + 1]! : 255;
  } else if (depth === 15 || depth === 16) {
    const v = src[s]! | (src[s + 1]! << 8);
    out[d] = (((v >> 10) & 31) * 255 + 15) / 31;
    out[d + 1] = (((v >> 5) & 31) * 255 + 15) / 31;
    out[d + 2] = ((v & 31) * 255 + 15) / 31;
    out[d + 3] = depth === 16 && !(v & 0x8000) ? 0 : 255;
  } else {
    out[d] = src[s + 2]!;
    out[d + 1] = src[s + 1]!;
    out[d + 2] = src[s]!;
    out[d + 3] = depth === 32 ? src[s + 3]! : 255;
  }
}

/**
 * Decodes a Truevision TGA: colour-mapped (8-bit indices into a 15/16/24/32-bit map), true colour
 * 15/16/24/32-bit and grey 8/16-bit, raw or RLE (packets may cross rows); the origin bits of the
 * descriptor decide row and column order. 16-bit pixels use their top bit as alpha only when the
 * descriptor declares an alpha bit; 32-bit files whose descriptor declares no alpha bits and whose
 * alpha bytes are all 0 are opaque.
 *
 * ```ts
 * const image = decodeTga(bytes, 'sword_dif.tga');
 * ```
 */
export function decodeTga(bytes: Uint8Array, file?: string): RgbaImage {
  need(bytes, 0, 18, file, 'header');
  const idLength = bytes[0]!;
  const mapType = bytes[1]!;
  const type = bytes[2]!;
  const mapFirst = u16(bytes, 3);
  const mapLength = u16(bytes, 5);
  const mapDepth = bytes[7]!;
  const width = u16(bytes, 12);
  const height = u16(bytes, 14);
  let depth = bytes[16]!;
  const descriptor = bytes[17]!;
  const base = type & 7;
  const rle = (type & 8) !== 0;
  if (base < 1 || base > 3 || type > 11 || mapType > 1) {
    textureError(
      `image type ${type} is not a colour-mapped, true-colour or grey TGA`,
      file,
      2,
      'imageType',
      'UNSUPPORTED_TEXTURE',
    );
  }
  checkDimensions(width, height, file, 12, 'width/height');
  const alphaBits = descriptor & 15;
  const mapped = base === 1;
  const gray = base === 3;
  if (mapped ? depth !== 8 : gray ? depth !== 8 && depth !== 16 : ![15, 16, 24, 32].includes(depth)) {
    textureError(
      `${depth} bits per pixel is not supported for image type ${type}`,
      file,
      16,
      'pixelDepth',
      'UNSUPPORTED_TEXTURE',
    );
  }
  if (!gray && !mapped && depth === 16 && alphaBits === 0) depth = 15;
  let o = 18 + idLength;
  let map: Uint8Array | undefined;
  if (mapType === 1) {
    let md = mapDepth;
    if (![15, 16, 24, 32].includes(md))
      textureError(`colour map entries of ${md} bits`, file, 7, 'colorMapDepth', 'UNSUPPORTED_TEXTURE');
    if (md === 16 && alphaBits === 0) md = 15;
    const entry = Math.ceil(mapDepth / 8);
    need(bytes, o, mapLength * entry, file, 'colorMap');
    map = new Uint8Array((mapFirst + mapLength) * 4);
    for (let i = 0; i < mapLength; i++) pixel(bytes, o + i * entry, md, false, map, (mapFirst + i) * 4);
    o += mapLength * entry;
  }
  if (mapped && !map) textureError('colour-mapped image without a colour map', file, 1, 'colorMapType');
  const bpp = Math.ceil(depth / 8);
  const n = width * height;
  const left = bytes.length - o;
  const maxPixels = rle ? Math.floor(left / (1 + bpp)) * 128 : Math.floor(left / bpp);
  if (n > maxPixels) {
    textureError(
      `${width}×${height} needs more pixel data than the ${left} bytes left`,
      file,
      o,
      'pixels',
      'TRUNCATED',
    );
  }
  // pixels in file order, expanded to RGBA
  const raw = new Uint8Array(n * 4);
  const put = (s: number, p: number) => {
    if (mapped) {
      const idx = bytes[s]!;
      if (idx < mapFirst || idx >= mapFirst + mapLength)
        textureError(`colour index ${idx} outside the map`, file, s, 'pixels');
      raw.set(map!.subarray(idx * 4, idx * 4 + 4), p * 4);
    } else pixel(bytes, s, depth, gray, raw, p * 4);
  };
  if (rle) {
    let p = 0;
    while (p < n) {
      if (o >= bytes.length)
        textureError(`RLE data ends after ${p} of ${n} pixels`, file, o, 'pixels', 'TRUNCATED');
      const h = bytes[o++]!;
      const count = Math.min((h & 0x7f) + 1, n - p);
      if (h & 0x80) {
        need(bytes, o, bpp, file, 'pixels');
        put(o, p);
        for (let i = 1; i < count; i++) raw.copyWithin((p + i) * 4, p * 4, p * 4 + 4);
        o += bpp;
      } else {
        need(bytes, o, count * bpp, file, 'pixels');
        for (let i = 0; i < count; i++) put(o + i * bpp, p + i);
        o += count * bpp;
      }
      p += count;
    }
  } else for (let p = 0; p < n; p++) put(o + p * bpp, p);
  if (depth === 32 && alphaBits === 0) {
    let any = false;
    for (let i = 3; i < raw.length && !any; i += 4) any = raw[i] !== 0;
    if (!any) for (let i = 3; i < raw.length; i += 4) raw[i] = 255;
  }
  const topDown = (descriptor & 0x20) !== 0;
  const rightToLeft = (descriptor & 0x10) !== 0;
  if (topDown && !rightToLeft) return { width, height, data: raw };
  const data = new Uint8Array(n * 4);
  for (let y = 0; y < height; y++) {
    const sy = topDown ? y : height - 1 - y;
    if (!rightToLeft) data.set(raw.subarray(sy * width * 4, (sy + 1) * width * 4), y * width * 4);
    else
      for (let x = 0; x < width; x++)
        data.set(
          raw.subarray((sy * width + width - 1 - x) * 4, (sy * width + width - x) * 4),
          (y * width + x) * 4,
        );
  }
  return { width, height, data };
}

/** Options of {@link encodeTga}. */
export interface EncodeTgaOptions {
  /** 24 (BGR) or 32 (BGRA, 8 alpha bits). Default: 32 with alpha, else 24. */
  bitsPerPixel?: 24 | 32;
  /** Run-length encode (image type 10) instead of raw (type 2). Default false. */
  rle?: boolean;
}

export const ENCODE_TGA_DEFAULTS: Required<Pick<EncodeTgaOptions, 'rle'>> = { rle: false };

/**
 * Encodes RGBA as a true-colour TGA with bottom-left origin and the TGA 2.0 footer (so the file
 * is recognised without its name).
 *
 * ```ts
 * const tga = encodeTga(image, { bitsPerPixel: 32, rle: true });
 * ```
 */
export function encodeTga(image: RgbaImage, options: EncodeTgaOptions = {}): Uint8Array {
  const { width, height, data } = image;
  let bpp = options.bitsPerPixel;
  bpp ??= hasAlpha(data) ? 32 : 24;
  const rle = options.rle ?? ENCODE_TGA_DEFAULTS.rle;
  const px = bpp >> 3;
  const n = width * height;
  const body = new Uint8Array(rle ? n * px + Math.ceil(n / 128) * (1 + px) + n : n * px);
  const header = new Uint8Array(18);
  header[2] = rle ? 10 : 2;
  header[12] = width & 255;
  header[13] = width >> 8;
  header[14] = height & 255;
  header[15] = height >> 8;
  header[16] = bpp;
  header[17] = bpp === 32 ? 8 : 0;
  // file order: bottom row first
  const at = (p: number) => ((height - 1 - Math.floor(p / width)) * width + (p % width)) * 4;
  const write = (p: number, o: number) => {
    const s = at(p);
    body[o] = data[s + 2]!;
    body[o + 1] = data[s + 1]!;
    body[o + 2] = data[s]!;
    if (px === 4) body[o + 3] = data[s + 3]!;
  };
  let o = 0;
  if (!rle) for (let p = 0; p < n; p++, o += px) write(p, o);
  else {
    const same = (a: number, b: number) => {
      const sa = at(a);
      const sb = at(b);
      return (
        data[sa] === data[sb] &&
        data[sa + 1] === data[sb + 1] &&
        data[sa + 2] === data[sb + 2] &&
        (px === 3 || data[sa + 3] === data[sb + 3])
      );
    };
    let p = 0;
    while (p < n) {
      const rowEnd = (Math.floor(p / width) + 1) * width; // packets stay within a row
      let run = 1;
      while (run < 128 && p + run < rowEnd && same(p, p + run)) run++;
      if (run > 1) {
        body[o++] = 0x80 | (run - 1);
        write(p, o);
        o += px;
        p += run;
        continue;
      }
      let lit = 1;
      while (lit < 128 && p + lit < rowEnd && !(p + lit + 1 < rowEnd && same(p + lit, p + lit + 1))) lit++;
      body[o++] = lit - 1;
      for (let i = 0; i < lit; i++, o += px) write(p + i, o);
      p += lit;
    }
  }
  const footer = new Uint8Array(26);
  footer.set(new TextEncoder().encode('TRUEVISION-XFILE.'), 8);
  const out = new Uint8Array(18 + o + 26);
  out.set(header);
  out.set(body.subarray(0, o), 18);
  out.set(footer, 18 + o);
  return out;
}
