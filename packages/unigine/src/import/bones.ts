/**
 * Import of the skeleton: bind-pose floats (file axes) → glTF node TRS.
 */
import { convertQuaternions, convertScale, convertVec3 } from '@gltf-legacy/core';
import type { Node } from '@gltf-transform/core';
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
