import { hasAlpha } from './alpha.js';
import { BC_BLOCK_BYTES, type BcFormat, bcLevelSize } from './bc.js';
import { encodeAlphaBlock, encodeColourBlock } from './bc-encode.js';
import { mipChain } from './mips.js';
import type { RgbaImage } from './types.js';

/** Options of {@link encodeDds}. */
export interface EncodeDdsOptions {
  /** `auto`: BC1 when every alpha is 255, else BC3; `rgba8`: uncompressed 32-bit. Default `auto`. */
  format?: 'auto' | 'bc1' | 'bc3' | 'bc4' | 'bc5' | 'rgba8';
  /** Write the full mip chain down to 1×1 (box filter). Default true. */
  mipmaps?: boolean;
}

export const ENCODE_DDS_DEFAULTS: Required<EncodeDdsOptions> = { format: 'auto', mipmaps: true };

const FOURCC: Partial<Record<BcFormat, string>> = { bc1: 'DXT1', bc3: 'DXT5', bc4: 'ATI1', bc5: 'ATI2' };

/**
 * Encodes one level as BC blocks (edge blocks repeat their last row/column).
 *
 * ```ts
 * const blocks = encodeBlocks('bc3', image);
 * ```
 */
export function encodeBlocks(format: Exclude<BcFormat, 'bc2'>, image: RgbaImage): Uint8Array {
  const { width, height, data } = image;
  const bw = Math.ceil(width / 4);
  const bh = Math.ceil(height / 4);
  const out = new Uint8Array(bw * bh * BC_BLOCK_BYTES[format]);
  const px = new Uint8Array(64);
  let o = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      for (let y = 0; y < 4; y++) {
        const sy = Math.min(height - 1, by * 4 + y);
        for (let x = 0; x < 4; x++) {
          const sx = Math.min(width - 1, bx * 4 + x);
          const s = (sy * width + sx) * 4;
          const d = (y * 4 + x) * 4;
          px[d] = data[s]!;
          px[d + 1] = data[s + 1]!;
          px[d + 2] = data[s + 2]!;
          px[d + 3] = data[s + 3]!;
        }
      }
      if (format === 'bc1') {
        encodeColourBlock(px, out, o, true);
        o += 8;
      } else if (format === 'bc3') {
        encodeAlphaBlock(px, 4, 3, out, o);
        encodeColourBlock(px, out, o + 8, false);
        o += 16;
      } else if (format === 'bc4') {
        encodeAlphaBlock(px, 4, 0, out, o);
        o += 8;
      } else {
        encodeAlphaBlock(px, 4, 0, out, o);
        encodeAlphaBlock(px, 4, 1, out, o + 8);
        o += 16;
      }
    }
  }
  return out;
}

/**
 * Encodes RGBA as a DDS: BC1 (opaque or 1-bit alpha), BC3, BC4 (red), BC5 (red + green, for normal
 * maps), or uncompressed RGBA8 (A8R8G8B8 masks), with a full mip chain by default.
 *
 * ```ts
 * const dds = encodeDds(image); // DXT1 when opaque, DXT5 with alpha, all mips
 * ```
 */
export function encodeDds(image: RgbaImage, options: EncodeDdsOptions = {}): Uint8Array {
  const o = { ...ENCODE_DDS_DEFAULTS, ...options };
  let format = o.format;
  if (format === 'auto') format = hasAlpha(image.data) ? 'bc3' : 'bc1';
  const levels = o.mipmaps ? mipChain(image) : [image];
  const bodies = levels.map((l) => {
    if (format === 'rgba8') {
      const b = new Uint8Array(l.width * l.height * 4);
      for (let i = 0; i < b.length; i += 4) {
        b[i] = l.data[i + 2]!;
        b[i + 1] = l.data[i + 1]!;
        b[i + 2] = l.data[i]!;
        b[i + 3] = l.data[i + 3]!;
      }
      return b;
    }
    return encodeBlocks(format, l);
  });
  const total = bodies.reduce((n, b) => n + b.length, 0);
  const out = new Uint8Array(128 + total);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  const compressed = format !== 'rgba8';
  // CAPS | HEIGHT | WIDTH | PIXELFORMAT | (LINEARSIZE or PITCH) | MIPMAPCOUNT
  v.setUint32(8, 0x1007 | (compressed ? 0x80000 : 0x8) | (levels.length > 1 ? 0x20000 : 0), true);
  v.setUint32(12, image.height, true);
  v.setUint32(16, image.width, true);
  v.setUint32(
    20,
    compressed ? bcLevelSize(format as BcFormat, image.width, image.height) : image.width * 4,
    true,
  );
  v.setUint32(28, levels.length, true);
  v.setUint32(76, 32, true);
  if (compressed) {
    v.setUint32(80, 0x4, true);
    const cc = FOURCC[format as BcFormat]!;
    for (let i = 0; i < 4; i++) out[84 + i] = cc.charCodeAt(i);
  } else {
    v.setUint32(80, 0x41, true); // RGB | ALPHAPIXELS
    v.setUint32(88, 32, true);
    v.setUint32(92, 0x00ff0000, true);
    v.setUint32(96, 0x0000ff00, true);
    v.setUint32(100, 0x000000ff, true);
    v.setUint32(104, 0xff000000, true);
  }
  v.setUint32(108, 0x1000 | (levels.length > 1 ? 0x400008 : 0), true);
  let at = 128;
  for (const b of bodies) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
