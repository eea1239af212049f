/**
 * Import entry: a `.model` (with its `.animation` companions) or a lone `.animation` → a
 * glTF-Transform Document. Owns the options, the node tree and the file set; meshes and
 * animations are mapped in `import/`.
 */
import {
  FormatError,
  type FileSet,
  type ImportOptions,
  mainFile,
  setKeptBytes,
  stem,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import { Document, type Material, type Node, type Scene } from '@gltf-transform/core';
import { isAnimation, readAnimation } from './animation.js';
import { encodeFloats } from './arrays.js';
import { importAnimation, nodesForAnimation } from './import/animation.js';
import type { ImportContext } from './import/context.js';
import { importMeshEntity } from './import/mesh.js';
import { mat4x3ToTRS } from './mat.js';
import { isModel, type ModelFile, readModel } from './model.js';

export type { ImportContext } from './import/context.js';
export { importAnimation } from './import/animation.js';

/** Options of {@link importGrimrock}. */
export interface GrimrockImportOptions extends ImportOptions {
  /** Frames per second used when an animation file stores a non-positive rate. Default 30. */
  fps?: number;
}

export const GRIMROCK_IMPORT_DEFAULTS = { fps: 30 } as const;

/**
 * Imports a `.model` (with `.animation` companions) or a lone `.animation` into a glTF
 * Document.
 *
 * ```ts
 * const files = new Map([['skeleton_warrior_axe.model', modelBytes], ['skeleton_warrior_axe_walk.animation', animBytes]]);
 * const { document, warnings } = importGrimrock(files, { main: 'skeleton_warrior_axe.model' });
 * ```
 */
export function importGrimrock(
  files: FileSet,
  options: GrimrockImportOptions = {},
): { document: Document; warnings: Warning[] } {
  const [mainName, mainBytes] = mainFile(files, options);
  const warnings = new WarningCollector();
  const read = { strict: options.strict === true, warnings };
  const doc = new Document();
  const buffer = doc.createBuffer();
  const ctx: ImportContext = { doc, buffer, warnings, strict: read.strict };
  const scene = doc.createScene(stem(mainName));
  doc.getRoot().setDefaultScene(scene);
  const fallbackFps = Number(options.fps ?? GRIMROCK_IMPORT_DEFAULTS.fps) || 30;

  let nodes: Node[];
  if (isModel(mainBytes)) {
    const model = readModel(mainBytes, mainName, read);
    nodes = importModel(ctx, model, mainName);
    for (const n of nodes) if (!n.getParentNode()) scene.addChild(n);
  } else if (isAnimation(mainBytes)) {
    const anim = readAnimation(mainBytes, mainName, read);
    nodes = nodesForAnimation(ctx, anim);
    for (const n of nodes) scene.addChild(n);
    scene.setExtras({ grimrock: { animationOnly: true } });
    for (const other of files.keys()) {
      if (other !== mainName)
        warnings.warn(
          'COMPANION_IGNORED',
          `${other} ignored: an animation imported alone takes no companions`,
        );
    }
    importAnimation(ctx, anim, stem(mainName), nodes, fallbackFps);
    return { document: doc, warnings: warnings.list() };
  } else {
    throw new FormatError('not a Grimrock model (MDL1) or animation (ANIM) file', {
      code: 'BAD_MAGIC',
      file: mainName,
      offset: 0,
      field: 'magic',
    });
  }

  fixSkinRoots(ctx, scene);
  // Material Lua and textures in the set (an exported folder) are read through `resources`.
  const resource = /\.(?:lua|dds|tga|png|jpe?g)$/i;
  const companions = [...files.keys()].filter((n) => n !== mainName && !resource.test(n)).sort();
  for (const name of companions) {
    const bytes = files.get(name)!;
    if (!isAnimation(bytes)) {
      warnings.warn('COMPANION_IGNORED', `${name} is not a Grimrock .animation file; ignored`);
      continue;
    }
    const anim = readAnimation(bytes, name, read);
    importAnimation(ctx, anim, stem(name), nodes, fallbackFps);
  }
  if (!doc.getRoot().listAccessors().length) buffer.dispose();
  return { document: doc, warnings: warnings.list() };
}

/**
 * glTF needs the joints of a skin under one common root. When a model's bones are separate
 * top-level nodes (e.g. `log2_rc_lever.model`), they are grouped under one identity node marked
 * `extras.grimrock.synthetic` (export leaves it out again).
 */
function fixSkinRoots(ctx: ImportContext, scene: Scene): void {
  let group: Node | null = null;
  for (const skin of ctx.doc.getRoot().listSkins()) {
    const tops = new Set<Node>();
    for (const j of skin.listJoints()) {
      let t = j;
      for (let p = t.getParentNode(); p; p = p.getParentNode()) t = p;
      tops.add(t);
    }
    if (tops.size < 2) continue;
    if (!group) {
      group = ctx.doc.createNode('grimrock_skeleton_root').setExtras({ grimrock: { synthetic: true } });
      scene.addChild(group);
    }
    for (const t of tops) {
      if (t === group) continue;
      scene.removeChild(t);
      group.addChild(t);
    }
  }
}

/**
 * Builds the node tree, meshes and skins of a model into `ctx.doc`. Returns the nodes in file order.
 *
 * ```ts
 * const nodes = importModel(ctx, readModel(bytes), 'slug.model');
 * ```
 */
export function importModel(ctx: ImportContext, model: ModelFile, fileName: string): Node[] {
  const { doc } = ctx;
  doc
    .getRoot()
    .listScenes()[0]
    ?.setExtras({
      grimrock: {
        modelVersion: model.version,
        modelName: stem(fileName),
      },
    });
  // bytes after the last node, as bytes (a buffer view of the .glb)
  const scene = doc.getRoot().listScenes()[0];
  if (model.trailing && scene) setKeptBytes(scene, 'trailing', model.trailing);
  const nodes = model.nodes.map((n) => {
    const node = doc.createNode(n.name);
    const { t, r, s } = mat4x3ToTRS(n.localToParent);
    node.setTranslation(t).setRotation(r).setScale(s);
    node.setExtras({ grimrock: { matrix: encodeFloats(n.localToParent) } });
    return node;
  });
  model.nodes.forEach((n, i) => {
    if (n.parent >= 0) nodes[n.parent].addChild(nodes[i]);
  });
  const materials = new Map<string, Material>();
  model.nodes.forEach((n, i) => {
    if (!n.meshEntity) return;
    importMeshEntity(ctx, n.meshEntity, nodes, i, n.name, materials, fileName);
  });
  return nodes;
}
