/**
 * A RefPack compressor (the command table is in `refpack.ts`): greedy LZ77 over a hash chain of
 * 3-byte prefixes, window 128 KiB, copies of 3–1028 bytes, literals in runs of 4–112 bytes with
 * 0–3 carried by the next command. Correctness first: every stream it writes decodes with
 * `refpackDecompress` to the input (property-tested); ratio close to FreeSO's compressor.
 */

/** Options of {@link refpackCompress}. */
export interface RefPackCompressOptions {
  /** Candidates tried per position (longer: smaller output, slower). */
  maxChain?: number;
  /** Stop searching at a match this long. */
  niceLength?: number;
}

export const REFPACK_COMPRESS_DEFAULTS: Readonly<Required<RefPackCompressOptions>> = Object.freeze({
  maxChain: 16,
  niceLength: 258,
});

const WINDOW = 131072;
const MAX_COPY = 1028;
const HASH_BITS = 16;

/** Grows a byte buffer as commands are written. */
class Out {
  buf: Uint8Array;
  n = 0;
  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }
  room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  byte(b: number): void {
    this.buf[this.n++] = b;
  }
  copy(src: Uint8Array, from: number, k: number): void {
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < k; i++) buf[n++] = src[from + i];
    this.n = n;
  }
}

/** Writes literals `[from, to)` in runs of 4–112 (multiples of 4); returns where the 0–3 left over start. */
function literalRuns(out: Out, data: Uint8Array, from: number, to: number): number {
  while (to - from >= 4) {
    const k = Math.min(112, (to - from) & ~3);
    out.room(1 + k);
    out.byte(0xe0 + (k >> 2) - 1);
    out.copy(data, from, k);
    from += k;
  }
  return from;
}

/**
 * The RefPack stream of `data`: header `10 FB` + the 3-byte big-endian size (`90 FB` + 4 bytes
 * above 16 MiB − 1), then the commands, ending with a stop command.
 *
 * ```ts
 * const packed = refpackCompress(bytes);
 * refpackDecompress(packed, refpackHeader(packed).start, bytes.length); // equals bytes
 * ```
 */
export function refpackCompress(data: Uint8Array, options: RefPackCompressOptions = {}): Uint8Array {
  const maxChain = options.maxChain ?? REFPACK_COMPRESS_DEFAULTS.maxChain;
  const nice = Math.min(MAX_COPY, options.niceLength ?? REFPACK_COMPRESS_DEFAULTS.niceLength);
  const n = data.length;
  const out = new Out((n >> 1) + 64);
  const wide = n > 0xffffff;
  out.byte(wide ? 0x90 : 0x10);
  out.byte(0xfb);
  if (wide) out.byte((n >>> 24) & 255);
  out.byte((n >>> 16) & 255);
  out.byte((n >>> 8) & 255);
  out.byte(n & 255);
  // tables sized to the input (a small entry does not pay for a 128 KiB window)
  let bits = 8;
  while (bits < HASH_BITS && 1 << bits < n) bits++;
  const head = new Int32Array(1 << bits).fill(-1);
  let size = 16;
  while (size < WINDOW && size < n) size <<= 1;
  const prev = new Int32Array(size);
  const mask = size - 1;
  const shift = 32 - bits;
  let lit = 0; // start of the literals not yet written
  let i = 0;
  while (i + 3 <= n) {
    let bestLen = 0;
    let bestOff = 0;
    const limit = Math.min(MAX_COPY, n - i);
    let cand = head[Math.imul((data[i] << 16) | (data[i + 1] << 8) | data[i + 2], 0x9e3779b1) >>> shift];
    for (let chain = 0; cand >= 0 && chain < maxChain; chain++) {
      const off = i - cand;
      if (off > WINDOW) break;
      if (data[cand + bestLen] === data[i + bestLen]) {
        let k = 0;
        while (k < limit && data[cand + k] === data[i + k]) k++;
        // the shortest copies only reach so far (3 bytes: 1024 back, 4 bytes: 16384)
        const usable = k >= 5 || (k === 4 && off <= 16384) || (k === 3 && off <= 1024);
        if (usable && k > bestLen) {
          bestLen = k;
          bestOff = off;
          if (k >= nice) break;
        }
      }
      const next = prev[cand & mask];
      if (next >= cand) break; // an overwritten slot (outside the window)
      cand = next;
    }
    if (!bestLen) {
      const h = Math.imul((data[i] << 16) | (data[i + 1] << 8) | data[i + 2], 0x9e3779b1) >>> shift;
      prev[i & mask] = head[h];
      head[h] = i;
      i++;
      continue;
    }
    lit = literalRuns(out, data, lit, i);
    const plain = i - lit;
    const o = bestOff - 1;
    out.room(4 + plain);
    if (bestLen <= 10 && bestOff <= 1024) {
      out.byte(((o >> 8) << 5) | ((bestLen - 3) << 2) | plain);
      out.byte(o & 255);
    } else if (bestLen <= 67 && bestOff <= 16384) {
      out.byte(0x80 | (bestLen - 4));
      out.byte((plain << 6) | (o >> 8));
      out.byte(o & 255);
    } else {
      const l = bestLen - 5;
      out.byte(0xc0 | ((o >> 16) << 4) | ((l >> 8) << 2) | plain);
      out.byte((o >> 8) & 255);
      out.byte(o & 255);
      out.byte(l & 255);
    }
    out.copy(data, lit, plain);
    const end = i + bestLen;
    for (; i < end && i + 3 <= n; i++) {
      const h = Math.imul((data[i] << 16) | (data[i + 1] << 8) | data[i + 2], 0x9e3779b1) >>> shift;
      prev[i & mask] = head[h];
      head[h] = i;
    }
    i = end;
    lit = end;
  }
  lit = literalRuns(out, data, lit, n);
  out.room(4);
  out.byte(0xfc + (n - lit));
  out.copy(data, lit, n - lit);
  return out.buf.slice(0, out.n);
}
