/**
 * Bulk loops of import and export, each a small function over typed arrays.
 *
 * Import and export run once per call, so one big function holding all their loops never gets
 * optimized as a whole (V8 tiers a function by its size and call count) and every loop is
 * re-compiled on stack replacement on every call. Small functions with one job each are
 * optimized after their first hot loop and stay monomorphic (typed-array arguments, no
 * closures, no per-vertex objects).
 */
import { sortInfluencesDesc } from '@gltf-legacy/core';
import { quatToNormalTangent } from './math.js';

/**
 * Items per call of the loops that run once per import/export: called many times per
 * import/export, a loop function is optimized with complete type feedback during the first one,
 * instead of being compiled on stack replacement and then de-optimized over the next few calls.
 */
export const CHUNK = 4096;

// ---------------------------------------------------------------- import

/**
 * The coordinate vertex of each of `nt` triangle vertices, when every triangle vertex is used
 * and always with the same coordinate vertex; null otherwise.
 */
export function coordOfTriVerts(tri: Uint32Array, crd: Uint32Array, nt: number): Int32Array | null {
  const coordOf = new Int32Array(nt).fill(-1);
  const ni = tri.length;
  for (let from = 0; from < ni; from += CHUNK)
    if (!pairRange(tri, crd, from, Math.min(ni, from + CHUNK), coordOf)) return null;
  for (let t = 0; t < nt; t++) if (coordOf[t] === -1) return null;
  return coordOf;
}

function pairRange(
  tri: Uint32Array,
  crd: Uint32Array,
  from: number,
  to: number,
  coordOf: Int32Array,
): boolean {
  for (let i = from; i < to; i++) {
    const t = tri[i];
    const c = crd[i];
    const o = coordOf[t];
    if (o === -1) coordOf[t] = c;
    else if (o !== c) return false;
  }
  return true;
}

/** `out[v] = src[at[v]]` for vec3 items. */
export function gatherVec3(src: Float32Array, at: Uint32Array, n: number): Float32Array {
  const out = new Float32Array(n * 3);
  for (let from = 0; from < n; from += CHUNK) gatherVec3Range(src, at, from, Math.min(n, from + CHUNK), out);
  return out;
}

function gatherVec3Range(
  src: Float32Array,
  at: Uint32Array,
  from: number,
  to: number,
  out: Float32Array,
): void {
  for (let v = from; v < to; v++) {
    const c = at[v] * 3;
    out[v * 3] = src[c];
    out[v * 3 + 1] = src[c + 1];
    out[v * 3 + 2] = src[c + 2];
  }
}

/** `out[v] = src[at[v]]` for float items of `size` components. */
export function gatherF32(src: Float32Array, at: Uint32Array, n: number, size: number): Float32Array {
  const out = new Float32Array(n * size);
  for (let from = 0; from < n; from += CHUNK)
    gatherF32Range(src, at, from, Math.min(n, from + CHUNK), size, out);
  return out;
}

function gatherF32Range(
  src: Float32Array,
  at: Uint32Array,
  from: number,
  to: number,
  size: number,
  out: Float32Array,
): void {
  for (let v = from; v < to; v++) {
    const o = at[v] * size;
    for (let k = 0; k < size; k++) out[v * size + k] = src[o + k];
  }
}

/** `out[v] = src[at[v]]` for byte items of `size` components. */
export function gatherU8(src: Uint8Array, at: Uint32Array, n: number, size: number): Uint8Array {
  const out = new Uint8Array(n * size);
  for (let v = 0; v < n; v++) {
    const o = at[v] * size;
    for (let k = 0; k < size; k++) out[v * size + k] = src[o + k];
  }
  return out;
}

/**
 * Decodes the tangent quaternions of triangle vertices `at[v]` into normals, tangents (with the
 * handedness in w) and the raw codes, file axes.
 */
export function decodeTangentQuats(
  q: Int16Array,
  at: Uint32Array,
  n: number,
  nrm: Float32Array,
  tan: Float32Array,
  tbn: Int16Array,
): void {
  for (let from = 0; from < n; from += CHUNK)
    decodeTangentRange(q, at, from, Math.min(n, from + CHUNK), nrm, tan, tbn);
}

function decodeTangentRange(
  q: Int16Array,
  at: Uint32Array,
  from: number,
  to: number,
  nrm: Float32Array,
  tan: Float32Array,
  tbn: Int16Array,
): void {
  for (let v = from; v < to; v++) {
    const o = at[v] * 4;
    const qx = q[o];
    const qy = q[o + 1];
    const qz = q[o + 2];
    const qw = q[o + 3];
    tbn[v * 4] = qx;
    tbn[v * 4 + 1] = qy;
    tbn[v * 4 + 2] = qz;
    tbn[v * 4 + 3] = qw;
    const len = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    if (len > 0) quatToNormalTangent(qx / len, qy / len, qz / len, qw / len, nrm, v * 3, tan, v * 4);
    else quatToNormalTangent(0, 0, 0, 1, nrm, v * 3, tan, v * 4);
    tan[v * 4 + 3] = qw < 0 ? -1 : 1;
  }
}

/** glTF skin attributes and raw weight records of the glTF vertices, from coordinate-vertex records. */
export interface VertexInfluences {
  joints: Uint16Array;
  weights: Float32Array;
  /** Raw records (count, i16 bones, u16 codes), valid when `raw` (no record holds more than 4). */
  wc: Uint8Array;
  wb: Int16Array;
  wv: Uint16Array;
  raw: boolean;
  truncated: number;
  badBone: number;
}

/**
 * Influences of glTF vertex v from the weight record of coordinate vertex `at[v]`: equal bones
 * merged, bad bones and zero codes dropped, the 4 largest kept and renormalized; a vertex with no
 * weight follows bone 0 with weight 1.
 */
export function vertexInfluences(
  counts: Uint8Array,
  starts: Uint32Array,
  bones: Int16Array,
  values: Uint16Array,
  at: Uint32Array,
  n: number,
  boneCount: number,
): VertexInfluences {
  const out: VertexInfluences = {
    joints: new Uint16Array(n * 4),
    weights: new Float32Array(n * 4),
    wc: new Uint8Array(n),
    wb: new Int16Array(n * 4),
    wv: new Uint16Array(n * 4),
    raw: true,
    truncated: 0,
    badBone: 0,
  };
  // stats: a record holds more than 4 (0/1), truncated vertices, bad bones
  const stats = new Int32Array(3);
  // Merged influences of one vertex (a record holds at most 255).
  const cj = new Float64Array(256);
  const cw = new Float64Array(256);
  for (let from = 0; from < n; from += CHUNK)
    influenceRange(
      counts,
      starts,
      bones,
      values,
      at,
      from,
      Math.min(n, from + CHUNK),
      boneCount,
      out,
      cj,
      cw,
      stats,
    );
  out.raw = stats[0] === 0;
  out.truncated = stats[1];
  out.badBone = stats[2];
  return out;
}

function influenceRange(
  counts: Uint8Array,
  starts: Uint32Array,
  bones: Int16Array,
  values: Uint16Array,
  at: Uint32Array,
  from: number,
  to: number,
  boneCount: number,
  out: VertexInfluences,
  cj: Float64Array,
  cw: Float64Array,
  stats: Int32Array,
): void {
  const { joints, weights, wc, wb, wv } = out;
  // (the counters are stored as they change: code after the loop would run without type
  // feedback while the loop runs compiled on stack replacement, and de-optimize every call)
  for (let v = from; v < to; v++) {
    const c = at[v];
    const start = starts[c];
    const count = counts[c];
    if (count > 4) stats[0] = 1;
    else {
      wc[v] = count;
      for (let k = 0; k < count; k++) {
        wb[v * 4 + k] = bones[start + k];
        wv[v * 4 + k] = values[start + k];
      }
    }
    let m = 0;
    for (let k = 0; k < count; k++) {
      const b = bones[start + k];
      const w = values[start + k];
      if (b < 0 || b >= boneCount) {
        stats[2]++;
        continue;
      }
      if (w === 0) continue;
      let a = 0;
      while (a < m && cj[a] !== b) a++;
      if (a < m) cw[a] += w;
      else {
        cj[m] = b;
        cw[m] = w;
        m++;
      }
    }
    // Keep the 4 largest (selection in place). Own renormalisation rule: bad bones are dropped
    // first and a vertex with no weight follows bone 0 with weight 1.
    if (m > 4) stats[1]++;
    const k4 = Math.min(m, 4);
    // The k4 largest first.
    sortInfluencesDesc(cw, cj, m, k4);
    let sum = 0;
    for (let k = 0; k < k4; k++) sum += cw[k];
    if (sum > 0) {
      for (let k = 0; k < k4; k++) {
        joints[v * 4 + k] = cj[k];
        weights[v * 4 + k] = cw[k] / sum;
      }
    } else {
      weights[v * 4] = 1;
    }
  }
}

/** glTF morph deltas of vertex v from coordinate vertex `at[v]` (zero on zero keeps the target's sign). */
export function morphDeltas(
  target: Float32Array,
  base: Float32Array,
  at: Uint32Array,
  n: number,
): Float32Array {
  const d = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    const c = at[v] * 3;
    for (let k = 0; k < 3; k++) {
      const x = target[c + k];
      const b = base[c + k];
      // Unchanged coordinates keep their bits through export's base + delta: -0 - -0 would give
      // +0 (the written target would lose its -0), and ∞ - ∞ NaN (fuzz, campaign 31337).
      d[v * 3 + k] = x === b ? (x === 0 ? x : 0) : x - b;
    }
  }
  return d;
}

// ---------------------------------------------------------------- export

/** Largest value of an index list, −1 when empty. */
export function maxIndex(a: ArrayLike<number>, n: number): number {
  let max = -1;
  for (let i = 0; i < n; i++) if (a[i] > max) max = a[i];
  return max;
}

/** `out[v] = src[v]` (u32) for v < n; returns the largest, −1 when n is 0. */
export function copyIndices(src: ArrayLike<number>, n: number, out: Uint32Array): number {
  let max = -1;
  for (let v = 0; v < n; v++) {
    out[v] = src[v];
    const x = out[v];
    if (x > max) max = x;
  }
  return max;
}

/**
 * Numbers the vertices the indices use (in vertex order) into `triOf`; unused ones get `unused`.
 * Returns how many are used.
 */
export function numberUsed(idx: Uint32Array, n: number, triOf: Uint32Array, unused: number): number {
  triOf.fill(unused);
  const ni = idx.length;
  for (let from = 0; from < ni; from += CHUNK) markRange(idx, from, Math.min(ni, from + CHUNK), triOf);
  let count = 0;
  for (let from = 0; from < n; from += CHUNK)
    count = numberRange(triOf, from, Math.min(n, from + CHUNK), count);
  return count;
}

function markRange(idx: Uint32Array, from: number, to: number, mark: Uint32Array): void {
  for (let i = from; i < to; i++) mark[idx[i]] = 0;
}

function numberRange(map: Uint32Array, from: number, to: number, count: number): number {
  let c = count;
  for (let v = from; v < to; v++) if (map[v] === 0) map[v] = c++;
  return c;
}

/** For each slot `map[v]` (≠ `unused`): the last v mapped to it (`out` pre-filled with −1). */
export function lastVertexOf(map: Uint32Array, n: number, out: Int32Array, unused: number): void {
  for (let from = 0; from < n; from += CHUNK) slotRange(map, from, Math.min(n, from + CHUNK), out, unused);
}

function slotRange(map: Uint32Array, from: number, to: number, out: Int32Array, unused: number): void {
  for (let v = from; v < to; v++) {
    const s = map[v];
    if (s !== unused) out[s] = v;
  }
}

/** For each slot `map[v]` (≠ `unused`): the first v mapped to it (`out` pre-filled with −1). */
export function firstVertexOf(map: Uint32Array, n: number, out: Int32Array, unused: number): void {
  for (let to = n; to > 0; to -= CHUNK) slotRangeBack(map, Math.max(0, to - CHUNK), to, out, unused);
}

function slotRangeBack(map: Uint32Array, from: number, to: number, out: Int32Array, unused: number): void {
  for (let v = to - 1; v >= from; v--) {
    const s = map[v];
    if (s !== unused) out[s] = v;
  }
}

/** `out[t] = src[from[t]]` (items of `size`; slots with `from[t] < 0` stay 0), float32. */
export function scatterF32(
  src: ArrayLike<number>,
  from: Int32Array,
  size: number,
  out: Float32Array,
): Float32Array {
  const nt = from.length;
  for (let a = 0; a < nt; a += CHUNK) scatterF32Range(src, from, a, Math.min(nt, a + CHUNK), size, out);
  return out;
}

function scatterF32Range(
  src: ArrayLike<number>,
  from: Int32Array,
  a: number,
  b: number,
  size: number,
  out: Float32Array,
): void {
  for (let t = a; t < b; t++) {
    const v = from[t];
    if (v >= 0) for (let k = 0; k < size; k++) out[t * size + k] = src[v * size + k];
  }
}

/** As {@link scatterF32} for vec3 positions out of a Float32Array. */
export function scatterVec3(src: Float32Array, from: Int32Array, out: Float32Array): Float32Array {
  const nt = from.length;
  for (let a = 0; a < nt; a += CHUNK) scatterVec3Range(src, from, a, Math.min(nt, a + CHUNK), out);
  return out;
}

function scatterVec3Range(
  src: Float32Array,
  from: Int32Array,
  a: number,
  b: number,
  out: Float32Array,
): void {
  for (let t = a; t < b; t++) {
    const v = from[t];
    if (v >= 0) {
      out[t * 3] = src[v * 3];
      out[t * 3 + 1] = src[v * 3 + 1];
      out[t * 3 + 2] = src[v * 3 + 2];
    }
  }
}

/** As {@link scatterF32} for i16 × 4 items (tangent quaternions). */
export function scatterI16x4(src: ArrayLike<number>, from: Int32Array, out: Int16Array): Int16Array {
  const nt = from.length;
  for (let a = 0; a < nt; a += CHUNK) scatterI16x4Range(src, from, a, Math.min(nt, a + CHUNK), out);
  return out;
}

function scatterI16x4Range(
  src: ArrayLike<number>,
  from: Int32Array,
  a: number,
  b: number,
  out: Int16Array,
): void {
  for (let t = a; t < b; t++) {
    const v = from[t];
    if (v >= 0) {
      out[t * 4] = src[v * 4];
      out[t * 4 + 1] = src[v * 4 + 1];
      out[t * 4 + 2] = src[v * 4 + 2];
      out[t * 4 + 3] = src[v * 4 + 3];
    }
  }
}

/** Vertex colours (`size` components, the missing ones 1) → RGBA bytes per slot. */
export function scatterColors(
  src: ArrayLike<number>,
  size: number,
  from: Int32Array,
  out: Uint8Array,
): Uint8Array {
  const nt = from.length;
  for (let t = 0; t < nt; t++) {
    const v = from[t];
    if (v < 0) continue;
    for (let k = 0; k < 4; k++) {
      const x = k < size ? src[v * size + k] : 1;
      out[t * 4 + k] = Math.max(0, Math.min(255, Math.round(x * 255)));
    }
  }
  return out;
}

/** Per-vertex influences (≤ 4 each) → packed records of the coordinate vertices (`from[c]`). */
export function packWeights(
  count: Uint8Array,
  bones: Int16Array,
  values: Uint16Array,
  from: Int32Array,
): {
  weightCounts: Uint8Array;
  weightStarts: Uint32Array;
  weightBones: Int16Array;
  weightValues: Uint16Array;
} {
  const nc = from.length;
  const weightCounts = new Uint8Array(nc);
  const weightStarts = new Uint32Array(nc + 1);
  let total = 0;
  for (let a = 0; a < nc; a += CHUNK)
    total = countRange(count, from, a, Math.min(nc, a + CHUNK), weightCounts, weightStarts, total);
  weightStarts[nc] = total;
  const weightBones = new Int16Array(total);
  const weightValues = new Uint16Array(total);
  for (let a = 0; a < nc; a += CHUNK)
    packRange(
      bones,
      values,
      from,
      a,
      Math.min(nc, a + CHUNK),
      weightCounts,
      weightStarts,
      weightBones,
      weightValues,
    );
  return { weightCounts, weightStarts, weightBones, weightValues };
}

function countRange(
  count: Uint8Array,
  from: Int32Array,
  a: number,
  b: number,
  weightCounts: Uint8Array,
  weightStarts: Uint32Array,
  total: number,
): number {
  let sum = total;
  for (let c = a; c < b; c++) {
    const v = from[c];
    const k = v >= 0 ? count[v] : 0;
    weightCounts[c] = k;
    weightStarts[c] = sum;
    sum += k;
  }
  return sum;
}

function packRange(
  bones: Int16Array,
  values: Uint16Array,
  from: Int32Array,
  a: number,
  b: number,
  weightCounts: Uint8Array,
  weightStarts: Uint32Array,
  weightBones: Int16Array,
  weightValues: Uint16Array,
): void {
  for (let c = a; c < b; c++) {
    const v = from[c];
    const s = weightStarts[c];
    const k = weightCounts[c];
    for (let i = 0; i < k; i++) {
      weightBones[s + i] = bones[v * 4 + i];
      weightValues[s + i] = values[v * 4 + i];
    }
  }
}

/** Coordinate and triangle index of every corner. */
export function cornerIndices(
  idx: Uint32Array,
  coordOf: Uint32Array,
  triOf: Uint32Array,
  coordIndices: Uint32Array,
  triIndices: Uint32Array,
): void {
  const ni = idx.length;
  for (let from = 0; from < ni; from += CHUNK)
    cornerRange(idx, coordOf, triOf, from, Math.min(ni, from + CHUNK), coordIndices, triIndices);
}

function cornerRange(
  idx: Uint32Array,
  coordOf: Uint32Array,
  triOf: Uint32Array,
  from: number,
  to: number,
  coordIndices: Uint32Array,
  triIndices: Uint32Array,
): void {
  for (let i = from; i < to; i++) {
    const v = idx[i];
    coordIndices[i] = coordOf[v];
    triIndices[i] = triOf[v];
  }
}

/**
 * One JOINTS_0/WEIGHTS_0 set of 4 per vertex → u16-coded influences, in one pass: the same
 * result as core's `readInfluences(prim, 4)` followed by `encodeWeightU16` of each float32
 * weight (positive weights only, equal joints merged, sorted by weight, renormalized; zero codes
 * and joints that are no bone (`boneOfJoint` −1 or out of range) dropped). Returns how many
 * positive weights were quantized.
 */
export function quantizeInfluences4(
  js: Uint8Array | Uint16Array,
  ws: Float32Array,
  boneOfJoint: Int32Array,
  n: number,
  count: Uint8Array,
  bones: Int16Array,
  values: Uint16Array,
): number {
  let quantized = 0;
  for (let from = 0; from < n; from += CHUNK)
    quantized += quantizeRange(js, ws, boneOfJoint, from, Math.min(n, from + CHUNK), count, bones, values);
  return quantized;
}

function quantizeRange(
  js: Uint8Array | Uint16Array,
  ws: Float32Array,
  boneOfJoint: Int32Array,
  from: number,
  to: number,
  count: Uint8Array,
  bones: Int16Array,
  values: Uint16Array,
): number {
  const cj = new Float64Array(4);
  const cw = new Float64Array(4);
  const nj = boneOfJoint.length;
  let quantized = 0;
  for (let v = from; v < to; v++) {
    const base = v * 4;
    let len = 0;
    for (let k = 0; k < 4; k++) {
      const wt = ws[base + k];
      if (!(wt > 0)) continue;
      const jt = js[base + k];
      let at = 0;
      while (at < len && cj[at] !== jt) at++;
      if (at < len) cw[at] += wt;
      else {
        cj[len] = jt;
        cw[len++] = wt;
      }
    }
    // All of them by weight, descending.
    sortInfluencesDesc(cw, cj, len, len);
    let kept = 0;
    for (let i = 0; i < len; i++) kept += cw[i];
    let m = 0;
    for (let i = 0; i < len; i++) {
      const w = Math.fround(kept > 0 ? cw[i] / kept : 0);
      // encodeWeightU16 (quantize), written out
      const code = Number.isNaN(w) ? 0 : Math.max(0, Math.min(65535, Math.round(w * 65535)));
      if (code === 0) continue;
      const j = cj[i];
      const b = j < nj ? boneOfJoint[j] : -1;
      if (b < 0) continue;
      bones[base + m] = b;
      values[base + m] = code;
      m++;
      if (w > 0) quantized++;
    }
    count[v] = m;
  }
  return quantized;
}
