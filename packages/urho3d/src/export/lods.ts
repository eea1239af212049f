/**
 * Which glTF primitives become which Urho3D geometry and LOD level. A document from
 * {@link importUrho} names them (`extras.urho3d.geometry` on LOD-0 primitives, LOD meshes with
 * `extras.urho3d.lodLevel`, the model's LOD table in `extras.urho3d.model`); any other document
 * gives one geometry per primitive, LOD 0 only.
 */
import type { Mesh, Node, Primitive, Root } from '@gltf-transform/core';
import type { UrhoModelExtras } from '../extras.js';
import { floatFromJson } from '../space.js';
import { isIdentity, type VPrim } from './common.js';
import { makeVPrim, type PrimitiveContext } from './primitives.js';

/** LOD meshes by level, and their primitives by `"geometry|level"` (in LOD mesh order). */
export interface LodLevels {
  meshes: Map<number, Mesh>;
  prims: Map<string, Primitive[]>;
}

/** The LOD meshes of a hinted document (none without `hx`). */
export function lodLevels(root: Root, hx: UrhoModelExtras | undefined): LodLevels {
  const meshes = new Map<number, Mesh>();
  if (hx) {
    for (const mesh of root.listMeshes()) {
      const lvl = (mesh.getExtras() as any)?.urho3d?.lodLevel;
      if (Number.isInteger(lvl) && lvl > 0) meshes.set(lvl, mesh);
    }
  }
  // LOD-level primitives by "geometry|level" (in LOD mesh order), instead of a scan per geometry.
  const prims = new Map<string, Primitive[]>();
  for (const [lvl, lm] of meshes) {
    for (const lp of lm.listPrimitives()) {
      const le = (lp.getExtras() as any)?.urho3d;
      if (le?.lod !== lvl || typeof le.geometry !== 'number') continue;
      const key = `${le.geometry}|${lvl}`;
      const list = prims.get(key);
      if (list) list.push(lp);
      else prims.set(key, [lp]);
    }
  }
  return { meshes, prims };
}

/** Sets a VPrim's distance and buffer hints from the model's LOD table. */
function applyLodHint(vp: VPrim, hx: UrhoModelExtras, g: number, level: number): void {
  const lh = hx.geometries[g]?.lods[level];
  if (!lh) return;
  vp.distance = floatFromJson(lh.distance);
  vp.hintVb = lh.vertexBuffer;
  vp.hintIb = lh.indexBuffer;
}

/**
 * Every primitive of `meshNodes` (and, for a hinted model, its lower LOD levels) as VPrims, with
 * the number of geometries they make.
 */
export function collectVPrims(
  ctx: PrimitiveContext,
  meshNodes: Node[],
  hint: { top: Node; extras: UrhoModelExtras } | null,
  lods: LodLevels,
  rigidBoneOf: (n: Node) => number,
): { vprims: VPrim[]; geometryCount: number } {
  const hx = hint?.extras;
  const vprims: VPrim[] = [];
  let geometryCount = 0;
  for (const node of meshNodes) {
    const mesh = node.getMesh()!;
    const skin = node.getSkin();
    const world = node.getWorldMatrix();
    const bake = skin ? null : isIdentity(world) ? null : Float32Array.from(world);
    const names: string[] = (mesh.getExtras() as any)?.targetNames ?? [];
    const fromHint = !!hx && node.getParentNode() === hint!.top;
    const rigid = skin ? -1 : rigidBoneOf(node);
    for (const prim of mesh.listPrimitives()) {
      const pe = (prim.getExtras() as any)?.urho3d;
      const g = fromHint && Number.isInteger(pe?.geometry) ? pe.geometry : geometryCount;
      const vp = makeVPrim(ctx, prim, g, 0, skin, bake, names, mesh.getName(), rigid);
      if (!vp) continue;
      if (fromHint) applyLodHint(vp, hx!, g, 0);
      vprims.push(vp);
      geometryCount = Math.max(geometryCount, g + 1);
      // Lower LOD levels of this geometry.
      if (!fromHint) continue;
      for (const [lvl, lm] of lods.meshes) {
        for (const lp of lods.prims.get(`${g}|${lvl}`) ?? []) {
          const lv = makeVPrim(ctx, lp, g, lvl, skin, bake, [], lm.getName(), rigid);
          if (!lv) continue;
          applyLodHint(lv, hx!, g, lvl);
          vprims.push(lv);
        }
      }
    }
  }
  return { vprims, geometryCount };
}
