/**
 * Bulk loops of export (see `../kernels.ts` for why they are small functions over chunks): index
 * numbering, scattering attributes to triangle vertices, packing and quantizing weights.
 */
import { sortInfluencesDesc } from '@gltf-legacy/core';
import { CHUNK } from '../kernels.js';

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
