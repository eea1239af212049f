/**
 * Bulk loops of import (see `../kernels.ts` for why they are small functions over chunks): pairing
 * coordinate and triangle vertices, gathering attributes, decoding tangent frames and influences.
 */
import { sortInfluencesDesc } from '@gltf-legacy/core';
import { quatToNormalTangent } from '../math.js';
import { CHUNK } from '../kernels.js';

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
