/**
 * The bones of an import: the table of bone nodes by (case-insensitive) name that the mesh and
 * animation steps share, and the `.skel` bones as glTF nodes (TSO axes converted, raw values the
 * trip through JSON would change kept in extras).
 */
import type { WarningCollector } from '@gltf-legacy/core';
import type { Document, Node, Scene } from '@gltf-transform/core';
import { type TsoSkeleton, skeletonParents } from '../skel.js';
import {
  convertRotations,
  convertVectors,
  floatJson,
  floatsToBits,
  hasNegativeZero,
  mul,
  positiveZeros,
  trMatrix,
} from '../space.js';

/** The name of the helper node that parents mesh bones when no skeleton is given. */
export const BONE_GROUP_NAME = 'TSO_BONES';

const q = (v: number) => Math.fround(v);

/** Bone nodes, their rest world matrices, and lookup by name (exact, then lower case). */
export interface BoneTable {
  nodes: Node[];
  worlds: Float64Array[];
  lookup(name: string): number | undefined;
  register(name: string, i: number): void;
}

/** An empty {@link BoneTable}. */
export function boneTable(): BoneTable {
  const byName = new Map<string, number>();
  return {
    nodes: [],
    worlds: [],
    lookup: (name) => byName.get(name) ?? byName.get(name.toLowerCase()),
    register: (name, i) => {
      if (!byName.has(name)) byName.set(name, i);
      if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), i);
    },
  };
}

/**
 * The `.skel` bones as nodes under `scene` (several roots: under an identity `TSO_BONES` group
 * node), registered in `table`. Returns the first root and the node the skins hang from.
 */
export function importSkeleton(
  doc: Document,
  scene: Scene,
  skeleton: TsoSkeleton,
  table: BoneTable,
  warnings: WarningCollector,
): { rootNode: Node; skinRoot: Node } {
  const { nodes, worlds, register } = table;
  const parents = skeletonParents(skeleton);
  const bones = skeleton.bones;
  for (let i = 0; i < bones.length; i++) {
    const b = bones[i];
    const t = Array.from(b.translation);
    const r = Array.from(b.rotation);
    convertVectors(t);
    convertRotations(r);
    const extras: Record<string, unknown> = {
      unknown: b.unknown,
      hasProps: b.hasProps,
      props: b.props,
      canTranslate: b.canTranslate,
      canRotate: b.canRotate,
      canBlend: b.canBlend,
      wiggleValue: floatJson(b.wiggleValue),
      wigglePower: floatJson(b.wigglePower),
      parentName: b.parentName,
    };
    // Node values go through JSON, which has no −0: keep such raw values as bits.
    positiveZeros(t);
    positiveZeros(r);
    if (hasNegativeZero(b.translation) || !t.every(Number.isFinite)) {
      extras.rawTranslation = floatsToBits(b.translation);
      for (let k = 0; k < 3; k++) if (!Number.isFinite(t[k])) t[k] = 0;
    }
    if (hasNegativeZero(b.rotation)) extras.rawRotation = floatsToBits(b.rotation);
    const len = Math.hypot(r[0], r[1], r[2], r[3]);
    if (!(Math.abs(len - 1) <= 1e-6)) {
      extras.rawRotation = floatsToBits(b.rotation);
      if (len > 0 && Number.isFinite(len)) for (let k = 0; k < 4; k++) r[k] = q(r[k] / len);
      else r.splice(0, 4, 0, 0, 0, 1);
      warnings.warn(
        'VALUE_NORMALIZED',
        'a bone rotation was not a unit quaternion; normalized (raw value kept in extras)',
      );
    }
    const node = doc
      .createNode(b.name)
      .setTranslation(t as [number, number, number])
      .setRotation(r as [number, number, number, number])
      .setExtras({ tso: extras });
    nodes.push(node);
    register(b.name, i);
  }
  const locals = nodes.map((n) => trMatrix(n.getTranslation(), n.getRotation()));
  const done: (Float64Array | undefined)[] = new Array(bones.length);
  const world = (i: number): Float64Array => {
    let w = done[i];
    if (w) return w;
    const p = parents[i];
    w = p < 0 ? locals[i] : mul(world(p), locals[i]);
    done[i] = w;
    return w;
  };
  const roots = nodes.filter((_, i) => parents[i] < 0);
  // Several roots: an identity group node above them gives the joints a common root.
  const top = roots.length > 1 ? doc.createNode(BONE_GROUP_NAME).setExtras({ tso: { group: true } }) : scene;
  if (top !== scene) scene.addChild(top as Node);
  for (let i = 0; i < bones.length; i++) {
    worlds.push(world(i));
    if (parents[i] < 0) top.addChild(nodes[i]);
    else nodes[parents[i]].addChild(nodes[i]);
  }
  return { rootNode: roots[0], skinRoot: top === scene ? roots[0] : (top as Node) };
}
