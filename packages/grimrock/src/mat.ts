/**
 * Mat4x3 ⇄ glTF matrix / TRS, with the X mirror (the only axis conversion, see README).
 */
import { convertMat4, convertQuaternions, convertVec3 } from '@gltf-legacy/core';
import { mat3, mat4, quat } from 'gl-matrix';
import { AXES } from './arrays.js';

export type Vec3T = [number, number, number];
export type QuatT = [number, number, number, number];

/**
 * Mat4x3 (file order, Grimrock space) → column-major glTF 4×4 (glTF space).
 *
 * ```ts
 * mat4x3ToGltf(bone.invRestMatrix); // 16 numbers for an inverse bind matrix
 * ```
 */
export function mat4x3ToGltf(m: ArrayLike<number>): number[] {
  const out = [m[0], m[1], m[2], 0, m[3], m[4], m[5], 0, m[6], m[7], m[8], 0, m[9], m[10], m[11], 1];
  convertMat4(AXES, out);
  out[3] = 0;
  out[7] = 0;
  out[11] = 0;
  return out;
}

/**
 * Column-major glTF 4×4 (glTF space) → Mat4x3 (Grimrock space); inverse of {@link mat4x3ToGltf}.
 *
 * ```ts
 * const invRestMatrix = gltfToMat4x3(ibm.subarray(i * 16, i * 16 + 16));
 * ```
 */
export function gltfToMat4x3(g: ArrayLike<number>): Float32Array {
  const m = Array.from(g);
  convertMat4(AXES, m); // the mirror is its own inverse
  return Float32Array.of(m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10], m[12], m[13], m[14]);
}

/**
 * Decomposes a Mat4x3 into glTF-space TRS (negative determinant → negative X scale).
 *
 * ```ts
 * const { t, r, s } = mat4x3ToTRS(node.localToParent);
 * ```
 */
export function mat4x3ToTRS(m: ArrayLike<number>): { t: Vec3T; r: QuatT; s: Vec3T } {
  const g = mat4x3ToGltf(m);
  const t: Vec3T = [g[12], g[13], g[14]];
  let sx = Math.hypot(g[0], g[1], g[2]);
  const sy = Math.hypot(g[4], g[5], g[6]);
  const sz = Math.hypot(g[8], g[9], g[10]);
  const det =
    g[0] * (g[5] * g[10] - g[6] * g[9]) -
    g[4] * (g[1] * g[10] - g[2] * g[9]) +
    g[8] * (g[1] * g[6] - g[2] * g[5]);
  if (det < 0) sx = -sx;
  const s: Vec3T = [sx, sy, sz];
  let r: QuatT = [0, 0, 0, 1];
  if (sx !== 0 && sy !== 0 && sz !== 0 && Number.isFinite(det)) {
    const rm = mat3.fromValues(
      g[0] / sx,
      g[1] / sx,
      g[2] / sx,
      g[4] / sy,
      g[5] / sy,
      g[6] / sy,
      g[8] / sz,
      g[9] / sz,
      g[10] / sz,
    );
    const q = quat.fromMat3(quat.create(), rm);
    const len = Math.hypot(q[0], q[1], q[2], q[3]);
    if (len > 0 && Number.isFinite(len)) r = [q[0] / len, q[1] / len, q[2] / len, q[3] / len];
  }
  const finite = (v: number[]) => v.map((x) => (Number.isFinite(x) ? x : 0));
  return { t: finite(t) as Vec3T, r, s: finite(s) as Vec3T };
}

/**
 * glTF-space TRS → Mat4x3 (Grimrock space).
 *
 * ```ts
 * trsToMat4x3(node.getTranslation(), node.getRotation(), node.getScale());
 * ```
 */
export function trsToMat4x3(t: ArrayLike<number>, r: ArrayLike<number>, s: ArrayLike<number>): Float32Array {
  const g = mat4.fromRotationTranslationScale(
    mat4.create(),
    quat.fromValues(r[0], r[1], r[2], r[3]),
    [t[0], t[1], t[2]],
    [s[0], s[1], s[2]],
  );
  return gltfToMat4x3(g);
}

/** Mirrors a translation/position (glTF ⇄ Grimrock, its own inverse). */
export function mirrorVec3(v: Float32Array | number[]): void {
  convertVec3(AXES, v);
}

/** Mirrors quaternions x,y,z,w (glTF ⇄ Grimrock, its own inverse). */
export function mirrorQuats(v: Float32Array | number[]): void {
  convertQuaternions(AXES, v);
}

/** Tolerance on |length − 1| under which normals, tangents and rotation keys are kept bit for bit. */
export const UNIT_TOLERANCE = 4e-4;

/**
 * Normalizes, in place, the first `count` quaternions of `a` that are further than
 * UNIT_TOLERANCE from unit length (a zero one becomes the identity); the one rule import and
 * export share, so what export writes imports back unchanged. Returns how many it changed.
 *
 * ```ts
 * normalizeQuats(Float32Array.of(0, 0, 0, 2)); // 1: now (0, 0, 0, 1)
 * ```
 */
export function normalizeQuats(a: Float32Array, count = a.length >> 2): number {
  let changed = 0;
  for (let o = 0; o < count * 4; o += 4) {
    const l = Math.hypot(a[o], a[o + 1], a[o + 2], a[o + 3]);
    if (Math.abs(l - 1) > UNIT_TOLERANCE) {
      changed++;
      if (l > 0) for (let c = 0; c < 4; c++) a[o + c] /= l;
      else a.set([0, 0, 0, 1], o);
    }
  }
  return changed;
}
