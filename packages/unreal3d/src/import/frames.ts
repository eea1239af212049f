/**
 * Per-frame vertex helpers of the importer: smooth normals of one frame or of all (as the engine
 * shades) and the test for an `_a.3d` whose frames are all equal.
 */
import { accumulateFaceNormals } from '@gltf-legacy/core';
import type { UnrealAniv } from '../aniv.js';

/**
 * Area-weighted smooth normals of ONE frame per file vertex, in glTF axes, unit length
 * ((0, 1, 0) for vertices without area). `pos` holds the frame's raw Unreal positions (`nv·3`);
 * `rendered[i]` non-zero marks the triangles that count (null: all). Writes into `out`.
 *
 * ```ts
 * const n0 = frameNormals(anivFrame(aniv, 0), nv, data.polys.vertices, null);
 * ```
 */
export function frameNormals(
  pos: Float32Array,
  nv: number,
  tris: Uint16Array,
  rendered: Uint8Array | null,
  out = new Float32Array(nv * 3),
): Float32Array {
  out.fill(0, 0, nv * 3);
  // Summed in Unreal axes on the raw positions (core's loop): bit for bit the glTF-axes sums of
  // the corners (a, c, b) with Y and Z swapped, so only the normalization swaps them back.
  accumulateFaceNormals(pos, tris, out, rendered);
  for (let i = 0; i < nv * 3; i += 3) {
    const x = out[i];
    const y = out[i + 2];
    const z = out[i + 1];
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) {
      out[i] = x / l;
      out[i + 1] = y / l;
      out[i + 2] = z / l;
    } else {
      out[i] = 0;
      out[i + 1] = 1;
      out[i + 2] = 0;
    }
  }
  return out;
}

/**
 * {@link frameNormals} for every frame: `all` holds raw Unreal positions, `frameCount·nv·3`.
 *
 * ```ts
 * const normals = smoothNormals(anivPositions(aniv), aniv.frameCount, nv, tris, () => true);
 * ```
 */
export function smoothNormals(
  all: Float32Array,
  frameCount: number,
  nv: number,
  tris: Uint16Array,
  rendered: (i: number) => boolean,
): Float32Array {
  const out = new Float32Array(frameCount * nv * 3);
  const mask = new Uint8Array(tris.length / 3);
  for (let i = 0; i < mask.length; i++) mask[i] = rendered(i) ? 1 : 0;
  for (let f = 0; f < frameCount; f++) {
    const P = f * nv * 3;
    frameNormals(all.subarray(P, P + nv * 3), nv, tris, mask, out.subarray(P, P + nv * 3));
  }
  return out;
}

/** True when frames 1‥frameCount−1 hold the same X, Y, Z as frame 0 for every vertex. */
export function framesAllSame(aniv: UnrealAniv, frameCount: number): boolean {
  const nv = aniv.numVertices;
  if (aniv.layout === 'packed' && aniv.packed) {
    const p = aniv.packed;
    for (let f = 1; f < frameCount; f++) {
      const o = f * nv;
      for (let v = 0; v < nv; v++) if (p[o + v] !== p[v]) return false;
    }
    return true;
  }
  const w = aniv.words;
  if (!w) return false;
  for (let f = 1; f < frameCount; f++) {
    const o = f * nv * 4;
    for (let i = 0; i < nv * 4; i += 4) {
      if (w[o + i] !== w[i] || w[o + i + 1] !== w[i + 1] || w[o + i + 2] !== w[i + 2]) return false;
    }
  }
  return true;
}
