import { convertQuaternions, convertVec3, mirrorAxis } from '@gltf-legacy/core';
import { mat4 } from 'gl-matrix';

/**
 * The one place where TSO space meets glTF space.
 *
 * TSO data is mirrored in X against a right-handed, +Y-up frame (FreeSO and Niotso both negate
 * X on load), so glTF = TSO with X negated: positions, normals and translations map
 * `(x, y, z) → (−x, y, z)`. Rotations: mirroring alone gives `(x, −y, −z, w)`, and TSO stores the
 * inverse rotation (FreeSO reads `(x, −y, −z, −w)`, Niotso builds the transposed matrix), so the
 * glTF rotation is the conjugate of that: `(x, y, z, w) → (−x, y, z, w)`. Both maps are their own
 * inverse and only flip signs, so values survive a round trip bit for bit. The mirror reverses
 * triangle winding: raw triangles are counter-clockwise around their normals, so after the
 * mirror each triangle's 2nd and 3rd index are swapped. No scale is applied (1 TSO unit = 1 m).
 */
export const TSO_AXES = mirrorAxis(0);

/** Converts packed x, y, z vectors between TSO and glTF in place (its own inverse). */
export function convertVectors(data: Float32Array | Float64Array | number[], stride = 3): void {
  convertVec3(TSO_AXES, data, stride, 0);
}

/** Converts packed x, y, z, w rotations between TSO and glTF in place (its own inverse). */
export function convertRotations(data: Float32Array | Float64Array | number[]): void {
  convertQuaternions(TSO_AXES, data);
  // Conjugate: TSO stores the inverse rotation.
  for (let i = 0; i + 3 < data.length; i += 4) {
    data[i] = -data[i];
    data[i + 1] = -data[i + 1];
    data[i + 2] = -data[i + 2];
  }
}

/** A new f64 4×4 matrix (column-major). */
export function mat(): Float64Array {
  const m = new Float64Array(16);
  m[0] = m[5] = m[10] = m[15] = 1;
  return m;
}

/** T·R of a translation and rotation (column vectors), in f64. */
export function trMatrix(t: ArrayLike<number>, q: ArrayLike<number>): Float64Array {
  const out = mat();
  mat4.fromRotationTranslation(out, q as any, t as any);
  return out;
}

/** a · b. */
export function mul(a: Float64Array, b: Float64Array): Float64Array {
  const out = mat();
  mat4.multiply(out, a, b);
  return out;
}

/** The inverse of `m` (identity if singular). */
export function inv(m: Float64Array): Float64Array {
  const out = mat();
  if (!mat4.invert(out, m)) return mat();
  return out;
}

/** Transforms point (x, y, z) of `src` at `si` by `m` into `dst` at `di`. */
export function transformPoint(m: ArrayLike<number>, src: ArrayLike<number>, si: number, dst: { [i: number]: number }, di: number): void {
  const x = src[si];
  const y = src[si + 1];
  const z = src[si + 2];
  dst[di] = m[0] * x + m[4] * y + m[8] * z + m[12];
  dst[di + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  dst[di + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

/** Transforms direction (x, y, z) of `src` at `si` by the 3×3 part of `m`. */
export function transformDir(m: ArrayLike<number>, src: ArrayLike<number>, si: number, dst: { [i: number]: number }, di: number): void {
  const x = src[si];
  const y = src[si + 1];
  const z = src[si + 2];
  dst[di] = m[0] * x + m[4] * y + m[8] * z;
  dst[di + 1] = m[1] * x + m[5] * y + m[9] * z;
  dst[di + 2] = m[2] * x + m[6] * y + m[10] * z;
}

/** True when `m` is the identity exactly. */
export function isIdentity(m: ArrayLike<number>): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}
