/**
 * Block-compression decoders (BC1–BC5, a.k.a. DXT1/DXT3/DXT5/ATI1/ATI2) to RGBA8, following the
 * Direct3D block formats. Interpolated values are rounded to nearest:
 * - colours: 5:6:5 endpoints expanded by bit replication (`r << 3 | r >> 2`, `g << 2 | g >> 4`);
 *   4-colour mode `(2a + b + 1) / 3`, 3-colour mode `(a + b + 1) / 2` and index 3 transparent
 *   black (BC1 only when `c0 <= c1`; BC2/BC3 colour blocks are always 4-colour);
 * - alpha/red (BC3, BC4, BC5): 8-value mode `((7 - i)·a0 + i·a1 + 3) / 7` when `a0 > a1`, else the
 *   6-value mode `((5 - i)·a0 + i·a1 + 2) / 5` plus 0 and 255;
 * - BC4 is grey (R = G = B), BC5 is a normal map: R = X, G = Y and B reconstructed as
 *   `Z = sqrt(1 − x² − y²)` with x, y in −1…1 (mapped back to 0…255).
 */

export type BcFormat = 'bc1' | 'bc2' | 'bc3' | 'bc4' | 'bc5';

/** Bytes per 4×4 block. */
export const BC_BLOCK_BYTES: Readonly<Record<BcFormat, number>> = {
  bc1: 8,
  bc2: 16,
  bc3: 16,
  bc4: 8,
  bc5: 16,
};

/** Bytes of a `width`×`height` level in `format`. */
export function bcLevelSize(format: BcFormat, width: number, height: number): number {
  return Math.max(1, Math.ceil(width / 4)) * Math.max(1, Math.ceil(height / 4)) * BC_BLOCK_BYTES[format];
}

/** 5-bit and 6-bit channel values expanded to 8 bits by bit replication. */
export const EXPAND5 = Uint8Array.from({ length: 32 }, (_, v) => (v << 3) | (v >> 2));
export const EXPAND6 = Uint8Array.from({ length: 64 }, (_, v) => (v << 2) | (v >> 4));

/** Writes the 4 RGBA colours of a BC1 colour block at `o` into `pal` (16 bytes). */
function colourPalette(src: Uint8Array, o: number, pal: Uint8Array, allowThree: boolean): void {
  endpointPalette(src[o]! | (src[o + 1]! << 8), src[o + 2]! | (src[o + 3]! << 8), allowThree, pal);
}

/**
 * The 4 RGBA colours (16 bytes into `pal`) of 5:6:5 endpoints `c0`, `c1`: 4-colour mode when
 * `c0 > c1` or `allowThree` is false, else 3 colours and transparent black. Shared by the decoder
 * and the block predictor (`bc-predict.ts`).
 *
 * ```ts
 * endpointPalette(0xffff, 0x0000, true, pal); // white, black, 2/3 and 1/3 grey
 * ```
 */
export function endpointPalette(c0: number, c1: number, allowThree: boolean, pal: Uint8Array): void {
  const r0 = EXPAND5[(c0 >> 11) & 31]!;
  const g0 = EXPAND6[(c0 >> 5) & 63]!;
  const b0 = EXPAND5[c0 & 31]!;
  const r1 = EXPAND5[(c1 >> 11) & 31]!;
  const g1 = EXPAND6[(c1 >> 5) & 63]!;
  const b1 = EXPAND5[c1 & 31]!;
  pal[0] = r0;
  pal[1] = g0;
  pal[2] = b0;
  pal[3] = 255;
  pal[4] = r1;
  pal[5] = g1;
  pal[6] = b1;
  pal[7] = 255;
  if (c0 > c1 || !allowThree) {
    pal[8] = ((2 * r0 + r1 + 1) / 3) | 0;
    pal[9] = ((2 * g0 + g1 + 1) / 3) | 0;
    pal[10] = ((2 * b0 + b1 + 1) / 3) | 0;
    pal[11] = 255;
    pal[12] = ((r0 + 2 * r1 + 1) / 3) | 0;
    pal[13] = ((g0 + 2 * g1 + 1) / 3) | 0;
    pal[14] = ((b0 + 2 * b1 + 1) / 3) | 0;
    pal[15] = 255;
  } else {
    pal[8] = (r0 + r1 + 1) >> 1;
    pal[9] = (g0 + g1 + 1) >> 1;
    pal[10] = (b0 + b1 + 1) >> 1;
    pal[11] = 255;
    pal[12] = 0;
    pal[13] = 0;
    pal[14] = 0;
    pal[15] = 0;
  }
}

/**
 * The 8 values of a BC3/BC4 alpha block whose endpoints are `a0`, `a1` (8-value mode when
 * a0 > a1, else 6 values plus 0 and 255), into `vals`.
 *
 * ```ts
 * const vals = new Uint8Array(8);
 * alphaValues(255, 0, vals); // 255, 0, 219, 182, 146, 109, 73, 36
 * ```
 */
export function alphaValues(a0: number, a1: number, vals: Uint8Array | Int32Array): void {
  vals[0] = a0;
  vals[1] = a1;
  if (a0 > a1) {
    for (let i = 1; i < 7; i++) vals[i + 1] = (((7 - i) * a0 + i * a1 + 3) / 7) | 0;
  } else {
    for (let i = 1; i < 5; i++) vals[i + 1] = (((5 - i) * a0 + i * a1 + 2) / 5) | 0;
    vals[6] = 0;
    vals[7] = 255;
  }
}

/** Writes the 8 values of a BC3/BC4 alpha block at `o` into `vals`. */
function alphaPalette(src: Uint8Array, o: number, vals: Uint8Array): void {
  alphaValues(src[o]!, src[o + 1]!, vals);
}

/** The 16 3-bit indices of an alpha block at `o` (bytes o+2…o+7) into `idx`. */
function alphaIndices(src: Uint8Array, o: number, idx: Uint8Array): void {
  const lo = src[o + 2]! | (src[o + 3]! << 8) | (src[o + 4]! << 16);
  const hi = src[o + 5]! | (src[o + 6]! << 8) | (src[o + 7]! << 16);
  for (let i = 0; i < 8; i++) {
    idx[i] = (lo >> (3 * i)) & 7;
    idx[i + 8] = (hi >> (3 * i)) & 7;
  }
}

/**
 * Decodes one 4×4 block to 64 RGBA bytes (row-major). `src` holds the block at `offset`.
 *
 * ```ts
 * // BC1 block: c0 = pure red, c1 = pure blue, every index 0 → 16 red pixels
 * decodeBcBlock('bc1', new Uint8Array([0x00, 0xf8, 0x1f, 0x00, 0, 0, 0, 0]));
 * ```
 */
export function decodeBcBlock(format: BcFormat, src: Uint8Array, offset = 0): Uint8Array {
  const out = new Uint8Array(64);
  decodeBlocks(format, src, offset, 4, 4, out);
  return out;
}

/**
 * Decodes a BC level of `width`×`height` pixels starting at `offset` into RGBA8 (`out` must hold
 * width × height × 4 bytes; the caller checked that the level's bytes are present).
 *
 * ```ts
 * const rgba = new Uint8Array(w * h * 4);
 * decodeBlocks('bc3', bytes, 128, w, h, rgba);
 * ```
 */
export function decodeBlocks(
  format: BcFormat,
  src: Uint8Array,
  offset: number,
  width: number,
  height: number,
  out: Uint8Array,
): void {
  if (format === 'bc1' && out.byteOffset % 4 === 0) {
    decodeBc1Fast(src, offset, width, height, new Uint32Array(out.buffer, out.byteOffset, width * height));
    return;
  }
  decodeBlocksGeneric(format, src, offset, width, height, out);
}

/** BC1 writing whole pixels as 32-bit words (host order on both sides, so any endianness). */
function decodeBc1Fast(
  src: Uint8Array,
  offset: number,
  width: number,
  height: number,
  out: Uint32Array,
): void {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const pal = new Uint8Array(16);
  const pal32 = new Uint32Array(pal.buffer);
  let o = offset;
  for (let by = 0; by < bh; by++) {
    const y0 = by * 4;
    const ch = Math.min(4, height - y0);
    for (let bx = 0; bx < bw; bx++, o += 8) {
      colourPalette(src, o, pal, true);
      const bits = (src[o + 4]! | (src[o + 5]! << 8) | (src[o + 6]! << 16) | (src[o + 7]! << 24)) >>> 0;
      const x0 = bx * 4;
      const cw = Math.min(4, width - x0);
      for (let y = 0; y < ch; y++) {
        const row = (y0 + y) * width + x0;
        const b = bits >>> (8 * y);
        out[row] = pal32[b & 3]!;
        if (cw > 1) out[row + 1] = pal32[(b >>> 2) & 3]!;
        if (cw > 2) out[row + 2] = pal32[(b >>> 4) & 3]!;
        if (cw > 3) out[row + 3] = pal32[(b >>> 6) & 3]!;
      }
    }
  }
}

function decodeBlocksGeneric(
  format: BcFormat,
  src: Uint8Array,
  offset: number,
  width: number,
  height: number,
  out: Uint8Array,
): void {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const blockBytes = BC_BLOCK_BYTES[format];
  const pal = new Uint8Array(16);
  const av = new Uint8Array(8);
  const ai = new Uint8Array(16);
  const gv = new Uint8Array(8);
  const gi = new Uint8Array(16);
  const px = new Uint8Array(64);
  const px32 = new Uint32Array(px.buffer);
  const pal32 = new Uint32Array(pal.buffer);
  let o = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, o += blockBytes) {
      if (format === 'bc1' || format === 'bc2' || format === 'bc3') {
        const co = format === 'bc1' ? o : o + 8;
        colourPalette(src, co, pal, format === 'bc1');
        const bits = (src[co + 4]! | (src[co + 5]! << 8) | (src[co + 6]! << 16) | (src[co + 7]! << 24)) >>> 0;
        for (let i = 0; i < 16; i++) px32[i] = pal32[(bits >>> (2 * i)) & 3]!;
        if (format === 'bc2') {
          for (let i = 0; i < 16; i++) px[i * 4 + 3] = ((src[o + (i >> 1)]! >> ((i & 1) * 4)) & 15) * 17;
        } else if (format === 'bc3') {
          alphaPalette(src, o, av);
          alphaIndices(src, o, ai);
          for (let i = 0; i < 16; i++) px[i * 4 + 3] = av[ai[i]!]!;
        }
      } else {
        alphaPalette(src, o, av);
        alphaIndices(src, o, ai);
        if (format === 'bc4') {
          for (let i = 0; i < 16; i++) {
            const v = av[ai[i]!]!;
            px[i * 4] = v;
            px[i * 4 + 1] = v;
            px[i * 4 + 2] = v;
            px[i * 4 + 3] = 255;
          }
        } else {
          alphaPalette(src, o + 8, gv);
          alphaIndices(src, o + 8, gi);
          for (let i = 0; i < 16; i++) {
            const r = av[ai[i]!]!;
            const g = gv[gi[i]!]!;
            const x = r / 127.5 - 1;
            const y = g / 127.5 - 1;
            const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
            px[i * 4] = r;
            px[i * 4 + 1] = g;
            px[i * 4 + 2] = Math.round((z + 1) * 127.5);
            px[i * 4 + 3] = 255;
          }
        }
      }
      const x0 = bx * 4;
      const y0 = by * 4;
      const cw = Math.min(4, width - x0);
      const ch = Math.min(4, height - y0);
      const n = cw * 4;
      for (let y = 0; y < ch; y++) {
        const d = ((y0 + y) * width + x0) * 4;
        const s = y * 16;
        for (let k = 0; k < n; k++) out[d + k] = px[s + k]!;
      }
    }
  }
}
