/**
 * Raw LZ4 block codec (no frame, no size prefix), as used by Urho3D ULZ4 packages.
 *
 * Written here rather than taken from `lz4js`: the decoder checks every read and write against
 * the block bounds (hostile packages must fail with a clear error, not write past a buffer), the
 * encoder is a small greedy hash matcher, and both are typed. Output of {@link lz4CompressBlock}
 * is valid LZ4 but not byte-identical to the reference `LZ4_compress_HC` used by PackageTool.
 */

/** Thrown by {@link lz4DecompressBlock} on malformed input. */
export class Lz4Error extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
    this.name = 'Lz4Error';
  }
}

/**
 * Decodes one raw LZ4 block `src[start, end)` into `dst[dstStart, dstEnd)`. Returns the number of
 * bytes written. Throws {@link Lz4Error} when the block reads or writes out of bounds.
 *
 * ```ts
 * const out = new Uint8Array(unpackedSize);
 * const n = lz4DecompressBlock(packed, 0, packed.length, out, 0, out.length);
 * ```
 */
export function lz4DecompressBlock(
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstStart: number,
  dstEnd: number,
): number {
  let s = start;
  let d = dstStart;
  while (s < end) {
    const token = src[s++];
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (s >= end) throw new Lz4Error('literal length runs past the block', s);
        b = src[s++];
        lit += b;
      } while (b === 255);
    }
    if (s + lit > end) throw new Lz4Error(`${lit} literal(s) run past the block`, s);
    if (d + lit > dstEnd) throw new Lz4Error(`${lit} literal(s) overflow the output`, s);
    if (lit < 32) for (let i = 0; i < lit; i++) dst[d++] = src[s++];
    else {
      dst.set(src.subarray(s, s + lit), d);
      s += lit;
      d += lit;
    }
    if (s >= end) break; // last sequence: literals only
    if (s + 2 > end) throw new Lz4Error('match offset runs past the block', s);
    const off = src[s] | (src[s + 1] << 8);
    s += 2;
    if (off === 0 || off > d - dstStart)
      throw new Lz4Error(`match offset ${off} points before the output`, s - 2);
    let len = token & 15;
    if (len === 15) {
      let b: number;
      do {
        if (s >= end) throw new Lz4Error('match length runs past the block', s);
        b = src[s++];
        len += b;
      } while (b === 255);
    }
    len += 4;
    if (d + len > dstEnd) throw new Lz4Error(`match of ${len} byte(s) overflows the output`, s);
    let m = d - off;
    if (off >= len && len >= 64) {
      dst.copyWithin(d, m, m + len);
      d += len;
    } else {
      for (let i = 0; i < len; i++) dst[d++] = dst[m++];
    }
  }
  return d - dstStart;
}

/** Worst-case compressed size of `n` bytes. */
export function lz4CompressBound(n: number): number {
  return n + Math.floor(n / 255) + 16;
}

const HASH_BITS = 14;
const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MF_LIMIT = 12;

function writeLength(dst: Uint8Array, d: number, n: number): number {
  while (n >= 255) {
    dst[d++] = 255;
    n -= 255;
  }
  dst[d++] = n;
  return d;
}

/**
 * Encodes `src[start, end)` as one raw LZ4 block (greedy single-probe hash matcher). Returns the
 * compressed bytes.
 *
 * ```ts
 * const packed = lz4CompressBlock(bytes, 0, bytes.length);
 * ```
 */
export function lz4CompressBlock(src: Uint8Array, start = 0, end = src.length): Uint8Array {
  const n = end - start;
  const dst = new Uint8Array(lz4CompressBound(n));
  const table = new Int32Array(1 << HASH_BITS).fill(-1);
  let d = 0;
  let anchor = start;
  let s = start;
  const matchLimit = end - LAST_LITERALS;
  const searchLimit = end - MF_LIMIT;
  const read32 = (i: number) => (src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24)) >>> 0;
  const hash = (v: number) => Math.imul(v, 2654435761) >>> (32 - HASH_BITS);
  while (s <= searchLimit) {
    const seq = read32(s);
    const h = hash(seq);
    const cand = table[h];
    table[h] = s;
    if (cand < 0 || s - cand > 65535 || read32(cand) !== seq) {
      s++;
      continue;
    }
    // Extend the match forward.
    let len = MIN_MATCH;
    while (s + len < matchLimit && src[cand + len] === src[s + len]) len++;
    const lit = s - anchor;
    const tokenAt = d++;
    let token = Math.min(lit, 15) << 4;
    if (lit >= 15) d = writeLength(dst, d, lit - 15);
    dst.set(src.subarray(anchor, s), d);
    d += lit;
    const off = s - cand;
    dst[d++] = off & 255;
    dst[d++] = off >>> 8;
    const ml = len - MIN_MATCH;
    token |= Math.min(ml, 15);
    if (ml >= 15) d = writeLength(dst, d, ml - 15);
    dst[tokenAt] = token;
    s += len;
    anchor = s;
  }
  const lit = end - anchor;
  dst[d++] = Math.min(lit, 15) << 4;
  if (lit >= 15) d = writeLength(dst, d, lit - 15);
  dst.set(src.subarray(anchor, end), d);
  d += lit;
  return dst.slice(0, d);
}
