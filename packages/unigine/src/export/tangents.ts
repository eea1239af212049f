/**
 * Tangent frames of export: generated normals and UV tangents for primitives without them, and
 * their encoding as i16 tangent-space quaternions.
 */
import { accumulateFaceNormals, convertVec3 } from '@gltf-legacy/core';
import { UNIGINE_TO_GLTF } from '../axes.js';
import { quatFromBasis, quatToNormalTangent } from '../math.js';
import { CHUNK } from '../kernels.js';

/** Smooth normals by area-weighted face normals per vertex. */
export function generateNormals(pos: Float32Array, idx: Uint32Array): Float32Array {
  const out = new Float32Array(pos.length);
  accumulateFaceNormals(pos, idx, out);
  // Own normalization: a vertex without area gets z = 1 (x and y stay as summed).
  for (let i = 0; i < out.length; i += 3) {
    const l = Math.sqrt(out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2]);
    if (l > 0) {
      out[i] /= l;
      out[i + 1] /= l;
      out[i + 2] /= l;
    } else out[i + 2] = 1;
  }
  return out;
}

/** Component c of one triangle's tangent and bitangent, added to its three vertices. */
function accumulateTangent(
  pos: Float32Array,
  i0: number,
  i1: number,
  i2: number,
  du1: number,
  dv1: number,
  du2: number,
  dv2: number,
  r: number,
  t: Float64Array,
  b: Float64Array,
  c: number,
): void {
  const e1 = pos[i1 * 3 + c] - pos[i0 * 3 + c];
  const e2 = pos[i2 * 3 + c] - pos[i0 * 3 + c];
  const tc = (e1 * dv2 - e2 * dv1) * r;
  const bc = (e2 * du1 - e1 * du2) * r;
  t[i0 * 3 + c] += tc;
  t[i1 * 3 + c] += tc;
  t[i2 * 3 + c] += tc;
  b[i0 * 3 + c] += bc;
  b[i1 * 3 + c] += bc;
  b[i2 * 3 + c] += bc;
}

/** Per-vertex tangents (xyz + handedness) from per-triangle UV derivatives, accumulated. */
export function generateTangents(
  pos: Float32Array,
  nrm: Float32Array,
  uv: Float32Array | null,
  idx: Uint32Array,
): Float32Array {
  const n = pos.length / 3;
  const t = new Float64Array(n * 3);
  const b = new Float64Array(n * 3);
  const nt = Math.floor(idx.length / 3);
  if (uv)
    for (let from = 0; from < nt; from += CHUNK)
      accumulateTangents(pos, uv, idx, from, Math.min(nt, from + CHUNK), t, b);
  const out = new Float32Array(n * 4);
  for (let from = 0; from < n; from += CHUNK) finishTangents(nrm, t, b, from, Math.min(n, from + CHUNK), out);
  return out;
}

/** Triangles `from … to−1`: UV-derived tangents and bitangents added to their vertices. */
function accumulateTangents(
  pos: Float32Array,
  uv: Float32Array,
  idx: Uint32Array,
  from: number,
  to: number,
  t: Float64Array,
  b: Float64Array,
): void {
  for (let tri = from; tri < to; tri++) {
    const i = tri * 3;
    const i0 = idx[i];
    const i1 = idx[i + 1];
    const i2 = idx[i + 2];
    const du1 = uv[i1 * 2] - uv[i0 * 2];
    const dv1 = uv[i1 * 2 + 1] - uv[i0 * 2 + 1];
    const du2 = uv[i2 * 2] - uv[i0 * 2];
    const dv2 = uv[i2 * 2 + 1] - uv[i0 * 2 + 1];
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-20) continue;
    const r = 1 / det;
    accumulateTangent(pos, i0, i1, i2, du1, dv1, du2, dv2, r, t, b, 0);
    accumulateTangent(pos, i0, i1, i2, du1, dv1, du2, dv2, r, t, b, 1);
    accumulateTangent(pos, i0, i1, i2, du1, dv1, du2, dv2, r, t, b, 2);
  }
}

/** Vertices `from … to−1`: tangent orthogonalized against the normal, handedness from the bitangent. */
function finishTangents(
  nrm: Float32Array,
  t: Float64Array,
  b: Float64Array,
  from: number,
  to: number,
  out: Float32Array,
): void {
  for (let v = from; v < to; v++) {
    const nx = nrm[v * 3];
    const ny = nrm[v * 3 + 1];
    const nz = nrm[v * 3 + 2];
    let tx = t[v * 3];
    let ty = t[v * 3 + 1];
    let tz = t[v * 3 + 2];
    const d = tx * nx + ty * ny + tz * nz;
    tx -= nx * d;
    ty -= ny * d;
    tz -= nz * d;
    let l = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (l < 1e-12) {
      // Any vector perpendicular to the normal.
      if (Math.abs(nx) < 0.9) {
        tx = 0;
        ty = nz;
        tz = -ny;
      } else {
        tx = -nz;
        ty = 0;
        tz = nx;
      }
      l = Math.sqrt(tx * tx + ty * ty + tz * tz) || 1;
    }
    out[v * 4] = tx / l;
    out[v * 4 + 1] = ty / l;
    out[v * 4 + 2] = tz / l;
    // Handedness: does cross(N, T) point along the UV bitangent?
    const cx = ny * tz - nz * ty;
    const cy = nz * tx - nx * tz;
    const cz = nx * ty - ny * tx;
    out[v * 4 + 3] = cx * b[v * 3] + cy * b[v * 3 + 1] + cz * b[v * 3 + 2] < 0 ? -1 : 1;
  }
}

/** quantize's encodeSnorm16, local so the per-vertex loop inlines it. */
export function snorm16(v: number): number {
  if (Number.isNaN(v)) return 0;
  return Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
}

/**
 * Encodes normal + tangent (xyz + handedness w, file axes) as UNIGINE tangent quaternions
 * (i16 x, y, z, w): the rotation taking X to the tangent and Z to the normal, with the sign of w
 * carrying the handedness.
 *
 * ```ts
 * encodeTangentFrames([0, 0, 1], [1, 0, 0, 1], 1); // Int16Array [0, 0, 0, 32767]
 * ```
 */
export function encodeTangentFrames(
  nrm: ArrayLike<number>,
  tan: ArrayLike<number>,
  count: number,
  out = new Int16Array(count * 4),
): Int16Array {
  for (let from = 0; from < count; from += CHUNK)
    encodeTangentRange(nrm, tan, from, Math.min(count, from + CHUNK), out);
  return out;
}

function encodeTangentRange(
  nrm: ArrayLike<number>,
  tan: ArrayLike<number>,
  from: number,
  to: number,
  out: Int16Array,
): void {
  const q = new Float64Array(4);
  for (let v = from; v < to; v++) {
    let nx = nrm[v * 3];
    let ny = nrm[v * 3 + 1];
    let nz = nrm[v * 3 + 2];
    let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 1e-12)) {
      nx = 0;
      ny = 0;
      nz = 1;
      l = 1;
    }
    nx /= l;
    ny /= l;
    nz /= l;
    let tx = tan[v * 4];
    let ty = tan[v * 4 + 1];
    let tz = tan[v * 4 + 2];
    const h = tan[v * 4 + 3] < 0 ? -1 : 1;
    const d = tx * nx + ty * ny + tz * nz;
    tx -= nx * d;
    ty -= ny * d;
    tz -= nz * d;
    l = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (!(l > 1e-9)) {
      if (Math.abs(nx) < 0.9) {
        tx = 0;
        ty = nz;
        tz = -ny;
      } else {
        tx = -nz;
        ty = 0;
        tz = nx;
      }
      l = Math.sqrt(tx * tx + ty * ty + tz * tz);
    }
    tx /= l;
    ty /= l;
    tz /= l;
    const bx = ny * tz - nz * ty;
    const by = nz * tx - nx * tz;
    const bz = nx * ty - ny * tx;
    quatFromBasis(tx, ty, tz, bx, by, bz, nx, ny, nz, q);
    const s = (q[3] < 0 ? -1 : 1) === h ? 1 : -1;
    out[v * 4] = snorm16(q[0] * s);
    out[v * 4 + 1] = snorm16(q[1] * s);
    out[v * 4 + 2] = snorm16(q[2] * s);
    let w = snorm16(q[3] * s);
    if (w === 0) w = h; // keep the handedness bit
    out[v * 4 + 3] = w;
  }
}

/** True when the normals the raw tangent quaternions encode agree with NORMAL (glTF axes). */
export function tbnMatchesNormals(tbn: ArrayLike<number>, nrm: Float32Array, n: number): boolean {
  const dn = new Float32Array(3);
  const dt = new Float32Array(4);
  for (let v = 0; v < n; v++) {
    const x = tbn[v * 4];
    const y = tbn[v * 4 + 1];
    const z = tbn[v * 4 + 2];
    const w = tbn[v * 4 + 3];
    const l = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
    quatToNormalTangent(x / l, y / l, z / l, w / l, dn, 0, dt, 0);
    convertVec3(UNIGINE_TO_GLTF, dn);
    if (
      Math.abs(dn[0] - nrm[v * 3]) > 2e-3 ||
      Math.abs(dn[1] - nrm[v * 3 + 1]) > 2e-3 ||
      Math.abs(dn[2] - nrm[v * 3 + 2]) > 2e-3
    )
      return false;
  }
  return true;
}
