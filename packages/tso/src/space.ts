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

/**
 * Converts packed x, y, z vectors between TSO and glTF in place (its own inverse).
 *
 * ```ts
 * const p = [1, 2, 3];
 * convertVectors(p); // [-1, 2, 3]
 * ```
 */
export function convertVectors(data: Float32Array | Float64Array | number[], stride = 3): void {
  convertVec3(TSO_AXES, data, stride, 0);
}

/**
 * Converts packed x, y, z, w rotations between TSO and glTF in place (its own inverse).
 *
 * ```ts
 * const q = [0.1, 0.2, 0.3, 0.9];
 * convertRotations(q); // [-0.1, 0.2, 0.3, 0.9]
 * ```
 */
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
export function transformPoint(
  m: ArrayLike<number>,
  src: ArrayLike<number>,
  si: number,
  dst: { [i: number]: number },
  di: number,
): void {
  const x = src[si];
  const y = src[si + 1];
  const z = src[si + 2];
  dst[di] = m[0] * x + m[4] * y + m[8] * z + m[12];
  dst[di + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  dst[di + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

/** Transforms direction (x, y, z) of `src` at `si` by the 3×3 part of `m`. */
export function transformDir(
  m: ArrayLike<number>,
  src: ArrayLike<number>,
  si: number,
  dst: { [i: number]: number },
  di: number,
): void {
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

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Bit pattern of a float32 (keeps −0 and NaN payloads, which JSON numbers cannot). */
export function f32Bits(v: number): number {
  f32[0] = v;
  return u32[0];
}

/** Float32 from its bit pattern. */
export function bitsF32(b: number): number {
  u32[0] = b >>> 0;
  return f32[0];
}

/** Float32 values as JSON-safe bit patterns (for extras). */
export function floatsToBits(a: ArrayLike<number>): number[] {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = f32Bits(a[i]);
  return out;
}

/** Bit patterns back to float32 values. */
export function bitsToFloats(a: readonly unknown[]): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = bitsF32(typeof a[i] === 'number' ? (a[i] as number) : 0);
  return out;
}

/** A float for JSON extras: a plain number, or `{ f32: bits }` for −0, NaN and ±Infinity. */
export function floatJson(v: number): number | { f32: number } {
  return Number.isFinite(v) && !Object.is(v, -0) ? v : { f32: f32Bits(v) };
}

/** Reads a value written by {@link floatJson} (`fallback` when absent or malformed). */
export function jsonFloat(x: unknown, fallback = 0): number {
  if (typeof x === 'number') return x;
  if (x && typeof x === 'object' && typeof (x as { f32?: unknown }).f32 === 'number')
    return bitsF32((x as { f32: number }).f32);
  return fallback;
}

/** True when any value is −0 (a sign JSON would lose). */
export function hasNegativeZero(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (Object.is(a[i], -0)) return true;
  return false;
}

/** Replaces −0 with +0 in place (glTF node values go through JSON). */
export function positiveZeros<T extends { length: number; [i: number]: number }>(a: T): T {
  for (let i = 0; i < a.length; i++) if (a[i] === 0) a[i] = 0;
  return a;
}
