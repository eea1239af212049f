/**
 * How the importer stores one morph target's deltas (issue 19): POSITION deltas as the integers
 * they are (the `_a.3d` holds whole Unreal units, so a delta to frame 0 is a whole number) in the
 * smallest `KHR_mesh_quantization` type that holds every value — non-normalized BYTE, else SHORT,
 * else float (Deus Ex frames can move 65 535 units) — sparse when at most half the vertices move
 * and that is smaller; NORMAL deltas as normalized BYTE or SHORT (see {@link encodeNormalDelta}).
 * `float: true` keeps float32 for all.
 */
import type { Accessor, Buffer, Document } from '@gltf-transform/core';

/** A delta array ready for an accessor, and whether it should be written sparse. */
export interface EncodedDelta {
  array: Int8Array | Int16Array | Float32Array;
  normalized: boolean;
  sparse: boolean;
}

/**
 * Least `s` a NORMAL delta may be scaled to in BYTE (see {@link encodeNormalDelta}); below it the
 * delta is stored as normalized SHORT, whose 256× finer step allows `s` down to
 * {@link NORMAL_MIN_SCALE_SHORT} for the same angular bound, and below that as float32.
 */
export const NORMAL_MIN_SCALE = 0.5;

/** Least `s` of a normalized SHORT NORMAL delta: the BYTE bound at 1/32767 steps. */
export const NORMAL_MIN_SCALE_SHORT = (NORMAL_MIN_SCALE * 254) / 65534;

/**
 * Worst angle (radians) between the direction a client decodes from a BYTE or SHORT normal delta
 * at weight 1 and the exact smooth normal: `asin(√3 / (254 · NORMAL_MIN_SCALE))` ≈ 0.78°.
 */
export const NORMAL_MAX_ANGLE = Math.asin(Math.sqrt(3) / (254 * NORMAL_MIN_SCALE));

const pad4 = (n: number) => (n + 3) & ~3;

/**
 * Bytes of `vcount` VEC3 elements of `bpe`-byte components stored dense (a vertex attribute's
 * stride is padded to 4 bytes) or sparse with `nonZero` entries and `idxBytes`-byte indices.
 */
export function deltaBytes(vcount: number, bpe: number, nonZero: number, idxBytes: number) {
  return { dense: vcount * pad4(3 * bpe), sparse: pad4(nonZero * idxBytes) + pad4(nonZero * 3 * bpe) };
}

/**
 * POSITION delta of one primitive for one frame: `fr − base` per glTF vertex j at file vertex
 * `orig[j]`, Unreal (X, Y, Z) swapped to glTF (X, Z, Y). Null when every delta is zero. `scratch`
 * holds at least `vcount·3` values. `idxBytes`: size of the sparse indices the writer will use.
 *
 * ```ts
 * const d = encodePositionDelta(frame, frame0, orig, vcount, new Int32Array(vcount * 3), 2, false);
 * ```
 */
export function encodePositionDelta(
  fr: Float32Array,
  base: Float32Array,
  orig: Uint16Array,
  vcount: number,
  scratch: Int32Array,
  idxBytes: number,
  float: boolean,
): EncodedDelta | null {
  let max = 0;
  let nonZero = 0;
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const o = orig[j] * 3;
    const dx = fr[o] - base[o];
    const dy = fr[o + 2] - base[o + 2];
    const dz = fr[o + 1] - base[o + 1];
    scratch[k] = dx;
    scratch[k + 1] = dy;
    scratch[k + 2] = dz;
    const m = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
    if (m > 0) {
      nonZero++;
      if (m > max) max = m;
    }
  }
  if (nonZero === 0) return null;
  const n = vcount * 3;
  // The raw positions are whole numbers, so their differences are too: any integer type that holds
  // the largest holds them exactly (and decodes to the same float32 as before).
  if (float || max > 32767) {
    const out = new Float32Array(n);
    out.set(scratch.subarray(0, n));
    return { array: out, normalized: false, sparse: false };
  }
  const bpe = max > 127 ? 2 : 1;
  const size = deltaBytes(vcount, bpe, nonZero, idxBytes);
  const out = bpe === 1 ? new Int8Array(n) : new Int16Array(n);
  out.set(scratch.subarray(0, n));
  // At most half the vertices: beyond that glTF-Transform's writer logs a size warning (the CLI
  // shows it as LIBRARY_LOG), and the saving is small.
  return { array: out, normalized: false, sparse: nonZero * 2 <= vcount && size.sparse < size.dense };
}

/**
 * NORMAL delta of one primitive for one frame, from smooth normals per file vertex (unit, glTF
 * axes): `target − base` per glTF vertex, or null when zero everywhere.
 *
 * Stored as normalized BYTE (`q/127`) unless `float`. A delta of two unit vectors can exceed 1 in a
 * component, which a normalized type cannot hold; since a client shades with
 * `normalize(base + Σ w·delta)`, the delta stored is `s·target − base` with `s ≤ 1` the largest
 * that fits (1 unless the normal turns past ~60°): at weight 1 its direction is `target`'s. Each
 * component is rounded by at most half a step (1/254 in BYTE), so the decoded direction is within
 * `asin(√3 / (254·s))` of the exact normal. When some vertex needs `s <` {@link NORMAL_MIN_SCALE},
 * the delta is normalized SHORT (same bound down to {@link NORMAL_MIN_SCALE_SHORT}), else float32
 * (a normal turned across the plane its frame-0 normal is nearly perpendicular to).
 * (Never sparse: glTF-Transform 4.5 writes sparse values of normalized accessors decoded, i.e. 0.)
 *
 * ```ts
 * const d = encodeNormalDelta(frameNormals, normals0, orig, vcount, false, new Float32Array(vcount));
 * ```
 */
export function encodeNormalDelta(
  nf: Float32Array,
  n0: Float32Array,
  orig: Uint16Array,
  vcount: number,
  float: boolean,
  scratch: Float32Array,
): EncodedDelta | null {
  const n = vcount * 3;
  if (float) return floatNormalDelta(nf, n0, orig, vcount);
  let any = false;
  let smin = 1;
  // One pass: each vertex's scale (0: unchanged) and its BYTE delta, good when smin ≥ 0.5. The
  // values are within ±127 (|s·t − b| ≤ 1 by the choice of s), so no clamp is needed.
  const b8 = new Int8Array(n);
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const o = orig[j] * 3;
    const tx = nf[o];
    const ty = nf[o + 1];
    const tz = nf[o + 2];
    const bx = n0[o];
    const by = n0[o + 1];
    const bz = n0[o + 2];
    if (tx === bx && ty === by && tz === bz) {
      scratch[j] = 0;
      continue;
    }
    any = true;
    let s = 1;
    // |s·t − b| ≤ 1 per component: s ≤ (1 + b)/t for t > 0, (1 − b)/−t for t < 0.
    if (tx - bx > 1) s = Math.min(s, (1 + bx) / tx);
    else if (bx - tx > 1) s = Math.min(s, (1 - bx) / -tx);
    if (ty - by > 1) s = Math.min(s, (1 + by) / ty);
    else if (by - ty > 1) s = Math.min(s, (1 - by) / -ty);
    if (tz - bz > 1) s = Math.min(s, (1 + bz) / tz);
    else if (bz - tz > 1) s = Math.min(s, (1 - bz) / -tz);
    scratch[j] = s;
    if (s < smin) smin = s;
    b8[k] = Math.round((s * tx - bx) * 127);
    b8[k + 1] = Math.round((s * ty - by) * 127);
    b8[k + 2] = Math.round((s * tz - bz) * 127);
  }
  if (!any) return null;
  if (smin >= NORMAL_MIN_SCALE) return { array: b8, normalized: true, sparse: false };
  if (!(smin >= NORMAL_MIN_SCALE_SHORT)) return floatNormalDelta(nf, n0, orig, vcount);
  const out = new Int16Array(n);
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const s = scratch[j];
    if (s === 0) continue;
    const o = orig[j] * 3;
    out[k] = Math.round((s * nf[o] - n0[o]) * 32767);
    out[k + 1] = Math.round((s * nf[o + 1] - n0[o + 1]) * 32767);
    out[k + 2] = Math.round((s * nf[o + 2] - n0[o + 2]) * 32767);
  }
  return { array: out, normalized: true, sparse: false };
}

/** `target − base` per glTF vertex as float32 (null when zero everywhere). */
function floatNormalDelta(
  nf: Float32Array,
  n0: Float32Array,
  orig: Uint16Array,
  vcount: number,
): EncodedDelta | null {
  const out = new Float32Array(vcount * 3);
  let any = false;
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const o = orig[j] * 3;
    const dx = nf[o] - n0[o];
    const dy = nf[o + 1] - n0[o + 1];
    const dz = nf[o + 2] - n0[o + 2];
    out[k] = dx;
    out[k + 1] = dy;
    out[k + 2] = dz;
    if (dx !== 0 || dy !== 0 || dz !== 0) any = true;
  }
  return any ? { array: out, normalized: false, sparse: false } : null;
}

/**
 * An accessor for an encoded delta.
 *
 * ```ts
 * const acc = deltaAccessor(doc, buffer, encodeNormalDelta(nf, n0, orig, vcount, false)!);
 * ```
 */
export function deltaAccessor(doc: Document, buffer: Buffer, d: EncodedDelta): Accessor {
  const a = doc.createAccessor().setType('VEC3').setArray(d.array).setBuffer(buffer);
  if (d.normalized) a.setNormalized(true);
  if (d.sparse) a.setSparse(true);
  return a;
}
