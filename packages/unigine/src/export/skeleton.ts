/**
 * Export of the skeleton: the bones (skin joints and their ancestors), their bind poses in file
 * axes (from the joint nodes or the inverse bind matrices) and the parent fixes animations need.
 */
import {
  ExportError,
  type WarningCollector,
  accessorFloats,
  convertQuaternions,
  convertScale,
  convertVec3,
} from '@gltf-legacy/core';
import type { Document, Node } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import { GLTF_TO_UNIGINE } from '../axes.js';
import { TRS_FLOATS, type UnigineBone } from '../common.js';
import { unpackF32 } from '../jsonf32.js';
import { boneWorldMatrices, inverseBindMatrix } from '../math.js';
import { composeTRS } from '@gltf-legacy/core';
import { type M4, asMat, isIdentity, unigineExtras, worldMatrix } from './common.js';

/** Local TRS (glTF axes) of a node, as plain arrays. */
function nodeTRS(node: Node): { t: number[]; r: number[]; s: number[] } {
  return { t: [...node.getTranslation()], r: [...node.getRotation()], s: [...node.getScale()] };
}

export function decompose(m: M4): { t: number[]; r: number[]; s: number[] } {
  const t = vec3.create();
  const s = vec3.create();
  const r = quat.create();
  mat4.getTranslation(t, asMat(m));
  mat4.getScaling(s, asMat(m));
  // Negative determinant: put the mirror into the X scale.
  const det = mat4.determinant(asMat(m));
  if (det < 0) s[0] = -s[0];
  const n = new Float64Array(m);
  for (let c = 0; c < 3; c++)
    for (let k = 0; k < 3; k++) n[c * 4 + k] = s[c] !== 0 ? m[c * 4 + k] / s[c] : c === k ? 1 : 0;
  mat4.getRotation(r, asMat(n));
  quat.normalize(r, r);
  return { t: [t[0], t[1], t[2]], r: [r[0], r[1], r[2], r[3]], s: [s[0], s[1], s[2]] };
}

/**
 * Bind pose of a node in file axes: its TRS, or the exact floats kept in `extras.unigine.bind`
 * by the importer when they still describe the same transform.
 */
export function nodeBind(node: Node): number[] {
  const mine = toFileTRS(nodeTRS(node));
  const kept = unpackF32(unigineExtras(node)?.bind, 10);
  if (kept?.every((v, k) => Math.abs(v - mine[k]) <= 1e-4 * Math.max(1, Math.abs(v))))
    return Array.from(kept);
  return mine;
}

/** TRS (glTF axes) → the 10 bind-pose floats in file axes. */
function toFileTRS(trs: { t: number[]; r: number[]; s: number[] }): number[] {
  const t = trs.t.slice();
  const r = trs.r.slice();
  const s = trs.s.slice();
  convertVec3(GLTF_TO_UNIGINE, t);
  convertQuaternions(GLTF_TO_UNIGINE, r);
  convertScale(GLTF_TO_UNIGINE, s);
  return [...t, ...r, ...s];
}

export interface Skeleton {
  nodes: Node[];
  index: Map<Node, number>;
  bones: UnigineBone[];
  /** Bind pose per bone, file axes (10 floats each). */
  bind: number[][];
  /** For root bones whose node has a transformed parent: that parent's world matrix (glTF). */
  parentFix: (M4 | null)[];
}

export function buildSkeleton(doc: Document, warnings: WarningCollector): Skeleton {
  const nodes: Node[] = [];
  const index = new Map<Node, number>();
  const bindWorld = new Map<Node, M4>();
  // The inverse bind matrix each joint's bind pose came from (float32, as stored).
  const bindIBM = new Map<Node, Float32Array>();
  // Joints whose inverse bind matrix gives no finite float32 transform: their node TRS is used.
  const unusable = new Set<Node>();
  for (const skin of doc.getRoot().listSkins()) {
    const joints = skin.listJoints();
    const ibm = skin.getInverseBindMatrices();
    const ibmData = ibm ? accessorFloats(ibm) : null;
    joints.forEach((j, i) => {
      if (!index.has(j)) {
        index.set(j, nodes.length);
        nodes.push(j);
      }
      if (!bindWorld.has(j)) {
        const w = new Float64Array(16);
        if (ibmData && ibmData.length >= (i + 1) * 16) {
          const raw = ibmData.subarray(i * 16, i * 16 + 16);
          // Kept even when singular: float32 can flush a huge bind pose's matrix to rank < 4,
          // and import still wrote exactly that matrix (exact check below).
          bindIBM.set(j, raw);
          const m = new Float64Array(raw);
          if (!mat4.invert(asMat(w), asMat(m))) w.set(worldMatrix(j));
          else if (!finiteF32(raw) || !finite64(w)) {
            // A matrix holding NaN/±Infinity, or whose inverse does, is no bind transform. (World
            // matrices may exceed float32 range; bind poses decomposed from them are checked below.)
            w.set(worldMatrix(j));
            unusable.add(j);
          }
        } else w.set(worldMatrix(j));
        bindWorld.set(j, w);
      }
    });
  }
  if (nodes.length > 32767)
    throw new ExportError(
      'TOO_MANY_BONES',
      `${nodes.length} joints; UNIGINE bone indices are 16-bit (at most 32767 bones)`,
    );
  const bones: UnigineBone[] = nodes.map((node, i) => {
    let p = node.getParentNode();
    while (p && !index.has(p)) p = p.getParentNode();
    return { name: node.getName() || `bone_${i}`, parent: p ? (index.get(p) as number) : -1 };
  });
  // Joints exactly in the bind pose the importer wrote: their inverse bind matrices, and those of
  // all their ancestor bones, are bit for bit what import computes from the node TRS (same code).
  // Their TRS is the bind pose, however ill-conditioned the chain: deriving it again from the
  // float32 matrices (below) would not give a fixed point.
  const parents = bones.map((b) => b.parent);
  const nodeWorlds = boneWorldMatrices(parents, (i) => nodeTRS(nodes[i]));
  const own = nodes.map((node, i) => {
    const stored = bindIBM.get(node);
    const mine = stored ? inverseBindMatrix(nodeWorlds[i]) : null;
    return !!mine && mine.every((v, k) => v === stored?.[k]);
  });
  const exact = own.map((_, i) => {
    for (let j = i; j >= 0; j = parents[j]) if (!own[j]) return false;
    return true;
  });
  const bind: number[][] = [];
  const parentFix: (M4 | null)[] = [];
  const local = new Float64Array(16);
  const inv = new Float64Array(16);
  let derived = 0;
  for (let bi = 0; bi < nodes.length; bi++) {
    const node = nodes[bi];
    const parent = bones[bi].parent;
    let same = exact[bi];
    // Local bind transform relative to the parent bone.
    const w = bindWorld.get(node) as M4;
    const want = new Float64Array(16);
    if (!same) {
      if (parent >= 0 && mat4.invert(asMat(inv), asMat(bindWorld.get(nodes[parent]) as M4)))
        mat4.multiply(asMat(want), asMat(inv), asMat(w));
      else want.set(w);
      const trs = nodeTRS(node);
      composeTRS(trs.t, trs.r, trs.s, local);
      let scale = 1;
      for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(want[i]));
      same = true;
      for (let i = 0; i < 16; i++) if (Math.abs(local[i] - want[i]) > 1e-4 * scale) same = false;
    }
    const fromIBM = same ? null : toFileTRS(decompose(want));
    if (fromIBM && finiteF32(fromIBM)) {
      derived++;
      bind.push(fromIBM);
    } else {
      if (fromIBM) unusable.add(node);
      bind.push(nodeBind(node));
    }
    // Root bones: animation keys are relative to the node's parent, which UNIGINE does not have.
    const pn = node.getParentNode();
    const pw = parent < 0 && pn ? worldMatrix(pn) : null;
    parentFix.push(pw && !isIdentity(pw) ? pw : null);
  }
  if (derived)
    warnings.warn(
      'BIND_POSE_FROM_IBM',
      'bone bind poses were taken from the inverse bind matrices (the joint nodes were not in bind pose)',
      derived,
    );
  if (unusable.size)
    warnings.warn(
      'BIND_POSE_FROM_NODE',
      `inverse bind matrices of ${[...unusable].map((n) => `"${n.getName()}"`).join(', ')} give no finite float32 bind transform; the joint nodes' TRS was used`,
      unusable.size,
    );
  return { nodes, index, bones, bind, parentFix };
}

/** True when every value is finite once stored as a float32 (no NaN, no ±Infinity, no overflow). */
function finiteF32(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = Math.fround(a[i]);
    if (v - v !== 0) return false;
  }
  return true;
}

function finite64(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] - a[i] !== 0) return false;
  return true;
}

/** Our readers reject non-finite bind poses, so export must never write one. */
export function assertFiniteBindPose(
  bindPose: Float32Array,
  bones: readonly UnigineBone[],
  file: string,
): void {
  for (let i = 0; i < bindPose.length; i++) {
    const v = bindPose[i];
    if (v - v !== 0) {
      const b = bones[Math.floor(i / TRS_FLOATS)];
      throw new ExportError(
        'BAD_BIND_POSE',
        `${file}: bone "${b?.name}" has a bind pose value of ${v} (its node transform is not finite); UNIGINE bind poses must be finite`,
      );
    }
  }
}
