/** Small float64 helpers for tangent frames and bone transforms (no per-vertex objects). */
import { composeTRS } from '@gltf-legacy/core';
import { mat4 } from 'gl-matrix';

/** Rotates (0,0,1) and (1,0,0) by the unit quaternion (x, y, z, w); writes normal and tangent. */
export function quatToNormalTangent(
  x: number,
  y: number,
  z: number,
  w: number,
  n: Float32Array,
  no: number,
  t: Float32Array,
  to: number,
): void {
  n[no] = 2 * (x * z + w * y);
  n[no + 1] = 2 * (y * z - w * x);
  n[no + 2] = 1 - 2 * (x * x + y * y);
  t[to] = 1 - 2 * (y * y + z * z);
  t[to + 1] = 2 * (x * y + w * z);
  t[to + 2] = 2 * (x * z - w * y);
}

/**
 * Quaternion (x, y, z, w) of the rotation whose matrix has columns `c0`, `c1`, `c2`
 * (must be orthonormal and right-handed). Written to `out`.
 */
export function quatFromBasis(
  c0x: number,
  c0y: number,
  c0z: number,
  c1x: number,
  c1y: number,
  c1z: number,
  c2x: number,
  c2y: number,
  c2z: number,
  out: Float64Array,
): void {
  // m[row][col]: m00 = c0x, m10 = c0y, m20 = c0z, m01 = c1x, …
  const trace = c0x + c1y + c2z;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    w = 0.25 * s;
    x = (c1z - c2y) / s;
    y = (c2x - c0z) / s;
    z = (c0y - c1x) / s;
  } else if (c0x > c1y && c0x > c2z) {
    const s = Math.sqrt(1 + c0x - c1y - c2z) * 2;
    w = (c1z - c2y) / s;
    x = 0.25 * s;
    y = (c1x + c0y) / s;
    z = (c2x + c0z) / s;
  } else if (c1y > c2z) {
    const s = Math.sqrt(1 + c1y - c0x - c2z) * 2;
    w = (c2x - c0z) / s;
    x = (c1x + c0y) / s;
    y = 0.25 * s;
    z = (c2y + c1z) / s;
  } else {
    const s = Math.sqrt(1 + c2z - c0x - c1y) * 2;
    w = (c0y - c1x) / s;
    x = (c2x + c0z) / s;
    y = (c2y + c1z) / s;
    z = 0.25 * s;
  }
  const len = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
  out[0] = x / len;
  out[1] = y / len;
  out[2] = z / len;
  out[3] = w / len;
}

/**
 * World bind matrices (float64, column-major) of a bone hierarchy from each bone's local TRS
 * (glTF axes). Parents may come after their children; `parents` must be acyclic. The importer
 * builds its inverse bind matrices from these, and the exporter recomputes them the same way to
 * recognise joint nodes that are exactly in the imported bind pose (see `exportUnigine`).
 *
 * ```ts
 * const worlds = boneWorldMatrices([-1, 0], (i) => ({ t: [0, i, 0], r: [0, 0, 0, 1], s: [1, 1, 1] }));
 * worlds[1][13]; // 1
 * ```
 */
export function boneWorldMatrices(
  parents: ArrayLike<number>,
  localTRS: (i: number) => { t: ArrayLike<number>; r: ArrayLike<number>; s: ArrayLike<number> },
): Float64Array[] {
  const n = parents.length;
  const world: Float64Array[] = new Array(n);
  for (let i = 0; i < n; i++) world[i] = new Float64Array(16);
  const local = new Float64Array(16);
  const done = new Uint8Array(n);
  const chain: number[] = [];
  for (let i = 0; i < n; i++) {
    // Walk up to a computed ancestor, then compose down (iterative: chains can be long).
    chain.length = 0;
    for (let j = i; j >= 0 && !done[j]; j = parents[j]) chain.push(j);
    for (let k = chain.length - 1; k >= 0; k--) {
      const j = chain[k];
      const { t, r, s } = localTRS(j);
      composeTRS(t, r, s, local);
      const p = parents[j];
      if (p >= 0)
        mat4.multiply(world[j] as unknown as mat4, world[p] as unknown as mat4, local as unknown as mat4);
      else world[j].set(local);
      done[j] = 1;
    }
  }
  return world;
}

/**
 * Inverse of a bone world matrix as float32 (what a glTF inverse bind matrix stores), or null
 * when the matrix is singular.
 */
export function inverseBindMatrix(world: Float64Array): Float32Array | null {
  const inv = new Float64Array(16);
  if (!mat4.invert(inv as unknown as mat4, world as unknown as mat4)) return null;
  return Float32Array.from(inv);
}
