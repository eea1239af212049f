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
  /** Rewrites a path the file names (texture, material, buffer) into an escape: see escapePath. */
  escape(bytes, rng) {
    return escapePath(bytes, rng);
  },
};

/**
 * What the escape mutator writes where a file names another: absolute paths (POSIX, drive,
 * UNC), `..` climbs (plain, backslashed, percent-encoded, hidden behind a folder), URI schemes
 * other than `data:`, and a NUL. Every one must end in a typed error (`PATH_ESCAPE` /
 * `EXTERNAL_URI`) or be ignored, never in a read outside the input's folder.
 */
export const ESCAPES = [
  '/etc/passwd',
  '../../../../../../etc/passwd',
  '..\\..\\..\\..\\Windows\\win.ini',
  'Textures/../../../../etc/hostname',
  '%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  '%2Fetc%2Fpasswd',
  'C:\\Windows\\win.ini',
  '\\\\host\\share\\x.pcx',
  'file:///etc/passwd',
  'http://127.0.0.1:9/x.png',
  'https://example.com/t.dds',
  'a\u0000b.pcx',
  '..',
];

/**
 * `esc` made `len` characters long without changing what it is: separators inserted after a
 * scheme's `//`, an absolute path's first separator or a drive, else `./` and `/` in front of a
 * relative escape.
 */
export function padEscape(esc, len) {
  const k = len - esc.length;
  if (k <= 0) return esc;
  const scheme = /^[a-z][a-z0-9+.-]+:\/\//i.exec(esc);
  if (scheme) return esc.slice(0, scheme[0].length) + '/'.repeat(k) + esc.slice(scheme[0].length);
  if (esc[0] === '/' || esc[0] === '\\') return esc[0] + esc[0].repeat(k) + esc.slice(1);
  if (/^[a-z]:/i.test(esc)) return esc.slice(0, 2) + '\\'.repeat(k) + esc.slice(2);
  return (k === 1 ? '/' : `.${'/'.repeat(k - 1)}`) + esc;
}

/** Names other files: an extension the formats reference (textures, materials, models, buffers). */
const PATH_LIKE =
  /[\x21-\x7e]{0,120}?\.(?:pcx|bmp|tga|dds|png|jpe?g|webp|xml|uc|mdl|ani|mat|lua|bin|skel|mesh|anim|apr|bnd|model|animation|3d|gltf)(?![a-z0-9])/gi;

/**
 * Rewrites one path-like string of the input (a texture, material, model or buffer reference)
 * into an escape ({@link ESCAPES}), keeping the file's length when the escape fits (padded with
 * `/` inside it, so length-prefixed strings stay framed), else changing it. Files with no such
 * string get an escape written over a random place.
 */
export function escapePath(bytes, rng) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const spans = [];
  PATH_LIKE.lastIndex = 0;
  for (let m = PATH_LIKE.exec(text); m && spans.length < 64; m = PATH_LIKE.exec(text)) {
    // start at the last quote, '=', space or NUL before the extension: the reference itself
    const cut = Math.max(...['"', "'", '=', ' ', '>', '<', ';'].map((c) => m[0].lastIndexOf(c)));
    spans.push([m.index + cut + 1, m.index + m[0].length]);
  }
  const esc = new TextEncoder().encode(rng.pick(ESCAPES));
  if (!spans.length) {
    const out = bytes.slice();
    const at = rng.int(Math.max(1, out.length - esc.length));
    out.set(esc.subarray(0, Math.max(0, Math.min(esc.length, out.length - at))), at);
    return out;
  }
  const [start, end] = rng.pick(spans);
  const len = end - start;
  let repl = esc;
  if (rng.chance(0.7) && esc.length <= len)
    repl = new TextEncoder().encode(padEscape(new TextDecoder().decode(esc), len));
  const out = new Uint8Array(bytes.length - len + repl.length);
  out.set(bytes.subarray(0, start), 0);
  out.set(repl, start);
  out.set(bytes.subarray(end), start + repl.length);
  return out;
}

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
  escape: 2,
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
