import { checkDimensions, need, textureError, u16 } from './limits.js';
import type { RgbaImage } from './types.js';

/** A decoded PCX: the RGBA and, for 8-bit paletted files, the indices and the 256-colour palette. */
export interface PcxImage extends RgbaImage {
  /** Palette index per pixel (8-bit single-plane files only). */
  indices?: Uint8Array;
  /** 256 RGB triplets (768 bytes) from the end of the file (8-bit single-plane files only). */
  palette?: Uint8Array;
  /** Bits per pixel per plane × planes, e.g. 8 (paletted) or 24. */
  bitsPerPixel: number;
}

/** Options of {@link decodePcx}. */
export interface DecodePcxOptions {
  /** File name for error messages. */
  file?: string;
}

export const DECODE_PCX_DEFAULTS: Required<Omit<DecodePcxOptions, 'file'>> = {};

const HEADER = 128;
const PALETTE_BYTES = 769;

/**
 * Decodes a ZSoft PCX: 8-bit single-plane with the VGA palette at the end (marker 0x0C, 768 bytes;
 * without one the indices are read as grey), 24-bit (3 planes) and 32-bit (4 planes), RLE or raw.
 * Runs may cross scanlines, as some writers emit them. Sizes are checked before allocating: a
 * header claiming more pixels than the bytes left can hold (63 bytes per 2-byte run) is an error.
 *
 * ```ts
 * const pcx = decodePcx(bytes, { file: 'JSporifier.pcx' });
 * pcx.palette![pcx.indices![0]! * 3]; // red of the first pixel
 * ```
 */
export function decodePcx(bytes: Uint8Array, options: DecodePcxOptions = {}): PcxImage {
  const file = options.file;
  need(bytes, 0, HEADER, file, 'header');
  if (bytes[0] !== 0x0a)
    textureError(
      `not a PCX (first byte 0x${bytes[0]!.toString(16)}, expected 0x0a)`,
      file,
      0,
      'manufacturer',
    );
  const encoding = bytes[2]!;
  const bpp = bytes[3]!;
  const xmin = u16(bytes, 4);
  const ymin = u16(bytes, 6);
  const xmax = u16(bytes, 8);
  const ymax = u16(bytes, 10);
  const planes = bytes[65]!;
  const bytesPerLine = u16(bytes, 66);
  if (xmax < xmin || ymax < ymin)
    textureError(`window ${xmin},${ymin}–${xmax},${ymax} is empty`, file, 4, 'window');
  const width = xmax - xmin + 1;
  const height = ymax - ymin + 1;
  checkDimensions(width, height, file, 4, 'window');
  if (encoding > 1) textureError(`encoding ${encoding} is not 0 (raw) or 1 (RLE)`, file, 2, 'encoding');
  if (bpp !== 8 || (planes !== 1 && planes !== 3 && planes !== 4)) {
    textureError(
      `${bpp} bits × ${planes} planes is not supported (8×1 paletted, 8×3 RGB, 8×4 RGBA)`,
      file,
      3,
      'bitsPerPixel',
      'UNSUPPORTED_TEXTURE',
    );
  }
  if (bytesPerLine < width)
    textureError(`bytesPerLine ${bytesPerLine} is less than the width ${width}`, file, 66, 'bytesPerLine');
  const paletted = planes === 1;
  const hasPalette =
    paletted && bytes.length >= HEADER + PALETTE_BYTES && bytes[bytes.length - PALETTE_BYTES] === 0x0c;
  const end = hasPalette ? bytes.length - PALETTE_BYTES : bytes.length;
  const lineBytes = bytesPerLine * planes;
  const total = lineBytes * height;
  const left = end - HEADER;
  const maxOut = encoding === 1 ? Math.floor(left / 2) * 63 + (left % 2) : left;
  if (total > maxOut) {
    textureError(
      `${width}×${height} needs ${total} bytes of scanlines; the ${left} bytes left hold at most ${maxOut}`,
      file,
      HEADER,
      'pixels',
      'TRUNCATED',
    );
  }
  const lines = new Uint8Array(total);
  if (encoding === 1) {
    let o = HEADER;
    let p = 0;
    while (p < total) {
      if (o >= end)
        textureError(`RLE data ends after ${p} of ${total} bytes`, file, o, 'pixels', 'TRUNCATED');
      const b = bytes[o++]!;
      if (b >= 0xc0) {
        if (o >= end) textureError('RLE run has no value byte', file, o - 1, 'pixels', 'TRUNCATED');
        const v = bytes[o++]!;
        const n = Math.min(b & 0x3f, total - p);
        lines.fill(v, p, p + n);
        p += n;
      } else lines[p++] = b;
    }
  } else lines.set(bytes.subarray(HEADER, HEADER + total));
  const n = width * height;
  const data = new Uint8Array(n * 4);
  if (paletted) {
    const indices = new Uint8Array(n);
    for (let y = 0; y < height; y++)
      indices.set(lines.subarray(y * lineBytes, y * lineBytes + width), y * width);
    const palette = new Uint8Array(768);
    if (hasPalette) palette.set(bytes.subarray(bytes.length - 768));
    else for (let i = 0; i < 256; i++) palette[i * 3] = palette[i * 3 + 1] = palette[i * 3 + 2] = i;
    for (let i = 0; i < n; i++) {
      const c = indices[i]! * 3;
      data[i * 4] = palette[c]!;
      data[i * 4 + 1] = palette[c + 1]!;
      data[i * 4 + 2] = palette[c + 2]!;
      data[i * 4 + 3] = 255;
    }
    return { width, height, data, indices, palette, bitsPerPixel: 8 };
  }
  for (let y = 0; y < height; y++) {
    const row = y * lineBytes;
    for (let x = 0; x < width; x++) {
      const d = (y * width + x) * 4;
      data[d] = lines[row + x]!;
      data[d + 1] = lines[row + bytesPerLine + x]!;
      data[d + 2] = lines[row + 2 * bytesPerLine + x]!;
      data[d + 3] = planes === 4 ? lines[row + 3 * bytesPerLine + x]! : 255;
    }
  }
  return { width, height, data, bitsPerPixel: 8 * planes };
}
