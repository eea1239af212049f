import { palettize } from './quantize.js';
import type { RgbaImage } from './types.js';

/** Options of {@link encodePcx}. */
export interface EncodePcxOptions {
  /** Index 0 is the masked colour when the image has alpha below 128 (default true). */
  maskIndex0?: boolean;
  /** Horizontal and vertical resolution written in the header (default 72). */
  dpi?: number;
}

export const ENCODE_PCX_DEFAULTS: Required<EncodePcxOptions> = { maskIndex0: true, dpi: 72 };

/**
 * Writes an 8-bit paletted PCX (version 5, RLE) from indices and a 768-byte palette. Each scanline
 * is `width` rounded up to even bytes, padded with 0, and encoded on its own the way the classic
 * ZSoft encoder does: runs of up to 63 equal bytes as `0xC0|count, value`; a single byte below
 * 0xC0 as itself; a single byte of 0xC0 or more as `0xC1, value`.
 *
 * ```ts
 * const pcx = encodePcxIndexed(256, 256, indices, palette);
 * ```
 */
export function encodePcxIndexed(
  width: number,
  height: number,
  indices: Uint8Array,
  palette: Uint8Array,
  options: Pick<EncodePcxOptions, 'dpi'> = {},
): Uint8Array {
  const dpi = options.dpi ?? ENCODE_PCX_DEFAULTS.dpi;
  const bytesPerLine = width + (width & 1);
  // worst case: every byte ≥ 0xC0 alone → 2 bytes per byte
  const out = new Uint8Array(128 + bytesPerLine * height * 2 + 769);
  const v = new DataView(out.buffer);
  out[0] = 0x0a;
  out[1] = 5;
  out[2] = 1;
  out[3] = 8;
  v.setUint16(8, width - 1, true);
  v.setUint16(10, height - 1, true);
  v.setUint16(12, dpi, true);
  v.setUint16(14, dpi, true);
  out[65] = 1;
  v.setUint16(66, bytesPerLine, true);
  v.setUint16(68, 1, true);
  let o = 128;
  const line = new Uint8Array(bytesPerLine);
  for (let y = 0; y < height; y++) {
    line.set(indices.subarray(y * width, y * width + width));
    let x = 0;
    while (x < bytesPerLine) {
      const b = line[x]!;
      let run = 1;
      while (run < 63 && x + run < bytesPerLine && line[x + run] === b) run++;
      if (run > 1 || b >= 0xc0) {
        out[o++] = 0xc0 | run;
        out[o++] = b;
      } else out[o++] = b;
      x += run;
    }
  }
  out[o++] = 0x0c;
  out.set(palette.subarray(0, 768), o);
  return out.slice(0, o + 768);
}

/**
 * Encodes RGBA as an 8-bit paletted PCX: exact palette with ≤ 256 colours (255 when masked),
 * image-q quantization otherwise; pixels with alpha < 128 take index 0 when `maskIndex0`.
 *
 * ```ts
 * const pcx = encodePcx(image); // Unreal reads index 0 as transparent on masked polygons
 * ```
 */
export function encodePcx(image: RgbaImage, options: EncodePcxOptions = {}): Uint8Array {
  const o = { ...ENCODE_PCX_DEFAULTS, ...options };
  const indexed = palettize(image, { maskIndex0: o.maskIndex0 });
  return encodePcxIndexed(image.width, image.height, indexed.indices, indexed.palette, { dpi: o.dpi });
}
