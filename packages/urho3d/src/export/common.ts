/**
 * What every export step shares: the `VPrim` (one primitive — a geometry's LOD level — in Urho
 * space as plain arrays, between the glTF read and the file model) and small helpers on it.
 */
import type { Material } from '@gltf-transform/core';

export type AttrValues = Float32Array | Uint8Array | Uint16Array;

/** One primitive (a geometry's LOD level) in Urho space, plain arrays. */
export interface VPrim {
  geometry: number;
  lod: number;
  distance: number;
  /** Primitives with the same key share a vertex buffer. */
  vbKey: unknown;
  vertexCount: number;
  attrs: Map<string, { values: AttrValues; comps: number; normalizedU8: boolean }>;
  /** Bone indices (4 per vertex) and weights, or null when not skinned. */
  joints: Uint16Array | null;
  weights: Float32Array | null;
  rawBlend: Uint8Array | null;
  indices: Uint32Array;
  primitiveType: number;
  targets: { key: string; pos?: Float32Array; nrm?: Float32Array; tan?: Float32Array }[];
  hintVb?: number;
  hintIb?: number;
  /** The glTF material of the primitive (for the material list of a prefab). */
  material?: Material | null;
}

export function isIdentity(m: ArrayLike<number>): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}

export function sameFloats(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(Math.fround(a[i]), Math.fround(b[i]))) return false;
  return true;
}

/** `vprims` grouped by geometry number (index = geometry), in their original order. */
export function primsByGeometry(vprims: VPrim[], geometryCount: number): VPrim[][] {
  const out: VPrim[][] = [];
  for (let g = 0; g < geometryCount; g++) out.push([]);
  for (const p of vprims) out[p.geometry]?.push(p);
  return out;
}

export function usedBones(vp: VPrim, indices: ArrayLike<number>): Set<number> {
  const s = new Set<number>();
  if (!vp.joints) return s;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    for (let c = 0; c < 4; c++) if (vp.weights![v * 4 + c] > 0) s.add(vp.joints[v * 4 + c]);
  }
  return s;
}
