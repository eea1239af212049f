/**
 * Where the imported meshes go in the scene: LOD 0 on the node `NAME_mesh` under the model's top
 * node (skinned when any primitive has joints), lower LOD levels on nodes referenced by that
 * node's `MSFT_lod` extension.
 */
import type { Document, Mesh, Node, Skin } from '@gltf-transform/core';
import type { MdlModel } from '../mdl.js';
import { MSFT_LOD, MSFTLod } from '../msft-lod.js';

/** Attaches `meshes` (from `importGeometries`) below `top`; disposes an empty LOD 0 mesh. */
export function placeMeshes(
  doc: Document,
  model: MdlModel,
  name: string,
  top: Node,
  meshes: Mesh[],
  skin: Skin | null,
  anyJoints: boolean,
): void {
  if (meshes[0].listPrimitives().length) {
    const meshNode = doc.createNode(`${name}_mesh`).setMesh(meshes[0]);
    if (anyJoints && skin) meshNode.setSkin(skin);
    top.addChild(meshNode);
    const lower = meshes.slice(1).filter((m) => m.listPrimitives().length);
    if (lower.length) {
      // MSFT_lod: LOD nodes outside the scene. A geometry without level L shows its last level there
      // (the engine does the same); those copies are tagged `fill` and ignored by export.
      const lod = doc.createExtension(MSFTLod).createLod();
      lower.forEach((mesh, k) => {
        const level = k + 1;
        model.geometries.forEach((geo, g) => {
          if (geo.lods.length > level) return;
          const last = meshes[Math.min(geo.lods.length, meshes.length) - 1]
            ?.listPrimitives()
            .find(
              (p) =>
                (p.getExtras() as any)?.urho3d?.geometry === g &&
                (p.getExtras() as any)?.urho3d?.lod === geo.lods.length - 1,
            );
          if (!last) return;
          const copy = last.clone();
          for (const t of copy.listTargets()) copy.removeTarget(t);
          copy.setExtras({ urho3d: { geometry: g, lod: geo.lods.length - 1, fill: true } });
          mesh.addPrimitive(copy);
        });
        const n = doc.createNode(`${name}_LOD${level}`).setMesh(mesh);
        if (anyJoints && skin) n.setSkin(skin);
        lod.addLod(n);
      });
      meshNode.setExtension(MSFT_LOD, lod);
    }
  } else meshes[0].dispose();
}
