/**
 * The one place where Urho3D space meets glTF space.
 *
 * Urho3D is left-handed, +Y up, +Z forward, clockwise front faces; glTF is right-handed, +Y up,
 * +Z forward ("the front of a glTF asset faces +Z"), counter-clockwise. One axis is mirrored:
 * - `axes: 'gltf'` (default): X, as rbfx's glTF importer does — the model's forward (+Z in Urho3D)
 *   stays +Z, so a character faces the viewer in glTF tools: positions, normals, translations,
 *   tangent xyz and morph deltas (−x, y, z); quaternions (x, −y, −z, w);
 * - `axes: 'assetimporter'`: Z, the mirror Urho3D's AssetImporter applies through assimp
 *   (x, y, −z), quaternions (−x, −y, z, w) — for assets that went glTF → Urho3D through
 *   AssetImporter and so face −Z in Urho3D.
 * Either way matrices become S·M·S and triangle winding is reversed. Tangent w keeps its sign
 * (Urho builds the bitangent as cross(T, N)·w, glTF as cross(N, T)·w: the mirror flips both).
 * Scales are unchanged. A mirror is its own inverse, so export applies the same functions; import
 * records the choice in the scene's `extras.urho3d.axes`, and export uses the recorded one unless
 * told otherwise.
 */
import type { Document } from '@gltf-transform/core';
import {
  type AxisMap,
  convertMat4,
  convertQuaternions,
  convertVec3,
  flipWinding,
  mirrorAxis,
} from '@gltf-legacy/core';

/** Which axis is mirrored between Urho3D and glTF (see the file comment). */
export type UrhoAxes = 'gltf' | 'assetimporter';

/** The default axis convention: the model's forward stays +Z. */
export const URHO_AXES_DEFAULT: UrhoAxes = 'gltf';

/** The X mirror between Urho3D and glTF space (its own inverse): the default. */
export const URHO_MIRROR = mirrorAxis(0);

/** The Z mirror of Urho3D's AssetImporter (`axes: 'assetimporter'`). */
export const ASSETIMPORTER_MIRROR = mirrorAxis(2);

/**
 * The axis convention an option value names (`undefined` → `fallback`); throws a RangeError
 * naming the accepted values otherwise.
 *
 * ```ts
 * urhoAxes('assetimporter'); // 'assetimporter'
 * ```
 */
export function urhoAxes(value: unknown, fallback: UrhoAxes = URHO_AXES_DEFAULT): UrhoAxes {
  if (value === undefined || value === null || value === '') return fallback;
  if (value === 'gltf' || value === 'assetimporter') return value;
  throw new RangeError(`axes must be 'gltf' or 'assetimporter', not ${JSON.stringify(value)}`);
}

/** The mirror of an axis convention. */
export function urhoMirror(axes: UrhoAxes): AxisMap {
  return axes === 'assetimporter' ? ASSETIMPORTER_MIRROR : URHO_MIRROR;
}

/** The convention import recorded on the document's scenes (`extras.urho3d.axes`), if any. */
export function recordedAxes(doc: Document): UrhoAxes | undefined {
  const root = doc.getRoot();
  for (const scene of [root.getDefaultScene(), ...root.listScenes()]) {
    const a = (scene?.getExtras() as any)?.urho3d?.axes;
    if (a === 'gltf' || a === 'assetimporter') return a;
  }
  return undefined;
}

/** Mirrors packed 3-vectors in place (`stride` 3, or 4 for tangents: w untouched). */
export function mirrorVec3(
  data: { length: number; [i: number]: number },
  stride = 3,
  mirror: AxisMap = URHO_MIRROR,
): void {
  convertVec3(mirror, data, stride, 0); // typed arrays take core's monomorphic loop
}

/**
 * After a morph-delta mirror (or bake): every VEC3 of `out` that is a zero delta in `src` (each
 * component ±0) gets `src`'s bits back. A zero delta then means the same bits both ways — and a
 * sparse accessor, which stores only non-zero elements and reads the rest back as +0, keeps a
 * file's +0 zeros (the mirror would have made them -0 on the mirrored axis).
 *
 * ```ts
 * const src = Float32Array.of(0, 0, 0, 1, 2, 3);
 * const out = src.slice();
 * mirrorVec3(out);
 * keepZeroDeltas(out, src); // out = [0, 0, 0, -1, 2, 3] with the X mirror: no -0
 * ```
 */
export function keepZeroDeltas(out: Float32Array, src: ArrayLike<number>): void {
  for (let i = 0; i + 2 < out.length; i += 3) {
    if (src[i] === 0 && src[i + 1] === 0 && src[i + 2] === 0) {
      out[i] = src[i];
      out[i + 1] = src[i + 1];
      out[i + 2] = src[i + 2];
    }
  }
}

/**
 * Sign bits (x 1, y 2, z 4) that every zero VEC3 of `a` (each component ±0) shares: 0 when they
 * are all +0 (or there is none), null when they differ. A morph buffer's zero deltas with one
 * pattern are written +0 in glTF (so a sparse target can drop them) and the pattern is kept in
 * the model extras (`zeroSigns`).
 *
 * ```ts
 * uniformZeroSigns(Float32Array.of(0, 0, -0, 1, 2, 3, 0, 0, -0)); // 4: z is -0 in every zero delta
 * ```
 */
export function uniformZeroSigns(a: ArrayLike<number>): number | null {
  let pattern = -1;
  for (let i = 0; i + 2 < a.length; i += 3) {
    if (a[i] !== 0 || a[i + 1] !== 0 || a[i + 2] !== 0) continue;
    const p =
      (Object.is(a[i], -0) ? 1 : 0) | (Object.is(a[i + 1], -0) ? 2 : 0) | (Object.is(a[i + 2], -0) ? 4 : 0);
    if (pattern < 0) pattern = p;
    else if (p !== pattern) return null;
  }
  return Math.max(pattern, 0); // -1: no zero delta
}

/** Gives every zero VEC3 of `a` the sign bits `pattern` (x 1, y 2, z 4): {@link uniformZeroSigns}. */
export function setZeroSigns(a: Float32Array, pattern: number): void {
  for (let i = 0; i + 2 < a.length; i += 3) {
    if (a[i] !== 0 || a[i + 1] !== 0 || a[i + 2] !== 0) continue;
    a[i] = pattern & 1 ? -0 : 0;
    a[i + 1] = pattern & 2 ? -0 : 0;
    a[i + 2] = pattern & 4 ? -0 : 0;
  }
}

/** Mirrors quaternions in glTF order (x, y, z, w) in place. */
export function mirrorQuat(
  data: { length: number; [i: number]: number },
  mirror: AxisMap = URHO_MIRROR,
): void {
  convertQuaternions(mirror, data, 4);
}

/** Mirrors column-major 4×4 matrices in place. */
export function mirrorMat4(
  data: { length: number; [i: number]: number },
  mirror: AxisMap = URHO_MIRROR,
): void {
  convertMat4(mirror, data, 16);
}

/** Reverses triangle-list winding in place (its own inverse). */
export function flipTriangles(indices: { length: number; [i: number]: number }): void {
  flipWinding(indices);
}

/** Urho Matrix3x4 (row-major 12 floats) → glTF column-major 4×4 in Urho space. */
export function matrix3x4ToMat4(
  m: ArrayLike<number>,
  out: Float32Array | number[] = new Array(16),
): Float32Array | number[] {
  out[0] = m[0];
  out[1] = m[4];
  out[2] = m[8];
  out[3] = 0;
  out[4] = m[1];
  out[5] = m[5];
  out[6] = m[9];
  out[7] = 0;
  out[8] = m[2];
  out[9] = m[6];
  out[10] = m[10];
  out[11] = 0;
  out[12] = m[3];
  out[13] = m[7];
  out[14] = m[11];
  out[15] = 1;
  return out;
}

/** glTF column-major 4×4 → Urho Matrix3x4 (row-major 12 floats); the last row is dropped. */
export function mat4ToMatrix3x4(
  m: ArrayLike<number>,
  out: Float32Array = new Float32Array(12),
): Float32Array {
  for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) out[r * 4 + c] = m[c * 4 + r];
  return out;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const CANONICAL_NAN = 0x7fc00000;

/**
 * A float for JSON extras: -0, NaN and ±Infinity (which JSON cannot hold) become strings so the
 * exact value survives a .glb round trip. A NaN whose float32 bits are not the canonical
 * 0x7fc00000 (e.g. 0xffc00000, what x86 gives for Infinity - Infinity) keeps its bits:
 * `"NaN:ffc00000"`. {@link floatFromJson} reverses it.
 */
export function floatToJson(x: number): number | string {
  if (Number.isNaN(x)) {
    f32[0] = x;
    const bits = u32[0];
    return bits === CANONICAL_NAN ? 'NaN' : `NaN:${bits.toString(16).padStart(8, '0')}`;
  }
  return Object.is(x, -0) || !Number.isFinite(x) ? String(Object.is(x, -0) ? '-0' : x) : x;
}

/**
 * Reverses {@link floatToJson} (other values pass through; non-numbers become NaN). A `"NaN:<bits>"`
 * gives the NaN that stores as those float32 bits (quiet NaNs keep sign and payload in a
 * Float32Array; that is what lets a written .mdl survive import → export byte for byte).
 */
export function floatFromJson(x: unknown): number {
  if (typeof x === 'number') return x;
  const m = typeof x === 'string' ? /^NaN:([0-9a-f]{8})$/.exec(x) : null;
  if (m) {
    u32[0] = Number.parseInt(m[1], 16);
    return Number.isNaN(f32[0]) ? f32[0] : Number.NaN;
  }
  return Number(x);
}

/** {@link floatToJson} over an array. */
export function floatsToJson(a: ArrayLike<number>): (number | string)[] {
  return Array.from(a, floatToJson);
}

/** Indices of the -0 components of `a` (kept in extras where glTF stores values as JSON numbers). */
export function negativeZeros(a: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (Object.is(a[i], -0)) out.push(i);
  return out;
}

/** Gives zero components their recorded sign: -0 at `indices`, +0 elsewhere. */
export function applyZeroSigns(a: Float32Array, indices: readonly number[] | undefined): void {
  for (let i = 0; i < a.length; i++) if (a[i] === 0) a[i] = indices?.includes(i) ? -0 : 0;
}
