/**
 * Import of the skeleton: bone nodes from a skeleton header + bind-pose floats (file axes) →
 * glTF node TRS, shared between the mesh and its `.anim` files by name.
 */
import { convertQuaternions, convertScale, convertVec3 } from '@gltf-legacy/core';
import type { Document, Node, Scene } from '@gltf-transform/core';
import type { UnigineBone } from '../common.js';
import { packF32 } from '../jsonf32.js';
import { UNIGINE_TO_GLTF } from '../axes.js';
import { TRS_FLOATS } from '../common.js';

/** Bone nodes built from a skeleton header + bind pose (file axes), converted to glTF. */
export function boneTRS(bindPose: Float32Array, i: number): { t: number[]; r: number[]; s: number[] } {
  const o = i * TRS_FLOATS;
  const t = [bindPose[o], bindPose[o + 1], bindPose[o + 2]];
  const r = [bindPose[o + 3], bindPose[o + 4], bindPose[o + 5], bindPose[o + 6]];
  const s = [bindPose[o + 7], bindPose[o + 8], bindPose[o + 9]];
  convertVec3(UNIGINE_TO_GLTF, t);
  convertQuaternions(UNIGINE_TO_GLTF, r);
  convertScale(UNIGINE_TO_GLTF, s);
  return { t, r, s };
}

/** True when `v` is within 1e-4 of `def` in every component but not equal to it. */
export function nearDefault(v: readonly number[], def: readonly number[]): boolean {
  let equal = true;
  for (let k = 0; k < v.length; k++) {
    if (Math.abs(v[k] - def[k]) > 1e-4) return false;
    if (!Object.is(v[k], def[k])) equal = false;
  }
  return !equal;
}

export function setTRS(node: Node, trs: { t: number[]; r: number[]; s: number[] }): void {
  node.setTranslation(trs.t as [number, number, number]);
  // Rotations in files are close to unit length; glTF requires unit quaternions.
  const len = Math.hypot(trs.r[0], trs.r[1], trs.r[2], trs.r[3]);
  const r = Math.abs(len - 1) < 1e-3 ? trs.r : len > 0 ? trs.r.map((v) => v / len) : [0, 0, 0, 1];
  node.setRotation(r as [number, number, number, number]);
  node.setScale(trs.s as [number, number, number]);
}

export function bindPoseFloats(bindPose: Float32Array, i: number): number[] {
  return Array.from(bindPose.subarray(i * TRS_FLOATS, (i + 1) * TRS_FLOATS));
}

/** The bone nodes made so far, by name, and their bind-pose floats (file axes). */
export interface SkeletonNodes {
  scene: Scene;
  nodeByName: Map<string, Node>;
  /** Bind-pose floats of every bone node, by name, to detect per-file differences. */
  bindByName: Map<string, number[]>;
}

/**
 * Nodes for `bones` with their bind pose, parented as the file says (roots under the scene). An
 * `.anim` file's bones (`animOnly`) reuse the nodes of the same name and add only the others.
 */
export function addSkeleton(
  doc: Document,
  skeleton: SkeletonNodes,
  bones: readonly UnigineBone[],
  bindPose: Float32Array,
  animOnly: boolean,
): Node[] {
  const { nodeByName, bindByName } = skeleton;
  const nodes: Node[] = [];
  const created = new Set<Node>();
  for (let i = 0; i < bones.length; i++) {
    const existing = animOnly ? nodeByName.get(bones[i].name) : undefined;
    if (existing) {
      nodes.push(existing);
      continue;
    }
    const node = doc.createNode(bones[i].name);
    created.add(node);
    const nodeExtras: Record<string, unknown> = {};
    if (bindPose.length >= (i + 1) * TRS_FLOATS) {
      const trs = boneTRS(bindPose, i);
      setTRS(node, trs);
      const raw = bindPoseFloats(bindPose, i);
      bindByName.set(bones[i].name, raw);
      // glTF writers drop a TRS part within ~1e-5 of its default, and JSON has no −0: keep
      // the exact floats in such cases.
      if (
        nearDefault(trs.t, [0, 0, 0]) ||
        nearDefault(trs.r, [0, 0, 0, 1]) ||
        nearDefault(trs.s, [1, 1, 1]) ||
        [...raw, ...trs.t, ...trs.r, ...trs.s].some((v) => Object.is(v, -0)) ||
        Math.abs(Math.hypot(...trs.r) - 1) >= 1e-3
      ) {
        nodeExtras.bind = packF32(raw);
      }
    }
    if (animOnly) nodeExtras.animOnly = true;
    if (Object.keys(nodeExtras).length) node.setExtras({ unigine: nodeExtras });
    if (!nodeByName.has(bones[i].name)) nodeByName.set(bones[i].name, node);
    nodes.push(node);
  }
  for (let i = 0; i < bones.length; i++) {
    if (!created.has(nodes[i])) continue; // bone of the mesh or of an earlier file
    const p = bones[i].parent;
    if (p >= 0) nodes[p].addChild(nodes[i]);
    else skeleton.scene.addChild(nodes[i]);
  }
  return nodes;
}
