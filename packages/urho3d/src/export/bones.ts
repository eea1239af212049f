/**
 * Bones of the `.mdl`: unique names (Urho3D finds bones and tracks by name), rest transforms in
 * Urho space (an imported model's exact file values while the node still matches), offset
 * matrices, and collision shapes (a sphere and a box around the vertices a bone moves) for bones
 * that have none stored.
 */
import type { AxisMap, WarningCollector } from '@gltf-legacy/core';
import type { Node } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import type { MdlBone } from '../mdl.js';
import {
  applyZeroSigns,
  floatFromJson,
  mat4ToMatrix3x4,
  mirrorMat4,
  mirrorQuat,
  mirrorVec3,
} from '../space.js';
import { isIdentity, sameFloats, type VPrim } from './common.js';
import type { Skeleton } from './skeleton.js';

/** A unique name per bone node (`Bone<i>` for unnamed ones, `_2`, `_3`… for repeats). */
export function boneNames(boneNodes: Node[], warnings: WarningCollector): Map<Node, string> {
  // Urho3D finds bones and tracks by name: give unnamed or repeated names a unique one.
  const nameOf = new Map<Node, string>();
  const taken = new Set<string>();
  boneNodes.forEach((node, i) => {
    let n = node.getName() || `Bone${i}`;
    if (taken.has(n)) {
      let k = 2;
      while (taken.has(`${n}_${k}`)) k++;
      n = `${n}_${k}`;
      warnings.warn('BONE_RENAMED', 'bones need unique names in Urho3D; a repeated bone name got a suffix');
    }
    taken.add(n);
    nameOf.set(node, n);
  });
  return nameOf;
}

/** The bones of the model, in skeleton order. */
export function buildBones(skeleton: Skeleton, nameOf: Map<Node, string>, mirror: AxisMap): MdlBone[] {
  const { boneNodes, boneIndex, ibmOf } = skeleton;
  return boneNodes.map((node, i) => {
    let parentNode = node.getParentNode();
    // TRS can be used as stored when every non-bone node up to the bone parent is an identity.
    let direct = true;
    while (parentNode && !boneIndex.has(parentNode)) {
      if (!isIdentity(parentNode.getMatrix())) direct = false;
      parentNode = parentNode.getParentNode();
    }
    const parent = parentNode ? boneIndex.get(parentNode)! : i;
    let t: number[];
    let r: number[];
    let s: number[];
    if (direct) {
      t = [...node.getTranslation()];
      r = [...node.getRotation()];
      s = [...node.getScale()];
    } else {
      const world = node.getWorldMatrix() as unknown as mat4;
      const local = parentNode
        ? mat4.multiply(
            mat4.create(),
            mat4.invert(mat4.create(), parentNode.getWorldMatrix() as unknown as mat4) ?? mat4.create(),
            world,
          )
        : world;
      const q = quat.create();
      const tv = vec3.create();
      const sv = vec3.create();
      mat4.decompose(q, tv, sv, local);
      t = [...tv];
      r = [...q];
      s = [...sv];
    }
    mirrorVec3(t, 3, mirror);
    mirrorQuat(r, mirror);
    const be = (node.getExtras() as any)?.urho3d?.bone ?? {};
    let rotation = Float32Array.from([r[3], r[0], r[1], r[2]]);
    const position = Float32Array.from(t);
    const scale = Float32Array.from(s);
    const zeros: number[] = Array.isArray(be.negativeZeros) ? be.negativeZeros : [];
    applyZeroSigns(position, zeros);
    applyZeroSigns(
      rotation,
      zeros.filter((z) => z >= 3 && z < 7).map((z) => z - 3),
    );
    applyZeroSigns(
      scale,
      zeros.filter((z) => z >= 7).map((z) => z - 7),
    );
    // File values the glTF writer rounded to the default (see import): use them while the node still matches.
    const restore = (key: 'position' | 'scale', cur: Float32Array) => {
      const raw =
        Array.isArray(be[key]) && be[key].length === 3
          ? Float32Array.from(be[key] as unknown[], floatFromJson)
          : null;
      if (raw?.every((x, k) => Math.abs(x - cur[k]) <= 1e-5)) cur.set(raw);
    };
    restore('position', position);
    restore('scale', scale);
    if (Array.isArray(be.rotation) && be.rotation.length === 4) {
      const raw = Float32Array.from(be.rotation as unknown[], floatFromJson);
      const q = [raw[1], raw[2], raw[3], raw[0]];
      const len = Math.hypot(q[0], q[1], q[2], q[3]);
      // The same normalization as the import: a zero or non-finite quaternion became the identity.
      if (len > 1e-12 && Number.isFinite(len)) for (let c = 0; c < 4; c++) q[c] /= len;
      else q.splice(0, 4, 0, 0, 0, 1);
      mirrorQuat(q, mirror);
      const cur = node.getRotation();
      if (sameFloats(q, cur) || q.every((x, k) => Math.abs(x - cur[k]) <= 1e-5)) rotation = raw;
    }
    let offset: Float32Array;
    const ibm = ibmOf.get(node);
    if (ibm) {
      const m = Float32Array.from(ibm);
      mirrorMat4(m, mirror);
      offset = mat4ToMatrix3x4(m);
    } else {
      const m = Float32Array.from(
        mat4.invert(mat4.create(), node.getWorldMatrix() as unknown as mat4) ?? mat4.create(),
      );
      mirrorMat4(m, mirror);
      offset = mat4ToMatrix3x4(m);
    }
    const collisionMask = Number.isInteger(be.collisionMask) ? be.collisionMask & 0xff : 0;
    return {
      name: nameOf.get(node)!,
      parent,
      position,
      rotation,
      scale,
      offsetMatrix: offset,
      collisionMask,
      radius: be.radius !== undefined ? floatFromJson(be.radius) : 0,
      box:
        collisionMask & 2
          ? Float32Array.from(
              Array.isArray(be.box) && be.box.length === 6 ? be.box : [0, 0, 0, 0, 0, 0],
              floatFromJson,
            )
          : null,
    };
  });
}

/**
 * Bones without stored collision shapes get a sphere and a box around the vertices they move
 * (weight > 0.33), in bone space: the engine builds skinned bounding boxes from them.
 */
export function computeBoneShapes(bones: MdlBone[], boneNodes: Node[], vprims: VPrim[]): void {
  const computeShape = boneNodes.map(
    (n) => !Number.isInteger((n.getExtras() as any)?.urho3d?.bone?.collisionMask),
  );
  if (computeShape.some(Boolean)) {
    const nb = bones.length;
    const box = new Float64Array(nb * 6);
    for (let b = 0; b < nb; b++)
      box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], b * 6);
    const mats = new Float64Array(nb * 12);
    bones.forEach((b, i) => {
      mats.set(b.offsetMatrix.subarray(0, 12), i * 12);
    });
    const shape = Uint8Array.from(computeShape, Number);
    const radius = new Float64Array(nb);
    const hit = new Uint8Array(nb);
    for (const vp of vprims) {
      if (vp.lod !== 0 || !vp.joints || !vp.weights) continue;
      const pos = vp.attrs.get('POSITION')!.values as Float32Array;
      boneShapes(pos, vp.joints, vp.weights, vp.vertexCount, shape, mats, box, radius, hit);
    }
    bones.forEach((b, i) => {
      if (!computeShape[i] || !hit[i]) return;
      b.collisionMask = 3;
      b.radius = radius[i];
      b.box = Float32Array.from(box.subarray(i * 6, i * 6 + 6));
    });
  }
}

/** Bone-space bounding box and radius of the vertices each bone moves with weight > 0.33. */
export function boneShapes(
  pos: Float32Array,
  joints: Uint16Array,
  weights: Float32Array,
  vertexCount: number,
  shape: Uint8Array,
  mats: Float64Array,
  box: Float64Array,
  radius: Float64Array,
  hit: Uint8Array,
): void {
  for (let v = 0; v < vertexCount; v++) {
    const x = pos[v * 3];
    const y = pos[v * 3 + 1];
    const z = pos[v * 3 + 2];
    for (let c = 0; c < 4; c++) {
      if (!(weights[v * 4 + c] > 0.33)) continue;
      const b = joints[v * 4 + c];
      if (!shape[b]) continue;
      const m = b * 12;
      const px = mats[m] * x + mats[m + 1] * y + mats[m + 2] * z + mats[m + 3];
      const py = mats[m + 4] * x + mats[m + 5] * y + mats[m + 6] * z + mats[m + 7];
      const pz = mats[m + 8] * x + mats[m + 9] * y + mats[m + 10] * z + mats[m + 11];
      if (!Number.isFinite(px + py + pz)) continue;
      const o = b * 6;
      if (px < box[o]) box[o] = px;
      if (px > box[o + 3]) box[o + 3] = px;
      if (py < box[o + 1]) box[o + 1] = py;
      if (py > box[o + 4]) box[o + 4] = py;
      if (pz < box[o + 2]) box[o + 2] = pz;
      if (pz > box[o + 5]) box[o + 5] = pz;
      // Math.hypot (the stored radius) only where it can raise the maximum
      const r = radius[b];
      if (px * px + py * py + pz * pz >= r * r * (1 - 1e-9)) {
        const h = Math.hypot(px, py, pz);
        if (h > r) radius[b] = h;
      }
      hit[b] = 1;
    }
  }
}
