/**
 * How the importer stores one morph target's deltas. Portable (the default since issue 30):
 * float32, sparse when at most half the vertices move and that is smaller (sparse is core glTF).
 * Compact (`compact: true`, issue 19): POSITION deltas as the integers they are (the `_a.3d`
 * holds whole Unreal units, so a delta to frame 0 is a whole number) in the smallest
 * `KHR_mesh_quantization` type that holds every value — non-normalized BYTE, else SHORT, else
 * float (Deus Ex frames can move 65 535 units) — sparse on the same rule; NORMAL deltas as
 * normalized BYTE or SHORT (see {@link NormalDeltas}).
 */
import { roundHalfUp } from '@gltf-legacy/quantize';
import type { Accessor, Buffer, Document } from '@gltf-transform/core';

/** A delta array ready for an accessor, and whether it should be written sparse. */
export interface EncodedDelta {
  array: Int8Array | Int16Array | Float32Array;
  normalized: boolean;
  sparse: boolean;
}

/**
 * Least `s` a NORMAL delta may be scaled to in BYTE (see {@link NormalDeltas}); below it the
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
 * `float`: float32 values (the portable mode), else the smallest integer type.
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
  // The raw positions are whole numbers (|v| < 2^16), so their differences are too: any integer
  // type that holds the largest holds them exactly (and decodes to the same float32 as before).
  // `bits` ORs every |Δ|: below 2^7 / 2^15 exactly when every |Δ| is.
  let bits = 0;
  let nonZero = 0;
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const o = orig[j] * 3;
    const dx = fr[o] - base[o];
    const dy = fr[o + 2] - base[o + 2];
    const dz = fr[o + 1] - base[o + 1];
    scratch[k] = dx;
    scratch[k + 1] = dy;
    scratch[k + 2] = dz;
    const m = (dx < 0 ? -dx : dx) | (dy < 0 ? -dy : dy) | (dz < 0 ? -dz : dz);
    if (m !== 0) {
      nonZero++;
      bits |= m;
    }
  }
  if (nonZero === 0) return null;
  const n = vcount * 3;
  const max = bits;
  const bpe = float || max > 32767 ? 4 : max > 127 ? 2 : 1;
  const out = bpe === 4 ? new Float32Array(n) : bpe === 2 ? new Int16Array(n) : new Int8Array(n);
  out.set(scratch.subarray(0, n));
  // The compact mode's float32 fallback (Deus Ex moves beyond a SHORT) stays dense, as in issue 19.
  const sparse = (float || bpe < 4) && sparseWins(vcount, bpe, nonZero, idxBytes);
  return { array: out, normalized: false, sparse };
}

/**
 * Whether a delta of `nonZero` moved elements out of `vcount` is written sparse: when at most half
 * the vertices move (beyond that glTF-Transform's writer logs a size warning for the file, which
 * the CLI would show as LIBRARY_LOG on every such conversion, though sparse could still be
 * smaller there) and sparse is smaller than dense.
 */
function sparseWins(vcount: number, bpe: number, nonZero: number, idxBytes: number): boolean {
  const size = deltaBytes(vcount, bpe, nonZero, idxBytes);
  return nonZero * 2 <= vcount && size.sparse < size.dense;
}

/**
 * NORMAL deltas of one frame, computed once per file vertex and gathered per primitive
 * ({@link NormalDeltas.encode}); in `float` mode (portable) plain float32 differences, sparse
 * where that is smaller (as POSITION).
 *
 * Stored as normalized BYTE (`q/127`). A delta of two unit vectors can exceed 1 in a component,
 * which a normalized type cannot hold; since a client shades with `normalize(base + Σ w·delta)`,
 * the delta stored is `s·target − base` with `s ≤ 1` the largest that fits (1 unless the normal
 * turns past ~60°): at weight 1 its direction is `target`'s. Each component is rounded by at most
 * half a step (1/254 in BYTE), so the decoded direction is within `asin(√3 / (254·s))` of the
 * exact normal. When a vertex of the primitive needs `s <` {@link NORMAL_MIN_SCALE}, the delta is
 * normalized SHORT (same bound down to {@link NORMAL_MIN_SCALE_SHORT}), else float32 (a normal
 * turned across the plane its frame-0 normal is nearly perpendicular to).
 * (Never sparse: glTF-Transform 4.5 writes sparse values of normalized accessors decoded, i.e. 0.)
 *
 * ```ts
 * const nd = new NormalDeltas(normals0, false, 2);
 * nd.setFrame(frameNormals(frame, nv, tris, rendered));
 * const d = nd.encode(orig, vcount); // per primitive
 * ```
 */
export class NormalDeltas {
  /** Scale per file vertex; 2 marks a vertex whose normal did not change. */
  private readonly s: Float32Array;
  private readonly q8: Int8Array;
  private q16: Int16Array | null = null;
  private q16Fresh = false;
  private nf: Float32Array | null = null;

  /**
   * `n0`: frame 0's normals per file vertex; `float`: gather float32 differences only;
   * `idxBytes`: size of the sparse indices the writer will use (float deltas may be sparse).
   */
  constructor(
    private readonly n0: Float32Array,
    private readonly float = false,
    private readonly idxBytes = 4,
  ) {
    this.s = new Float32Array(float ? 0 : n0.length / 3);
    this.q8 = new Int8Array(float ? 0 : n0.length);
  }

  /** Takes one frame's normals (per file vertex, unit, glTF axes); kept by reference. */
  setFrame(nf: Float32Array): void {
    const { n0, s: scale, q8 } = this;
    this.nf = nf;
    this.q16Fresh = false;
    if (this.float) return;
    for (let v = 0, o = 0; v < scale.length; v++, o += 3) {
      const tx = nf[o];
      const ty = nf[o + 1];
      const tz = nf[o + 2];
      const bx = n0[o];
      const by = n0[o + 1];
      const bz = n0[o + 2];
      if (tx === bx && ty === by && tz === bz) {
        scale[v] = 2;
        q8[o] = 0;
        q8[o + 1] = 0;
        q8[o + 2] = 0;
        continue;
      }
      let s = 1;
      // |s·t − b| ≤ 1 per component: s ≤ (1 + b)/t for t > 0, (1 − b)/−t for t < 0.
      if (tx - bx > 1) s = Math.min(s, (1 + bx) / tx);
      else if (bx - tx > 1) s = Math.min(s, (1 - bx) / -tx);
      if (ty - by > 1) s = Math.min(s, (1 + by) / ty);
      else if (by - ty > 1) s = Math.min(s, (1 - by) / -ty);
      if (tz - bz > 1) s = Math.min(s, (1 + bz) / tz);
      else if (bz - tz > 1) s = Math.min(s, (1 - bz) / -tz);
      scale[v] = s;
      // Within ±127 (|s·t − b| ≤ 1 by the choice of s): no clamp needed.
      q8[o] = roundHalfUp((s * tx - bx) * 127);
      q8[o + 1] = roundHalfUp((s * ty - by) * 127);
      q8[o + 2] = roundHalfUp((s * tz - bz) * 127);
    }
  }

  /** The delta of the glTF vertices `orig[0‥vcount)` (file vertices), or null if all zero. */
  encode(orig: Uint16Array, vcount: number): EncodedDelta | null {
    const nf = this.nf;
    if (!nf) return null;
    if (this.float) return floatNormalDelta(nf, this.n0, orig, vcount, this.idxBytes);
    const scale = this.s;
    const q8 = this.q8;
    // The least scale first, so that only the array of the type it needs is made (a BYTE array
    // dropped for SHORT on most frames of a strongly turning mesh was garbage at the peak).
    let smin = 2;
    for (let j = 0; j < vcount; j++) {
      const s = scale[orig[j]];
      if (s < smin) smin = s;
    }
    if (smin === 2) return null;
    if (smin >= NORMAL_MIN_SCALE)
      return {
        array: gatherVec3(q8, orig, vcount, new Int8Array(vcount * 3)),
        normalized: true,
        sparse: false,
      };
    if (!(smin >= NORMAL_MIN_SCALE_SHORT)) return floatNormalDelta(nf, this.n0, orig, vcount, 0);
    const out = gatherVec3(this.shortDeltas(), orig, vcount, new Int16Array(vcount * 3));
    return { array: out, normalized: true, sparse: false };
  }

  /** The SHORT deltas of the frame (computed once per frame, when some primitive needs them). */
  private shortDeltas(): Int16Array {
    const { n0, s: scale } = this;
    const nf = this.nf as Float32Array;
    this.q16 ??= new Int16Array(n0.length);
    const q = this.q16;
    if (this.q16Fresh) return q;
    for (let v = 0, o = 0; v < scale.length; v++, o += 3) {
      const s = scale[v];
      if (s === 2) {
        q[o] = 0;
        q[o + 1] = 0;
        q[o + 2] = 0;
        continue;
      }
      q[o] = roundHalfUp((s * nf[o] - n0[o]) * 32767);
      q[o + 1] = roundHalfUp((s * nf[o + 1] - n0[o + 1]) * 32767);
      q[o + 2] = roundHalfUp((s * nf[o + 2] - n0[o + 2]) * 32767);
    }
    this.q16Fresh = true;
    return q;
  }
}

/** The VEC3 values per file vertex `src` of the glTF vertices `orig[0‥vcount)`, into `out`. */
function gatherVec3<T extends Int8Array | Int16Array>(src: T, orig: Uint16Array, vcount: number, out: T): T {
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const o = orig[j] * 3;
    out[k] = src[o];
    out[k + 1] = src[o + 1];
    out[k + 2] = src[o + 2];
  }
  return out;
}

/**
 * `target − base` per glTF vertex as float32 (null when zero everywhere); sparse where smaller
 * with `idxBytes`-byte indices, never when `idxBytes` is 0 (the compact mode's float32 fallback
 * stays dense, as before issue 30).
 */
function floatNormalDelta(
  nf: Float32Array,
  n0: Float32Array,
  orig: Uint16Array,
  vcount: number,
  idxBytes: number,
): EncodedDelta | null {
  const out = new Float32Array(vcount * 3);
  let nonZero = 0;
  for (let j = 0, k = 0; j < vcount; j++, k += 3) {
    const o = orig[j] * 3;
    const dx = nf[o] - n0[o];
    const dy = nf[o + 1] - n0[o + 1];
    const dz = nf[o + 2] - n0[o + 2];
    out[k] = dx;
    out[k + 1] = dy;
    out[k + 2] = dz;
    if (dx !== 0 || dy !== 0 || dz !== 0) nonZero++;
  }
  if (nonZero === 0) return null;
  return { array: out, normalized: false, sparse: idxBytes > 0 && sparseWins(vcount, 4, nonZero, idxBytes) };
}

/**
 * An accessor for an encoded delta.
 *
 * ```ts
 * const acc = deltaAccessor(doc, buffer, normalDeltas.encode(orig, vcount)!);
 * ```
 */
export function deltaAccessor(doc: Document, buffer: Buffer, d: EncodedDelta): Accessor {
  const a = doc.createAccessor().setType('VEC3').setArray(d.array).setBuffer(buffer);
  if (d.normalized) a.setNormalized(true);
  if (d.sparse) a.setSparse(true);
  return a;
}
