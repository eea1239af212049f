import { hasAlpha } from './alpha.js';
import { checkDimensions, need, textureError, u16, u32 } from './limits.js';
import { palettize } from './quantize.js';
import type { RgbaImage } from './types.js';

/** A decoded BMP; 1/4/8-bit files also give their indices and palette (256 RGB triplets). */
export interface BmpImage extends RgbaImage {
  indices?: Uint8Array;
  palette?: Uint8Array;
  bitsPerPixel: number;
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

function maskChannel(v: number, mask: number): number {
  if (mask === 0) return -1;
  const shift = 31 - Math.clz32(mask & -mask);
  const max = mask >>> shift;
  return Math.round(((((v & mask) >>> 0) >>> shift) * 255) / max);
}

/**
 * Decodes a Windows BMP: 1/4/8-bit paletted, 16-bit (5:5:5 or bit fields), 24-bit and 32-bit
 * (BGRX, or bit fields with an alpha mask from a V3/V4/V5 header); bottom-up and top-down rows.
 * A 32-bit BI_RGB file whose fourth bytes are all 0 is opaque; otherwise they are alpha.
 * RLE-compressed BMPs are refused (UNSUPPORTED_TEXTURE).
 *
 * ```ts
 * const image = decodeBmp(bytes, 'skin.bmp');
 * ```
 */
export function decodeBmp(bytes: Uint8Array, file?: string): BmpImage {
  need(bytes, 0, 26, file, 'BITMAPFILEHEADER');
  if (bytes[0] !== 0x42 || bytes[1] !== 0x4d) textureError('not a BMP (no "BM" magic)', file, 0, 'bfType');
  const dataOffset = u32(bytes, 10);
  const headerSize = u32(bytes, 14);
  let width: number;
  let height: number;
  let bpp: number;
  let compression = BI_RGB;
  let colorsUsed = 0;
  let paletteEntry = 4;
  const masks = [0, 0, 0, 0];
  if (headerSize === 12) {
    width = u16(bytes, 18);
    height = u16(bytes, 20);
    bpp = u16(bytes, 24);
    paletteEntry = 3;
  } else if (headerSize >= 40 && headerSize <= 124) {
    need(bytes, 14, headerSize, file, 'BITMAPINFOHEADER');
    width = u32(bytes, 18) | 0;
    height = u32(bytes, 22) | 0;
    bpp = u16(bytes, 28);
    compression = u32(bytes, 30);
    colorsUsed = u32(bytes, 46);
    if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
      const at = headerSize >= 52 ? 54 : 14 + headerSize;
      need(bytes, at, compression === BI_ALPHABITFIELDS ? 16 : 12, file, 'bitfields');
      masks[0] = u32(bytes, at);
      masks[1] = u32(bytes, at + 4);
      masks[2] = u32(bytes, at + 8);
      if (headerSize >= 56 || compression === BI_ALPHABITFIELDS) masks[3] = u32(bytes, at + 12);
    }
  } else
    textureError(
      `DIB header size ${headerSize} is not a known BMP header`,
      file,
      14,
      'biSize',
      'UNSUPPORTED_TEXTURE',
    );
  const topDown = height < 0;
  height = Math.abs(height);
  checkDimensions(width, height, file, 18, 'biWidth/biHeight');
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS) {
    textureError(
      `compression ${compression} (RLE/JPEG/PNG in BMP) is not supported`,
      file,
      30,
      'biCompression',
      'UNSUPPORTED_TEXTURE',
    );
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp))
    textureError(`${bpp} bits per pixel is not supported`, file, 28, 'biBitCount', 'UNSUPPORTED_TEXTURE');
  const stride = (((width * bpp + 31) >>> 5) << 2) >>> 0;
  need(bytes, dataOffset, stride * height, file, 'pixels');
  const n = width * height;
  const out = new Uint8Array(n * 4);
  if (bpp <= 8) {
    const max = 1 << bpp;
    const count = colorsUsed > 0 && colorsUsed <= max ? colorsUsed : max;
    const palAt = 14 + headerSize;
    const available = Math.min(count, Math.floor(Math.max(0, dataOffset - palAt) / paletteEntry));
    const pal = new Uint8Array(256 * 4);
    for (let i = 0; i < available; i++) {
      const p = palAt + i * paletteEntry;
      pal[i * 4] = bytes[p + 2]!;
      pal[i * 4 + 1] = bytes[p + 1]!;
      pal[i * 4 + 2] = bytes[p]!;
      pal[i * 4 + 3] = 255;
    }
    const mask = max - 1;
    const indices = new Uint8Array(n);
    const palette = new Uint8Array(768);
    for (let i = 0; i < 256; i++) {
      palette[i * 3] = pal[i * 4]!;
      palette[i * 3 + 1] = pal[i * 4 + 1]!;
      palette[i * 3 + 2] = pal[i * 4 + 2]!;
    }
    for (let y = 0; y < height; y++) {
      const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
      for (let x = 0; x < width; x++) {
        const bit = x * bpp;
        const idx = (bytes[row + (bit >> 3)]! >> (8 - bpp - (bit & 7))) & mask;
        if (idx >= available)
          textureError(
            `palette index ${idx} past the ${available} colours`,
            file,
            row + (bit >> 3),
            'pixels',
          );
        indices[y * width + x] = idx;
        const d = (y * width + x) * 4;
        out[d] = pal[idx * 4]!;
        out[d + 1] = pal[idx * 4 + 1]!;
        out[d + 2] = pal[idx * 4 + 2]!;
        out[d + 3] = 255;
      }
    }
    return { width, height, data: out, indices, palette, bitsPerPixel: bpp };
  }
  const bitfields = compression !== BI_RGB;
  if (!bitfields && bpp === 16) masks.splice(0, 4, 0x7c00, 0x3e0, 0x1f, 0);
  let anyAlpha = false;
  for (let y = 0; y < height; y++) {
    const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const d = (y * width + x) * 4;
      if (bpp === 24 || (bpp === 32 && !bitfields)) {
        const s = row + x * (bpp >> 3);
        out[d] = bytes[s + 2]!;
        out[d + 1] = bytes[s + 1]!;
        out[d + 2] = bytes[s]!;
        const a = bpp === 32 ? bytes[s + 3]! : 255;
        if (bpp === 32 && a !== 0) anyAlpha = true;
        out[d + 3] = a;
      } else {
        const s = row + x * (bpp >> 3);
        const v = bpp === 16 ? u16(bytes, s) : u32(bytes, s);
        out[d] = Math.max(0, maskChannel(v, masks[0]!));
        out[d + 1] = Math.max(0, maskChannel(v, masks[1]!));
        out[d + 2] = Math.max(0, maskChannel(v, masks[2]!));
        const a = maskChannel(v, masks[3]!);
        out[d + 3] = a < 0 ? 255 : a;
      }
    }
  }
  if (bpp === 32 && !bitfields && !anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return { width, height, data: out, bitsPerPixel: bpp };
}

/** Options of {@link encodeBmp}. */
export interface EncodeBmpOptions {
  /** 8 (paletted), 24 or 32 (with alpha, BITMAPV4HEADER bit fields). Default: 32 with alpha, else 24. */
  bitsPerPixel?: 8 | 24 | 32;
  /** 8-bit: index 0 for pixels with alpha < 128 (default true). */
  maskIndex0?: boolean;
}

export const ENCODE_BMP_DEFAULTS: Required<Pick<EncodeBmpOptions, 'maskIndex0'>> = { maskIndex0: true };

/**
 * Encodes RGBA as a bottom-up BMP: 8-bit paletted (exact or image-q quantized palette, see
 * `palettize`), 24-bit BGR, or 32-bit BGRA with a BITMAPV4HEADER naming the alpha mask.
 *
 * ```ts
 * const bmp = encodeBmp(image, { bitsPerPixel: 24 });
 * ```
 */
export function encodeBmp(image: RgbaImage, options: EncodeBmpOptions = {}): Uint8Array {
  const { width, height, data } = image;
  let bpp = options.bitsPerPixel;
  bpp ??= hasAlpha(data) ? 32 : 24;
  const headerSize = bpp === 32 ? 108 : 40;
  const paletteBytes = bpp === 8 ? 1024 : 0;
  const stride = ((width * bpp + 31) >>> 5) << 2;
  const offset = 14 + headerSize + paletteBytes;
  const out = new Uint8Array(offset + stride * height);
  const v = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  v.setUint32(2, out.length, true);
  v.setUint32(10, offset, true);
  v.setUint32(14, headerSize, true);
  v.setInt32(18, width, true);
  v.setInt32(22, height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, bpp, true);
  v.setUint32(30, bpp === 32 ? BI_BITFIELDS : BI_RGB, true);
  v.setUint32(34, stride * height, true);
  v.setUint32(38, 2835, true); // 72 dpi in pixels per metre
  v.setUint32(42, 2835, true);
  if (bpp === 32) {
    v.setUint32(54, 0x00ff0000, true);
    v.setUint32(58, 0x0000ff00, true);
    v.setUint32(62, 0x000000ff, true);
    v.setUint32(66, 0xff000000, true);
    v.setUint32(70, 0x73524742, true); // LCS_sRGB
  }
  if (bpp === 8) {
    const indexed = palettize(image, { maskIndex0: options.maskIndex0 ?? ENCODE_BMP_DEFAULTS.maskIndex0 });
    v.setUint32(46, 256, true);
    for (let i = 0; i < 256; i++) {
      out[54 + i * 4] = indexed.palette[i * 3 + 2]!;
      out[54 + i * 4 + 1] = indexed.palette[i * 3 + 1]!;
      out[54 + i * 4 + 2] = indexed.palette[i * 3]!;
    }
    for (let y = 0; y < height; y++) {
      out.set(indexed.indices.subarray(y * width, (y + 1) * width), offset + (height - 1 - y) * stride);
    }
    return out;
  }
  const px = bpp >> 3;
  for (let y = 0; y < height; y++) {
    const row = offset + (height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 4;
      const d = row + x * px;
      out[d] = data[s + 2]!;
      out[d + 1] = data[s + 1]!;
      out[d + 2] = data[s]!;
      if (px === 4) out[d + 3] = data[s + 3]!;
    }
  }
  return out;
}
