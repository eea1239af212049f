/**
 * Import, vertex values: the clean-ups glTF needs of decoded Grimrock vertex arrays (finite
 * values, unit normals, tangent signs, valid weights) and the raw file values kept when glTF
 * cannot hold them exactly.
 */
import type { NonFinitePatch } from '../arrays.js';
import { UNIT_TOLERANCE } from '../mat.js';
import type { VertexArray } from '../model.js';

/** Tolerance on |Σweights − 1| under which weights are kept bit for bit. */
const WEIGHT_TOLERANCE = 1e-5;

/** Index of the first index outside 0..n−1, or −1. */
export function firstBadIndex(indices: Int32Array, n: number): number {
  for (let i = 0; i < indices.length; i++) {
    const x = indices[i];
    if (x < 0 || x >= n) return i;
  }
  return -1;
}

/** `count` components per vertex from values with `dim` per vertex (missing ones = `pad`). */
export function components(
  v: ArrayLike<number>,
  dim: number,
  n: number,
  count: number,
  pad: number,
): Float32Array {
  // vertexArrayValues gives a fresh array of exactly n × dim values: taken as is.
  if (dim === count && v instanceof Float32Array && v.length === n * count) return v;
  if (dim === count && ArrayBuffer.isView(v) && v.length === n * count)
    return new Float32Array(v as Int32Array);
  const out = new Float32Array(n * count);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < count; c++) out[i * count + c] = c < dim ? v[i * dim + c] : pad;
  }
  return out;
}

/** Replaces NaN and ±Infinity by 0 (glTF accessors must be finite); returns how many. */
export function sanitize(a: Float32Array): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++)
    if (!Number.isFinite(a[i])) {
      a[i] = 0;
      changed++;
    }
  return changed;
}

/** Per-component min/max of packed 3-vectors (NaN ignored). */
export function extent(pos: Float32Array, n: number, dims: number, vmin: number[], vmax: number[]): void {
  for (let c = 0; c < dims; c++) {
    let lo = vmin[c];
    let hi = vmax[c];
    for (let i = c; i < n * 3; i += 3) {
      const x = pos[i];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    vmin[c] = lo;
    vmax[c] = hi;
  }
}

/**
 * Normalizes vectors further than UNIT_TOLERANCE from unit length (zero/NaN → fallback);
 * returns how many it changed.
 */
export function unitize(
  a: Float32Array,
  n: number,
  stride: number,
  fx: number,
  fy: number,
  fz: number,
): number {
  let changed = 0;
  for (let i = 0; i < n; i++) {
    const o = i * stride;
    const l = Math.sqrt(a[o] * a[o] + a[o + 1] * a[o + 1] + a[o + 2] * a[o + 2]);
    if (Math.abs(l - 1) > UNIT_TOLERANCE || !Number.isFinite(l)) {
      changed++;
      if (l > 1e-12 && Number.isFinite(l)) {
        a[o] /= l;
        a[o + 1] /= l;
        a[o + 2] /= l;
      } else {
        a[o] = fx;
        a[o + 1] = fy;
        a[o + 2] = fz;
      }
    }
  }
  return changed;
}

/** glTF tangent w = sign(dot(cross(N, T), B)) per vertex (1 without normal or bitangent). */
export function tangentSigns(
  tan: Float32Array,
  nor: Float32Array | null,
  bit: Float32Array | null,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    let w = 1;
    if (bit && nor) {
      const nx = nor[i * 3];
      const ny = nor[i * 3 + 1];
      const nz = nor[i * 3 + 2];
      const tx = tan[i * 4];
      const ty = tan[i * 4 + 1];
      const tz = tan[i * 4 + 2];
      const d =
        (ny * tz - nz * ty) * bit[i * 3] +
        (nz * tx - nx * tz) * bit[i * 3 + 1] +
        (nx * ty - ny * tx) * bit[i * 3 + 2];
      if (d < 0) w = -1;
    }
    tan[i * 4 + 3] = w;
  }
}

/**
 * Bone indices → JOINTS_0 and weights made valid for glTF in place: negative weights and
 * influences on missing bones dropped, sums ≠ 1 normalized, unweighted vertices bound to bone 0.
 * Returns how many vertices were changed.
 */
export function fixWeights(
  bi: Float32Array,
  bw: Float32Array,
  joints: Uint16Array,
  n: number,
  nb: number,
): number {
  let fixed = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let c = 0; c < 4; c++) {
      const j = bi[i * 4 + c];
      let w = bw[i * 4 + c];
      if (w < 0) w = 0;
      if (!(j >= 0 && j < nb)) {
        w = 0;
        joints[i * 4 + c] = 0;
      } else joints[i * 4 + c] = j;
      bw[i * 4 + c] = w;
      sum += w;
    }
    if (Math.abs(sum - 1) > WEIGHT_TOLERANCE) {
      fixed++;
      if (sum > 0) for (let c = 0; c < 4; c++) bw[i * 4 + c] /= sum;
      else {
        joints.fill(0, i * 4, i * 4 + 4);
        bw.fill(0, i * 4, i * 4 + 4);
        bw[i * 4] = 1;
      }
    }
  }
  return fixed;
}

/**
 * File values as floats for a `_GRIMROCK_*` attribute. Values a float accessor cannot hold
 * (NaN/Infinity, int32 beyond 2^24) are 0 there and returned as bit patterns read from the file
 * bytes (NaN payloads do not survive a trip through numbers).
 */
export function rawValues(
  v: ArrayLike<number>, // a fresh array rawValues may take over
  orig: VertexArray,
  dim: number,
): { raw: Float32Array; patches: NonFinitePatch[] } {
  const patches: NonFinitePatch[] = [];
  const four = orig.dataType === 2 || orig.dataType === 3;
  const dv = new DataView(orig.data.buffer, orig.data.byteOffset, orig.data.byteLength);
  const patch = (i: number) =>
    patches.push([i, dv.getUint32(Math.floor(i / dim) * orig.stride + (i % dim) * 4, true)]);
  if (v instanceof Float32Array) {
    // A fresh decode (vertexArrayValues): every float32 fits; only non-finite values change.
    for (let i = 0; i < v.length; i++)
      if (!Number.isFinite(v[i])) {
        patch(i);
        v[i] = 0;
      }
    return { raw: v, patches };
  }
  const raw = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (Number.isFinite(x) && Math.fround(x) === x) raw[i] = x;
    else if (four) patch(i);
  }
  return { raw, patches };
}
