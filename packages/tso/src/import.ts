/**
 * The TSO importer: a mesh, skeleton and animations into one glTF Document. The mesh and
 * animation steps live in `import/`.
 */
import { WarningCollector } from '@gltf-legacy/core';
import { Document, type Node } from '@gltf-transform/core';
import type { TsoAnimation } from './anim.js';
import type { TsoMesh } from './mesh.js';
import type { TsoSkeleton } from './skel.js';
import { skeletonParents } from './skel.js';
import {
  convertRotations,
  convertVectors,
  floatJson,
  floatsToBits,
  hasNegativeZero,
  mat,
  mul,
  positiveZeros,
  trMatrix,
} from './space.js';
import { buildMesh } from './import/mesh.js';
import { importAnimation } from './import/animation.js';

export { animationFps } from './import/animation.js';
export { BLEND_ATTRIBUTES, RAW_POSITION_ATTRIBUTE } from './extras.js';

/** Options of {@link importTso}. */
export interface TsoImportOptions {
  /**
   * Unit of `.anim` durations: `auto` reads seconds when the duration is smaller than the frame
   * count (FreeSO-made files), else milliseconds (original files).
   */
  durationUnit?: 'auto' | 'ms' | 's';
  /** Frame rate used when an animation's duration is unusable. */
  fallbackFps?: number;
  /** Name of the mesh node (default: the mesh file's stem or `mesh`). */
  meshName?: string;
}

export const TSO_IMPORT_DEFAULTS: Required<Omit<TsoImportOptions, 'meshName'>> = {
  durationUnit: 'auto',
  fallbackFps: 36,
};

/** What {@link importTso} turns into a Document: any of a mesh, a skeleton and animations. */
export interface TsoImportInput {
  mesh?: TsoMesh;
  /** Several meshes (the parts of an outfit), each its own node and skin; used instead of `mesh`. */
  meshes?: { mesh: TsoMesh; name: string }[];
  skeleton?: TsoSkeleton;
  animations?: { name: string; animation: TsoAnimation }[];
}

/** The name of the helper node that parents mesh bones when no skeleton is given. */
export const BONE_GROUP_NAME = 'TSO_BONES';

/** Warning codes emitted by import. */
export const TSO_IMPORT_WARNINGS = {
  SKELETON_MISSING: 'SKELETON_MISSING',
  BONE_NOT_IN_SKELETON: 'BONE_NOT_IN_SKELETON',
  ANIM_BONE_MISSING: 'ANIM_BONE_MISSING',
  ANIM_DUPLICATE_MOTION: 'ANIM_DUPLICATE_MOTION',
  SKELETON_MISMATCH: 'SKELETON_MISMATCH',
  SKELETON_AMBIGUOUS: 'SKELETON_AMBIGUOUS',
  COMPANION_IGNORED: 'COMPANION_IGNORED',
  UNBOUND_VERTEX: 'UNBOUND_VERTEX',
  VALUE_NORMALIZED: 'VALUE_NORMALIZED',
  ANIM_DURATION_INVALID: 'ANIM_DURATION_INVALID',
  WEIGHTS_TRUNCATED: 'WEIGHTS_TRUNCATED',
} as const;

const q = (v: number) => Math.fround(v);

/**
 * Builds a glTF Document from a TSO mesh and/or skeleton and animations (see README for the
 * mapping). With a skeleton every bone is a joint and vertices are moved out of bone space;
 * without one, each mesh bone is a node at the origin (warning `SKELETON_MISSING`).
 *
 * ```ts
 * const warnings = new WarningCollector();
 * const doc = importTso({ mesh: readMesh(meshBytes), skeleton: readSkeleton(skelBytes) }, {}, warnings);
 * ```
 */
export function importTso(
  input: TsoImportInput,
  options: TsoImportOptions = {},
  warnings = new WarningCollector(),
): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('Scene');
  doc.getRoot().setDefaultScene(scene);
  const { mesh, skeleton } = input;

  // ---- bones
  const nodes: Node[] = [];
  const worlds: Float64Array[] = [];
  const byName = new Map<string, number>();
  const lookup = (name: string) => byName.get(name) ?? byName.get(name.toLowerCase());
  const register = (name: string, i: number) => {
    if (!byName.has(name)) byName.set(name, i);
    if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), i);
  };
  let rootNode: Node | undefined;
  let skinRoot: Node | undefined;
  if (skeleton) {
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
    const top =
      roots.length > 1 ? doc.createNode(BONE_GROUP_NAME).setExtras({ tso: { group: true } }) : scene;
    if (top !== scene) scene.addChild(top as Node);
    for (let i = 0; i < bones.length; i++) {
      worlds.push(world(i));
      if (parents[i] < 0) top.addChild(nodes[i]);
      else nodes[parents[i]].addChild(nodes[i]);
    }
    rootNode = roots[0];
    skinRoot = top === scene ? rootNode : (top as Node);
  }

  // ---- meshes (one, or the several parts of an outfit; bones are shared by name)
  const meshList = input.meshes ?? (mesh ? [{ mesh, name: options.meshName ?? 'mesh' }] : []);
  const meshNodes: Node[] = [];
  if (meshList.length) {
    let group: Node | undefined;
    if (!skeleton) {
      warnings.warn(
        'SKELETON_MISSING',
        'no .skel given: each mesh bone is a node at the origin (right for single-bone accessories; pass the skeleton for body parts)',
      );
    }
    const distinct = new Set(meshList.flatMap((m) => m.mesh.boneNames.map((n) => n.toLowerCase())));
    const grouped = meshList.length === 1 ? meshList[0].mesh.boneNames.length > 1 : distinct.size > 1;
    for (const { mesh: part, name: partName } of meshList) {
      const meshBone: number[] = [];
      for (const name of part.boneNames) {
        let i = lookup(name);
        if (i === undefined) {
          if (skeleton)
            warnings.warn(
              'BONE_NOT_IN_SKELETON',
              `mesh bone "${name}" is not in the skeleton; placed at the skeleton root`,
            );
          const node = doc.createNode(name).setExtras({ tso: { meshOnly: true } });
          i = nodes.length;
          nodes.push(node);
          register(name, i);
          if (rootNode) {
            rootNode.addChild(node);
            worlds.push(worlds[nodes.indexOf(rootNode)]);
          } else {
            if (!group && grouped) {
              group = doc.createNode(BONE_GROUP_NAME).setExtras({ tso: { group: true } });
              scene.addChild(group);
            }
            (group ?? scene).addChild(node);
            worlds.push(mat());
          }
        }
        meshBone.push(i);
      }
      const node = buildMesh(doc, buffer, part, meshBone, nodes, worlds, skinRoot, partName, warnings);
      scene.addChild(node);
      meshNodes.push(node);
    }
  }

  // ---- skin extras for the skeleton itself
  if (skeleton) {
    const skinExtras = {
      version: skeleton.version,
      name: skeleton.name,
      trailing: Array.from(skeleton.trailing),
    };
    const skins = meshNodes.map((n) => n.getSkin()).filter((x) => !!x);
    for (const skin of skins) skin.setExtras({ tso: { skeleton: skinExtras } });
    if (!skins.length && rootNode)
      rootNode.setExtras({ tso: { ...(rootNode.getExtras().tso as object), skeleton: skinExtras } });
  } else {
    for (const n of meshNodes) n.getSkin()?.setExtras({ tso: { noSkeleton: true } });
  }

  // ---- animations
  for (const { name, animation } of input.animations ?? []) {
    importAnimation(
      doc,
      buffer,
      animation,
      name,
      nodes,
      register,
      lookup,
      !meshList.length && !skeleton,
      scene,
      options,
      warnings,
    );
  }
  return doc;
}
