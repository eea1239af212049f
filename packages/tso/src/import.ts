/**
 * The TSO importer: a mesh, skeleton and animations into one glTF Document. The mesh and
 * animation steps live in `import/`.
 */
import { WarningCollector } from '@gltf-legacy/core';
import { Document, type Node } from '@gltf-transform/core';
import type { TsoAnimation } from './anim.js';
import type { TsoMesh } from './mesh.js';
import type { TsoSkeleton } from './skel.js';
import { mat } from './space.js';
import { keepRun } from './kept.js';
import { buildMesh } from './import/mesh.js';
import type { TsoImportOptions } from './import/options.js';
import { BONE_GROUP_NAME, boneTable, importSkeleton } from './import/skeleton.js';
import { importAnimation } from './import/animation.js';

export { animationFps } from './import/animation.js';
export { BLEND_ATTRIBUTES, RAW_POSITION_ATTRIBUTE } from './extras.js';

export { TSO_IMPORT_DEFAULTS, type TsoImportOptions } from './import/options.js';

/** What {@link importTso} turns into a Document: any of a mesh, a skeleton and animations. */
export interface TsoImportInput {
  mesh?: TsoMesh;
  /** Several meshes (the parts of an outfit), each its own node and skin; used instead of `mesh`. */
  meshes?: { mesh: TsoMesh; name: string }[];
  skeleton?: TsoSkeleton;
  animations?: { name: string; animation: TsoAnimation }[];
}

export { BONE_GROUP_NAME } from './import/skeleton.js';

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
  const table = boneTable();
  const { nodes, worlds, lookup, register } = table;
  let rootNode: Node | undefined;
  let skinRoot: Node | undefined;
  if (skeleton) ({ rootNode, skinRoot } = importSkeleton(doc, scene, skeleton, table, warnings));

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
    const skinExtras = { version: skeleton.version, name: skeleton.name };
    const skins = meshNodes.map((n) => n.getSkin()).filter((x) => !!x);
    // The skeleton's trailing bytes as bytes (kept.ts): `trailing` of each skin, else
    // `skeletonTrailing` of the root bone node.
    for (const skin of skins) {
      skin.setExtras({ tso: { skeleton: skinExtras } });
      keepRun(skin, 'trailing', skeleton.trailing);
    }
    if (!skins.length && rootNode) {
      rootNode.setExtras({ tso: { ...(rootNode.getExtras().tso as object), skeleton: skinExtras } });
      keepRun(rootNode, 'skeletonTrailing', skeleton.trailing);
    }
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
