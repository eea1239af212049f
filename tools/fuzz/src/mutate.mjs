// Byte-level mutation operators. Each takes the input bytes and returns NEW bytes; `mutate`
// stacks one to four of them. Operator names are recorded with every finding.
import { Rng } from './rng.mjs';

/** Values that break count and offset fields: huge, negative as signed, off-by-one. */
const U32_HUGE = [
  0xffffffff, 0xfffffffe, 0x7fffffff, 0x80000000, 0x10000000, 0x00ffffff, 0x40000000, 0x0001_0000,
];
const U16_HUGE = [0xffff, 0xfffe, 0x7fff, 0x8000, 0x1000];
const F32_BAD = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 3.4e38, -3.4e38, 1e-45];

/** Picks an offset biased to the start of the file, where headers and counts live. */
function offsetIn(rng, length, align = 1) {
  if (length <= 0) return 0;
  const limit = rng.chance(0.6) ? Math.min(length, 256) : length;
  const o = rng.int(limit);
  return o - (o % align);
}

export const OPERATORS = {
  /** Flips 1..8 random bits. */
  bitflip(bytes, rng) {
    const out = bytes.slice();
    if (out.length === 0) return out;
    const n = rng.range(1, 8);
    for (let i = 0; i < n; i++) out[offsetIn(rng, out.length)] ^= 1 << rng.int(8);
    return out;
  },
  /** Replaces one byte with an interesting value. */
  byteset(bytes, rng) {
    const out = bytes.slice();
    if (out.length === 0) return out;
    out[offsetIn(rng, out.length)] = rng.pick([0, 0xff, 0x7f, 0x80, 1, rng.int(256)]);
    return out;
  },
  /** Inserts 1..16 random (or repeated) bytes. */
  insert(bytes, rng) {
    const at = offsetIn(rng, bytes.length + 1);
    const n = rng.small(16);
    const out = new Uint8Array(bytes.length + n);
    out.set(bytes.subarray(0, at), 0);
    const fill = rng.int(256);
    for (let i = 0; i < n; i++) out[at + i] = rng.chance(0.5) ? fill : rng.int(256);
    out.set(bytes.subarray(at), at + n);
    return out;
  },
  /** Deletes 1..64 bytes. */
  delete(bytes, rng) {
    if (bytes.length === 0) return bytes.slice();
    const at = offsetIn(rng, bytes.length);
    const n = Math.min(bytes.length - at, rng.small(64));
    const out = new Uint8Array(bytes.length - n);
    out.set(bytes.subarray(0, at), 0);
    out.set(bytes.subarray(at + n), at);
    return out;
  },
  /** Cuts the file at a random length (often in the header). */
  truncate(bytes, rng) {
    return bytes.slice(0, offsetIn(rng, bytes.length));
  },
  /** Writes a huge value into an aligned little-endian u32. */
  u32(bytes, rng) {
    const out = bytes.slice();
    if (out.length < 4) return out;
    const at = Math.min(offsetIn(rng, out.length, rng.chance(0.7) ? 4 : 1), out.length - 4);
    new DataView(out.buffer).setUint32(at, rng.pick(U32_HUGE), rng.chance(0.9));
    return out;
  },
  /** Writes a huge value into an aligned little-endian u16. */
  u16(bytes, rng) {
    const out = bytes.slice();
    if (out.length < 2) return out;
    const at = Math.min(offsetIn(rng, out.length, rng.chance(0.7) ? 2 : 1), out.length - 2);
    new DataView(out.buffer).setUint16(at, rng.pick(U16_HUGE), rng.chance(0.9));
    return out;
  },
  /** Adds a small signed delta to an aligned u32 (off-by-one counts and offsets). */
  arith(bytes, rng) {
    const out = bytes.slice();
    if (out.length < 4) return out;
    const at = Math.min(offsetIn(rng, out.length, 4), out.length - 4);
    const v = new DataView(out.buffer);
    v.setUint32(at, (v.getUint32(at, true) + rng.pick([-2, -1, 1, 2, 16, -16])) >>> 0, true);
    return out;
  },
  /** Writes NaN / Infinity / huge floats into an aligned f32 (anywhere in the file). */
  f32(bytes, rng) {
    const out = bytes.slice();
    if (out.length < 4) return out;
    const o = rng.int(out.length - 3);
    new DataView(out.buffer).setFloat32(o - (o % 4), rng.pick(F32_BAD), true);
    return out;
  },
  /** Copies a chunk of the file over another place of itself (duplicated tables). */
  overwrite(bytes, rng) {
    const out = bytes.slice();
    if (out.length < 8) return out;
    const n = rng.range(1, Math.min(64, out.length >> 1));
    const from = rng.int(out.length - n);
    const to = rng.int(out.length - n);
    out.copyWithin(to, from, from + n);
    return out;
  },
};

/** Splices a prefix of `a` with a suffix of `b` (two files of the same format). */
export function splice(a, b, rng) {
  const cutA = rng.int(a.length + 1);
  const cutB = rng.int(b.length + 1);
  const out = new Uint8Array(cutA + (b.length - cutB));
  out.set(a.subarray(0, cutA), 0);
  out.set(b.subarray(cutB), cutA);
  return out;
}

const NAMES = Object.keys(OPERATORS);
const WEIGHTS = {
  bitflip: 3,
  byteset: 2,
  insert: 2,
  delete: 2,
  truncate: 2,
  u32: 4,
  u16: 2,
  arith: 2,
  f32: 1,
  overwrite: 1,
};
const TABLE = NAMES.flatMap((n) => Array(WEIGHTS[n] ?? 1).fill(n));

/**
 * Applies 1..4 stacked operators (and, when `other` is given, sometimes a splice first).
 * Returns the bytes and the list of operator names applied.
 *
 * ```js
 * const { bytes, ops } = mutate(seedBytes, new Rng(7), otherSeedBytes);
 * ```
 */
export function mutate(bytes, rng, other) {
  let out = bytes;
  const ops = [];
  if (other && rng.chance(0.12)) {
    out = splice(out, other, rng);
    ops.push('splice');
  }
  const n = rng.chance(0.6) ? 1 : rng.range(2, 4);
  for (let i = 0; i < n; i++) {
    const name = TABLE[rng.int(TABLE.length)];
    out = OPERATORS[name](out, rng);
    ops.push(name);
  }
  return { bytes: out, ops };
}

export { Rng };
