/**
 * `.mdl` bones → glTF nodes (Urho space mirrored to glTF; file values glTF would lose — signs of
 * zero, near-default TRS, non-unit rotations, collision shapes — kept in `extras.urho3d.bone`)
 * and the skin with the bones' offset matrices as inverse bind matrices.
 */
import type { AxisMap, WarningCollector } from '@gltf-legacy/core';
import type { Document, Node, Skin } from '@gltf-transform/core';
import type { MdlModel } from '../mdl.js';
import {
  floatsToJson,
  floatToJson,
  matrix3x4ToMat4,
  mirrorMat4,
  mirrorQuat,
  mirrorVec3,
  negativeZeros,
} from '../space.js';

/**
 * Creates a node per bone under `top` (in the file's hierarchy) and the skin; `nodesByName` gets
 * the first bone of each name (the one animation tracks drive).
 */
export function importSkeleton(
  doc: Document,
  model: MdlModel,
  name: string,
  top: Node,
  nodesByName: Map<string, Node>,
  warnings: WarningCollector,
  mirror: AxisMap,
): { boneNodes: Node[]; skin: Skin | null } {
  const boneNodes: Node[] = model.bones.map((b) => {
    const node = doc.createNode(b.name);
    const t = [b.position[0], b.position[1], b.position[2]];
    mirrorVec3(t, 3, mirror);
    const q = [b.rotation[1], b.rotation[2], b.rotation[3], b.rotation[0]];
    mirrorQuat(q, mirror);
    const qlen = Math.hypot(q[0], q[1], q[2], q[3]);
    const boneExtras: Record<string, unknown> = { collisionMask: b.collisionMask };
    if (b.collisionMask & 1) boneExtras.radius = floatToJson(b.radius);
    if (b.box) boneExtras.box = floatsToJson(b.box);
    // Node TRS are JSON numbers, which lose the sign of zero: record the file's -0 components.
    // glTF-Transform writes a TRS within 1e-5 of its default as the default: keep such file values.
    const nearDefault = (a: ArrayLike<number>, d: number[]) =>
      d.some((x, k) => a[k] !== x) && d.every((x, k) => Math.abs(a[k] - x) <= 1e-5);
    if (nearDefault(b.position, [0, 0, 0])) boneExtras.position = floatsToJson(b.position);
    if (nearDefault(b.rotation, [1, 0, 0, 0]) || nearDefault(b.rotation, [-1, 0, 0, 0]))
      boneExtras.rotation = floatsToJson(b.rotation);
    if (nearDefault(b.scale, [1, 1, 1])) boneExtras.scale = floatsToJson(b.scale);
    const zeros = negativeZeros([...b.position, ...b.rotation, ...b.scale]);
    if (zeros.length) boneExtras.negativeZeros = zeros;
    if (Math.abs(qlen - 1) > 1e-6) {
      // glTF requires unit rotations: keep the file's value to restore it on export.
      boneExtras.rotation = floatsToJson(b.rotation);
      if (qlen > 1e-12 && Number.isFinite(qlen)) for (let c = 0; c < 4; c++) q[c] /= qlen;
      else q.splice(0, 4, 0, 0, 0, 1);
      warnings.warn(
        'ROTATION_NORMALIZED',
        'bone rotation was not a unit quaternion; normalized (file value kept in extras)',
      );
    }
    node.setTranslation(t as [number, number, number]);
    node.setRotation(q as [number, number, number, number]);
    node.setScale([b.scale[0], b.scale[1], b.scale[2]]);
    node.setExtras({ urho3d: { bone: boneExtras } });
    if (!nodesByName.has(b.name)) nodesByName.set(b.name, node);
    else warnings.warn('DUPLICATE_BONE_NAME', `two bones are named "${b.name}"; animations drive the first`);
    return node;
  });
  model.bones.forEach((b, i) => {
    if (b.parent === i) top.addChild(boneNodes[i]);
    else boneNodes[b.parent].addChild(boneNodes[i]);
  });

  let skin: Skin | null = null;
  if (model.bones.length) {
    skin = doc.createSkin(`${name}_skin`);
    const ibm = new Float32Array(model.bones.length * 16);
    model.bones.forEach((b, i) => {
      matrix3x4ToMat4(b.offsetMatrix, ibm.subarray(i * 16, i * 16 + 16));
    });
    mirrorMat4(ibm, mirror);
    skin.setInverseBindMatrices(doc.createAccessor(`${name}_inverseBind`).setType('MAT4').setArray(ibm));
    for (const n of boneNodes) skin.addJoint(n);
    const root = model.bones.findIndex((b, i) => b.parent === i);
    if (root >= 0) skin.setSkeleton(boneNodes[root]);
  }
  return { boneNodes, skin };
}
