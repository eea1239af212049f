/**
 * Export entry: glTF-Transform Document → Grimrock files (`NAME.model` + `NAME_<clip>.animation`).
 * Owns the options, the scene-level steps (node order and names, dropped scenes/cameras/lights)
 * and the file names; meshes, nodes and animations are mapped in `export/`.
 */
import {
  assertNodeTrees,
  ExportError,
  type ExportOptions,
  type FileSet,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import type { Document, Material, Node } from '@gltf-transform/core';
import { writeAnimation } from './animation.js';
import { exportAnimation } from './export/animation.js';
import { exportMeshEntity } from './export/mesh.js';
import { identity4x3, nodeMatrix, orderNodes } from './export/nodes.js';
import { type GrimrockSceneExtras, gx } from './extras.js';
import { type ModelFile, type ModelNode, writeModel } from './model.js';

/** Options of {@link exportGrimrock}. */
export interface GrimrockExportOptions extends ExportOptions {
  /** Base name of the written files (`NAME.model`, `NAME_walk.animation`). */
  name?: string;
  /** Frames per second of written animations (default: the imported rate, else 30). */
  fps?: number;
  /** `log1` writes version-1 animations (Grimrock 1), `log2` version 2. Default: as imported, else `log1`. */
  variant?: 'log1' | 'log2';
}

export const GRIMROCK_EXPORT_DEFAULTS = { name: 'model', fps: 30, variant: 'log1' } as const;

function safeName(s: string): string {
  return s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
}

/** What {@link exportGrimrock} returns. */
export interface GrimrockExportResult {
  files: FileSet;
  warnings: Warning[];
  /**
   * The glTF materials the written `.model` names, each once, in the order its segments first name
   * them (`null`: a primitive without a material, written as `default`). This is the order in
   * which import creates the materials again; a material whose primitives were all dropped (no
   * triangle, not in the exported scene) is not listed.
   */
  materials: (Material | null)[];
}

/**
 * Exports a Document as a Grimrock `.model` plus one `.animation` per glTF animation.
 *
 * ```ts
 * const { files, warnings, materials } = exportGrimrock(document, { name: 'hero', fps: 30, variant: 'log2' });
 * // files: hero.model, hero_walk.animation, …; materials: the glTF materials hero.model names
 * ```
 */
export function exportGrimrock(doc: Document, options: GrimrockExportOptions = {}): GrimrockExportResult {
  assertNodeTrees(doc);
  const warnings = new WarningCollector();
  const root = doc.getRoot();
  const name = safeName(options.name ?? GRIMROCK_EXPORT_DEFAULTS.name);
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (root.listScenes().length > 1)
    warnings.warn(
      'SCENE_DROPPED',
      `only scene "${scene?.getName()}" is exported; ${root.listScenes().length - 1} other scene(s) dropped`,
    );
  const sceneExtras = scene ? gx<GrimrockSceneExtras>(scene) : undefined;
  const files: FileSet = new Map();
  const used = new Set<Material | null>();

  const nodeList = scene ? orderNodes(doc, scene, !!sceneExtras) : [];
  if (!nodeList.length && !root.listAnimations().length) {
    throw new ExportError('NOTHING_TO_EXPORT', 'the glTF document has no scene nodes and no animations');
  }
  const entries = nodeList; // in file order; entries[i].node === null for the synthesized root
  const indexOf = new Map<Node, number>();
  entries.forEach((e, i) => {
    if (e.node) indexOf.set(e.node, i);
  });

  // Animation items address nodes by name: animated nodes get unique names.
  const animated = new Set<Node>();
  for (const a of root.listAnimations())
    for (const c of a.listChannels()) if (c.getTargetNode()) animated.add(c.getTargetNode()!);
  const baseNames = entries.map((e, i) => (e.node ? e.node.getName() || `node_${i}` : 'RootNode'));
  const taken = new Set(baseNames);
  const seen = new Set<string>();
  const names = entries.map((e, i) => {
    let n = baseNames[i];
    const dup = seen.has(n);
    seen.add(n);
    if (dup && e.node && animated.has(e.node)) {
      let k = 2;
      while (taken.has(`${n}_${k}`)) k++;
      warnings.warn(
        'NODE_RENAMED',
        `animated node "${n}" shares its name with another node; renamed to "${n}_${k}" (Grimrock animations address nodes by name)`,
      );
      n = `${n}_${k}`;
      taken.add(n);
    }
    return n;
  });

  if (!sceneExtras?.animationOnly) {
    const model: ModelFile = { magic: 'MDL1', version: sceneExtras?.modelVersion ?? 2, nodes: [] };
    entries.forEach((e, i) => {
      const node = e.node;
      const mn: ModelNode = { name: names[i], localToParent: identity4x3(), parent: e.parent, type: -1 };
      if (node) {
        mn.localToParent = nodeMatrix(node);
        if (node.getCamera())
          warnings.warn(
            'CAMERA_DROPPED',
            `camera of node "${names[i]}" dropped (Grimrock models have no cameras)`,
          );
        if (node.getExtension('KHR_lights_punctual'))
          warnings.warn('LIGHT_DROPPED', `light of node "${names[i]}" dropped`);
        const entity = exportMeshEntity(node, indexOf, warnings, names[i], used);
        if (entity) {
          mn.type = 0;
          mn.meshEntity = entity;
        }
      }
      model.nodes.push(mn);
    });
    const textures = root.listTextures().length;
    if (textures) {
      warnings.warn(
        'TEXTURE_DROPPED',
        'textures dropped: Grimrock materials are defined in Lua scripts (defineMaterial); only material names are written',
        textures,
      );
    }
    files.set(`${name}.model`, writeModel(model));
  }

  // Animations.
  const fpsOpt = options.fps === undefined ? undefined : Number(options.fps);
  if (fpsOpt !== undefined && !(fpsOpt > 0 && Number.isFinite(fpsOpt)))
    throw new ExportError('BAD_OPTION', `fps must be a positive number, got ${options.fps}`);
  const variant = options.variant === undefined ? undefined : String(options.variant);
  if (variant !== undefined && variant !== 'log1' && variant !== 'log2')
    throw new ExportError('BAD_OPTION', `variant must be "log1" or "log2", got "${variant}"`);
  const nodeName = new Map<Node, string>();
  entries.forEach((e, i) => {
    if (e.node) nodeName.set(e.node, names[i]);
  });
  const modelName = sceneExtras?.modelName;
  const anims = root.listAnimations();
  anims.forEach((anim, ai) => {
    const file = exportAnimation(anim, nodeName, warnings, fpsOpt, variant);
    if (!file) return;
    const an = anim.getName();
    let fileName: string;
    if (sceneExtras?.animationOnly && anims.length === 1)
      fileName = options.name ? name : safeName(an || name);
    else if (modelName && an.startsWith(modelName) && an.length > modelName.length)
      fileName = name + safeName(an.slice(modelName.length));
    else fileName = `${name}_${safeName(an || `animation${ai}`)}`;
    let unique = `${fileName}.animation`;
    for (let k = 2; files.has(unique); k++) unique = `${fileName}_${k}.animation`;
    files.set(unique, writeAnimation(file));
  });
  return { files, warnings: warnings.list(), materials: [...used] };
}
