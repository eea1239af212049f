/**
 * The PNG writer: chunks (IHDR, PLTE, tRNS, IDAT, IEND), row filters and zlib. Deflate is native
 * where the platform has it — Node's zlib, reached through `process.getBuiltinModule` so that no
 * `node:` import reaches a browser bundle — and fflate's (pure JS) elsewhere.
 *
 * Filters: paletted images and truecolour images decoded from block-compressed textures (DXT
 * blocks repeat exactly, which deflate finds best unfiltered) compress best with filter 0;
 * photographic images with per-row adaptive filters (the smallest sum of absolute differences).
 * For truecolour images both are tried on a sample of rows and the better one encodes the image.
 */
import { nodeBuiltin } from '@gltf-legacy/core';
import { zlibSync } from 'fflate';

interface NodeZlib {
  deflateSync(data: Uint8Array, options: { level: number; memLevel?: number }): Uint8Array;
}

function native(): NodeZlib | null {
  return nodeBuiltin<NodeZlib>('node:zlib');
}

/**
 * A zlib stream (RFC 1950) of `data`: Node's native zlib when available (and `js` is false),
 * else fflate. fflate also finds 3-byte matches, which Node's zlib (Chromium's, hashing 4 bytes)
 * does not: on RGB decoded from DXT blocks, where one pixel is 3 bytes, fflate's output is ~5 %
 * smaller (the 11 DDS of corpus/textured: 3.11 MB against 3.28 MB at level 6, ~2× the time).
 *
 * ```ts
 * const z = zlibDeflate(new Uint8Array(1000), 6); // ~17 bytes
 * ```
 */
export function zlibDeflate(data: Uint8Array, level = 6, js = false): Uint8Array {
  const z = js ? null : native();
  if (z) {
    const out = z.deflateSync(data, { level, memLevel: 9 });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  return zlibSync(data, { level: level as 6, mem: 9 });
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Rows of `bpp`-byte pixels with filter 0 (a 0 byte before each row). */
function unfiltered(px: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) out.set(px.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return out;
}

/** Rows with the adaptive filter of each row: the one whose output has the smallest sum of |signed byte|. */
function adaptive(px: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(height * (stride + 1));
  const cand = [1, 2, 3, 4].map(() => new Uint8Array(stride));
  const zero = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = px.subarray(y * stride, (y + 1) * stride);
    const up = y ? px.subarray((y - 1) * stride, y * stride) : zero;
    let best = 0;
    let bestSum = 0;
    for (let i = 0; i < stride; i++) {
      const v = row[i]!;
      bestSum += v < 128 ? v : 256 - v;
    }
    const [sub, upf, avg, paeth] = cand as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    for (let i = 0; i < stride; i++) {
      const x = row[i]!;
      const a = i >= bpp ? row[i - bpp]! : 0;
      const b = up[i]!;
      const c = i >= bpp ? up[i - bpp]! : 0;
      const pa = Math.abs(b - c);
      const pb = Math.abs(a - c);
      const pc = Math.abs(a + b - 2 * c);
      const pr = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const v1 = (x - a) & 255;
      const v2 = (x - b) & 255;
      const v3 = (x - ((a + b) >> 1)) & 255;
      const v4 = (x - pr) & 255;
      sub[i] = v1;
      upf[i] = v2;
      avg[i] = v3;
      paeth[i] = v4;
      s1 += v1 < 128 ? v1 : 256 - v1;
      s2 += v2 < 128 ? v2 : 256 - v2;
      s3 += v3 < 128 ? v3 : 256 - v3;
      s4 += v4 < 128 ? v4 : 256 - v4;
    }
    const sums = [s1, s2, s3, s4];
    for (let f = 0; f < 4; f++)
      if (sums[f]! < bestSum) {
        bestSum = sums[f]!;
        best = f + 1;
      }
    const o = y * (stride + 1);
    out[o] = best;
    out.set(best === 0 ? row : cand[best - 1]!, o + 1);
  }
  return out;
}

/**
 * Whether adaptive filters beat filter 0 for this image: both are tried on a sample (8 rows of
 * every 64, the whole image when it is small) and the smaller deflate wins — one full deflate
 * instead of two.
 */
function useAdaptive(px: Uint8Array, width: number, height: number, bpp: number, level: number): boolean {
  const stride = width * bpp;
  let sample = px;
  let rows = height;
  if (height > 64) {
    const picked: number[] = [];
    for (let y = 0; y < height; y++) if ((y & 63) < 8) picked.push(y);
    sample = new Uint8Array(picked.length * stride);
    picked.forEach((y, i) => {
      sample.set(px.subarray(y * stride, (y + 1) * stride), i * stride);
    });
    rows = picked.length;
  }
  const plain = zlibDeflate(unfiltered(sample, width, rows, bpp), level).byteLength;
  const filtered = zlibDeflate(adaptive(sample, width, rows, bpp), level).byteLength;
  return filtered < plain;
}

/** How {@link writePng} compresses. */
export interface WritePngOptions {
  /**
   * The pixels were decoded from DXT/BC blocks: filter 0 without trying adaptive filters (repeated
   * blocks deflate best unfiltered) and fflate's deflate, which finds 3-byte (one RGB pixel)
   * matches. Default false.
   */
  blockCompressed?: boolean;
}

/** What {@link writePng} writes. */
export interface PngPixels {
  width: number;
  height: number;
  /** 8-bit samples: 1 (palette indices), 3 (RGB) or 4 (RGBA) per pixel, rows top-down. */
  channels: 1 | 3 | 4;
  data: Uint8Array;
  /** With `channels` 1: the palette, 3 bytes per entry (≤ 256 entries). */
  palette?: Uint8Array;
  /** With a palette: alpha of the first entries (tRNS); the others are opaque. */
  alpha?: Uint8Array;
}

/**
 * Writes a PNG: 8-bit paletted (PLTE, tRNS), RGB or RGBA; filter 0 for paletted images, filter 0
 * or adaptive filters for truecolour (whichever deflates smaller on a sample of rows); zlib
 * (native in Node) at `level`.
 *
 * ```ts
 * const png = writePng({ width: 1, height: 1, channels: 3, data: new Uint8Array([255, 0, 0]) });
 * ```
 */
export function writePng(p: PngPixels, level = 6, how: WritePngOptions = {}): Uint8Array {
  const { width, height, channels } = p;
  let idat: Uint8Array;
  if (channels === 1) idat = zlibDeflate(unfiltered(p.data, width, height, 1), level);
  else if (how.blockCompressed) idat = zlibDeflate(unfiltered(p.data, width, height, channels), level, true);
  else if (useAdaptive(p.data, width, height, channels, level))
    idat = zlibDeflate(adaptive(p.data, width, height, channels), level);
  else idat = zlibDeflate(unfiltered(p.data, width, height, channels), level);
  const chunks: [string, Uint8Array][] = [];
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = channels === 1 ? 3 : channels === 3 ? 2 : 6;
  chunks.push(['IHDR', ihdr]);
  if (channels === 1) {
    chunks.push(['PLTE', p.palette ?? new Uint8Array(3)]);
    if (p.alpha?.length) chunks.push(['tRNS', p.alpha]);
  }
  chunks.push(['IDAT', idat], ['IEND', new Uint8Array(0)]);
  let size = 8;
  for (const [, d] of chunks) size += 12 + d.byteLength;
  const out = new Uint8Array(size);
  const ov = new DataView(out.buffer);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let o = 8;
  for (const [type, d] of chunks) {
    ov.setUint32(o, d.byteLength);
    for (let i = 0; i < 4; i++) out[o + 4 + i] = type.charCodeAt(i);
    out.set(d, o + 8);
    ov.setUint32(o + 8 + d.byteLength, crc32(out, o + 4, o + 8 + d.byteLength));
    o += 12 + d.byteLength;
  }
  return out;
}
