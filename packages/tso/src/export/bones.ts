/**
 * Which nodes of the (prepared) document become TSO bones, and their rest frames: TSO bones have
 * a translation and a rotation only, parents before children.
 */
import { ExportError, type WarningCollector } from '@gltf-legacy/core';
import type { Document, Node } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import { inv, mat, mul, trMatrix } from '../space.js';
import { type BoneInfo, isTsoGroup, nodeWorld, uniqueName } from './common.js';
import { hasInfluences, storable } from './geometry.js';

/** The nodes that carry mesh data and the nodes that become bones, in bone order. */
export interface BoneNodes {
  meshNodes: Node[];
  boneNodes: Node[];
  boneIndex: Map<Node, number>;
}

/**
 * Step 1 of the map: the joints of every skin, every node with a rigid (unskinned) primitive,
 * the bones of an imported skeleton and every node an animation moves.
 */
export function collectBoneNodes(doc: Document): BoneNodes {
  const root = doc.getRoot();
  // Only nodes with a primitive TSO can store (triangles with vertices) carry mesh data.
  const meshNodes = root.listNodes().filter((n) => n.getMesh()?.listPrimitives().some(storable));
  const boneNodes: Node[] = [];
  const boneIndex = new Map<Node, number>();
  const addBone = (n: Node) => {
    if (!boneIndex.has(n)) {
      boneIndex.set(n, boneNodes.length);
      boneNodes.push(n);
    }
  };
  for (const n of meshNodes) {
    const skin = n.getSkin();
    if (skin) for (const j of skin.listJoints()) addBone(j);
    // A primitive without JOINTS_0/WEIGHTS_0 (even on a skinned node) is rigid on its node.
    if (
      !skin ||
      n
        .getMesh()!
        .listPrimitives()
        .some((p) => storable(p) && !hasInfluences(p))
    )
      addBone(n);
  }
  // Bones of an imported TSO skeleton (even when no mesh uses them, e.g. a .skel converted alone).
  for (const n of root.listNodes()) {
    const x = n.getExtras()?.tso as { canTranslate?: unknown } | undefined;
    if (x && x.canTranslate !== undefined) addBone(n);
  }
  for (const a of root.listAnimations())
    for (const c of a.listChannels()) {
      const t = c.getTargetNode();
      if (t && (c.getTargetPath() === 'translation' || c.getTargetPath() === 'rotation')) addBone(t);
    }
  if (!boneNodes.length)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no mesh, skin or animated node to write as TSO files',
    );

  return { meshNodes, boneNodes, boneIndex };
}

/** The bones in parent-first order and their inverse rest world matrices. */
export interface BoneFrames {
  bones: BoneInfo[];
  order: number[];
  boneInv: Float64Array[];
}

/**
 * Step 2 of the map: each bone's parent bone, local translation/rotation (decomposed when the
 * parent is not a bone or the node is scaled: `BONE_SCALE_DROPPED`) and rest world matrix.
 */
export function boneFrames(
  boneNodes: Node[],
  boneIndex: Map<Node, number>,
  warnings: WarningCollector,
): BoneFrames {
  const used = new Set<string>();
  const bones: BoneInfo[] = boneNodes.map((node, i) => ({
    node,
    name: uniqueName(node.getName(), used, `bone${i}`),
    parent: -1,
    t: [0, 0, 0],
    r: [0, 0, 0, 1],
    world: mat(),
    baked: false,
  }));
  for (const b of bones) {
    for (let p = b.node.getParentNode(); p; p = p.getParentNode()) {
      const k = boneIndex.get(p);
      if (k !== undefined) {
        b.parent = k;
        break;
      }
    }
  }
  // Parents before children.
  const order: number[] = [];
  const placed = new Uint8Array(bones.length);
  const place = (i: number) => {
    if (placed[i]) return;
    placed[i] = 1;
    if (bones[i].parent >= 0) place(bones[i].parent);
    order.push(i);
  };
  for (let i = 0; i < bones.length; i++) place(i);
  let scaled = 0;
  for (const i of order) {
    const b = bones[i];
    const s = b.node.getScale();
    const unit = Math.abs(s[0] - 1) < 1e-6 && Math.abs(s[1] - 1) < 1e-6 && Math.abs(s[2] - 1) < 1e-6;
    const parentNode = b.node.getParentNode();
    const direct =
      b.parent >= 0 ? parentNode === bones[b.parent].node : !parentNode || isTsoGroup(parentNode);
    const parentWorld = b.parent >= 0 ? bones[b.parent].world : mat();
    if (direct && unit) {
      b.t = [...b.node.getTranslation()];
      b.r = [...b.node.getRotation()];
    } else {
      b.baked = true;
      const rel = mul(inv(parentWorld), nodeWorld(b.node));
      const t = vec3.create();
      const r = quat.create();
      const sc = vec3.create();
      mat4.getTranslation(t, rel);
      mat4.getScaling(sc, rel);
      mat4.getRotation(r, rel);
      quat.normalize(r, r);
      b.t = [t[0], t[1], t[2]];
      b.r = [r[0], r[1], r[2], r[3]];
      if (Math.abs(sc[0] - 1) > 1e-4 || Math.abs(sc[1] - 1) > 1e-4 || Math.abs(sc[2] - 1) > 1e-4) scaled++;
    }
    b.world = mul(parentWorld, trMatrix(b.t, b.r));
  }
  warnings.warn(
    'BONE_SCALE_DROPPED',
    'TSO bones have no scale: scaled nodes became unscaled bones (geometry is baked at rest)',
    scaled,
  );
  const boneInv = bones.map((b) => inv(b.world));
  return { bones, order, boneInv };
}
