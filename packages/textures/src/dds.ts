import { decodeBlocks } from './bc.js';
import { type DdsInfo, type DdsPixelFormat, readDdsHeader } from './dds-header.js';
import { textureError } from './limits.js';
import type { RgbaImage } from './types.js';

/** A decoded DDS: the requested mip level as RGBA and the header facts. */
export interface DdsImage extends RgbaImage {
  info: DdsInfo;
  level: number;
}

/** Options of {@link decodeDds}. */
export interface DecodeDdsOptions {
  /** File name for error messages. */
  file?: string;
  /** Mip level to decode (default 0, the largest). */
  level?: number;
}

export const DECODE_DDS_DEFAULTS: Required<Omit<DecodeDdsOptions, 'file'>> = { level: 0 };

function maskShift(mask: number): number {
  return mask === 0 ? 0 : 31 - Math.clz32(mask & -mask);
}

function decodeMasks(
  pf: Extract<DdsPixelFormat, { kind: 'masks' }>,
  src: Uint8Array,
  offset: number,
  width: number,
  height: number,
  out: Uint8Array,
): void {
  const bpp = pf.bitCount >> 3;
  const shifts = pf.masks.map(maskShift);
  const maxes = pf.masks.map((m, i) => (m >>> shifts[i]!) >>> 0);
  const n = width * height;
  const [mr, mg, mb, ma] = pf.masks;
  for (let i = 0, o = offset; i < n; i++, o += bpp) {
    let v = src[o]!;
    if (bpp > 1) v |= src[o + 1]! << 8;
    if (bpp > 2) v |= src[o + 2]! << 16;
    if (bpp > 3) v = (v | (src[o + 3]! << 24)) >>> 0;
    const r = mr ? Math.round(((((v & mr) >>> 0) >>> shifts[0]!) * 255) / maxes[0]!) : 0;
    const d = i * 4;
    if (pf.luminance) {
      out[d] = out[d + 1] = out[d + 2] = r;
    } else {
      out[d] = r;
      out[d + 1] = mg ? Math.round(((((v & mg) >>> 0) >>> shifts[1]!) * 255) / maxes[1]!) : 0;
      out[d + 2] = mb ? Math.round(((((v & mb) >>> 0) >>> shifts[2]!) * 255) / maxes[2]!) : 0;
    }
    out[d + 3] = ma ? Math.round(((((v & ma) >>> 0) >>> shifts[3]!) * 255) / maxes[3]!) : 255;
  }
}

/**
 * Decodes one mip level of a DDS (BC1–BC5, uncompressed by masks, DX10 header) to RGBA8.
 * BC5 normal maps come out as R = X, G = Y, B = reconstructed Z (see `bc.ts`).
 *
 * ```ts
 * const dds = decodeDds(bytes, { file: 'snail_red_dif.dds' });
 * dds.info.pixelFormat; // { kind: 'bc', format: 'bc2' }
 * ```
 */
export function decodeDds(bytes: Uint8Array, options: DecodeDdsOptions = {}): DdsImage {
  const info = readDdsHeader(bytes, options.file);
  const level = options.level ?? DECODE_DDS_DEFAULTS.level;
  const l = info.levels[level];
  if (!l)
    textureError(
      `mip level ${level} does not exist (${info.levels.length} levels)`,
      options.file,
      28,
      'dwMipMapCount',
    );
  const data = new Uint8Array(l.width * l.height * 4);
  const pf = info.pixelFormat;
  if (pf.kind === 'bc') decodeBlocks(pf.format, bytes, l.offset, l.width, l.height, data);
  else decodeMasks(pf, bytes, l.offset, l.width, l.height, data);
  return { width: l.width, height: l.height, data, info, level };
}
