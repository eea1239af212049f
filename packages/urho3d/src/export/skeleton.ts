/**
 * Which nodes export reads: the mesh nodes of the scene, and the Urho3D skeleton — the joints of
 * every skin used plus nodes animated outside a skin (with their ancestors), so `.ani` tracks can
 * drive them; meshes below such a bone are bound rigidly to it.
 */
import { accessorFloats, type WarningCollector } from '@gltf-legacy/core';
import type { Node, Root, Skin } from '@gltf-transform/core';
import { mat4 } from 'gl-matrix';

/** The skeleton export writes: bones in file order and their inverse bind matrices. */
export interface Skeleton {
  boneNodes: Node[];
  boneIndex: Map<Node, number>;
  ibmOf: Map<Node, Float32Array>;
}

/** Nodes with a mesh, depth first through the default scene (or every root node without one). */
export function meshNodesOf(root: Root): Node[] {
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const meshNodes: Node[] = [];
  const visit = (n: Node) => {
    if (n.getMesh()) meshNodes.push(n);
    for (const c of n.listChildren()) visit(c);
  };
  if (scene) for (const n of scene.listChildren()) visit(n);
  else for (const n of root.listNodes()) if (!n.getParentNode() && n.getMesh()) meshNodes.push(n);
  return meshNodes;
}

/** Joints of every skin `meshNodes` use (or of the first skin when `hinted`), then animated nodes. */
export function collectSkeleton(
  root: Root,
  meshNodes: Node[],
  hinted: boolean,
  warnings: WarningCollector,
): Skeleton {
  const skins: Skin[] = [];
  for (const n of meshNodes) {
    const s = n.getSkin();
    if (s && !skins.includes(s)) skins.push(s);
  }
  if (!skins.length && hinted && root.listSkins().length) skins.push(root.listSkins()[0]);
  if (skins.length > 1)
    warnings.warn('SKINS_MERGED', `${skins.length} skins merged into one Urho3D skeleton`);
  const boneNodes: Node[] = [];
  const boneIndex = new Map<Node, number>();
  const ibmOf = new Map<Node, Float32Array>();
  for (const s of skins) {
    const ibm = s.getInverseBindMatrices();
    const arr = ibm ? accessorFloats(ibm) : null;
    s.listJoints().forEach((j, i) => {
      if (!boneIndex.has(j)) {
        boneIndex.set(j, boneNodes.length);
        boneNodes.push(j);
        if (arr) ibmOf.set(j, arr.slice(i * 16, i * 16 + 16));
      }
    });
  }
  // Nodes animated outside any skin become bones (with their ancestors), so .ani tracks can
  // drive them; meshes below a bone are bound rigidly to it.
  for (const a of root.listAnimations()) {
    for (const ch of a.listChannels()) {
      const target = ch.getTargetNode();
      if (!target || ch.getTargetPath() === 'weights' || boneIndex.has(target)) continue;
      const chain: Node[] = [];
      for (let c: Node | null = target; c && !boneIndex.has(c); c = c.getParentNode()) chain.unshift(c);
      for (const x of chain) {
        boneIndex.set(x, boneNodes.length);
        boneNodes.push(x);
        ibmOf.set(
          x,
          Float32Array.from(
            mat4.invert(mat4.create(), x.getWorldMatrix() as unknown as mat4) ?? mat4.create(),
          ),
        );
      }
    }
  }
  return { boneNodes, boneIndex, ibmOf };
}

/** The bone `n` or its nearest ancestor is, or -1. */
export function rigidBoneOf(skeleton: Skeleton, n: Node): number {
  for (let c: Node | null = n; c; c = c.getParentNode()) {
    const b = skeleton.boneIndex.get(c);
    if (b !== undefined) return b;
  }
  return -1;
}

/** The bone number of each joint of `s`. */
export function skinJointToBone(skeleton: Skeleton, s: Skin): Uint16Array {
  return Uint16Array.from(s.listJoints(), (j) => skeleton.boneIndex.get(j)!);
}
