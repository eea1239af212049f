/**
 * Export entry: glTF-Transform Document → Grimrock files (`NAME.model` + `NAME_<clip>.animation`).
 * Owns the options, the scene-level steps (node order and names, dropped scenes/cameras/lights)
 * and the file names; meshes, nodes and animations are mapped in `export/`.
 */
import {
  assertNodeTrees,
  fileSafeName,
  ExportError,
  type ExportOptions,
  type FileSet,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import type { Document, Material, Node } from '@gltf-transform/core';
import { writeAnimation } from './animation.js';
import { type ClipPlan, exportAnimation, planAnimations } from './export/animation.js';
import { animationFileNamer } from './export/file-names.js';
import { exportMeshEntity } from './export/mesh.js';
import { type Entry, identity4x3, nodeMatrix, nodeNames, orderNodes } from './export/nodes.js';
import { type GrimrockSceneExtras, gx, keptBytes } from './extras.js';
import { GRIMROCK_LIMITS } from './limits.js';
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
 * Exports a Document as a Grimrock `.model` plus one `.animation` per glTF animation. Runs the
 * shared export stage first (`prepare(document, GRIMROCK_LIMITS)`: strips and fans to triangle
 * lists, points and lines dropped, at most 4 influences, keys on the frame grid), then maps the
 * prepared document to the file model. The caller's document is never modified.
 *
 * ```ts
 * const { files, warnings, materials } = await exportGrimrock(document, { name: 'hero', fps: 30, variant: 'log2' });
 * // files: hero.model, hero_walk.animation, …; materials: the glTF materials hero.model names
 * ```
 */
export async function exportGrimrock(
  doc: Document,
  options: GrimrockExportOptions = {},
): Promise<GrimrockExportResult> {
  assertNodeTrees(doc);
  const { fps, variant } = checkOptions(options);
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const before = scene ? orderNodes(doc, scene, !!gx<GrimrockSceneExtras>(scene)) : [];
  if (!before.length && !root.listAnimations().length) {
    throw new ExportError('NOTHING_TO_EXPORT', 'the glTF document has no scene nodes and no animations');
  }
  const exported = new Set(before.map((e) => e.node));
  // the shared stage is loaded on first export: it brings @gltf-transform/functions
  const { prepare, resampleReason } = await import('@gltf-legacy/prepare');
  const { plans, animation } = planAnimations(doc, (n) => exported.has(n), fps, variant, resampleReason);
  const stage = new WarningCollector();
  const prepared = await prepare(doc, { ...GRIMROCK_LIMITS, animation }, { warnings: stage });
  const warnings = new WarningCollector();
  warnings.merge(stage.list());
  const result = mapGrimrock(prepared.document, options, plans, warnings);
  // The stage maps a clone when it changed something: name the caller's own materials.
  result.materials = result.materials.map(prepared.callerMaterial);
  return result;
}

/** The validated `fps` and `variant` options (`BAD_OPTION` otherwise). */
function checkOptions(options: GrimrockExportOptions): { fps?: number; variant?: string } {
  const fps = options.fps === undefined ? undefined : Number(options.fps);
  if (fps !== undefined && !(fps > 0 && Number.isFinite(fps)))
    throw new ExportError('BAD_OPTION', `fps must be a positive number, got ${options.fps}`);
  const variant = options.variant === undefined ? undefined : String(options.variant);
  if (variant !== undefined && variant !== 'log1' && variant !== 'log2')
    throw new ExportError('BAD_OPTION', `variant must be "log1" or "log2", got "${variant}"`);
  return { fps, variant };
}

/** The map layer: a prepared document → the files. */
function mapGrimrock(
  doc: Document,
  options: GrimrockExportOptions,
  plans: (ClipPlan | null)[],
  warnings: WarningCollector,
): GrimrockExportResult {
  const root = doc.getRoot();
  const name = fileSafeName(options.name ?? GRIMROCK_EXPORT_DEFAULTS.name, GRIMROCK_EXPORT_DEFAULTS.name);
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (root.listScenes().length > 1)
    warnings.warn(
      'SCENE_DROPPED',
      `only scene "${scene?.getName()}" is exported; ${root.listScenes().length - 1} other scene(s) dropped`,
    );
  const sceneExtras = scene ? gx<GrimrockSceneExtras>(scene) : undefined;
  const files: FileSet = new Map();
  const used = new Set<Material | null>();
  // in file order; entries[i].node === null for the synthesized root
  const entries = scene ? orderNodes(doc, scene, !!sceneExtras) : [];
  const names = nodeNames(entries, root.listAnimations(), warnings);
  if (!sceneExtras?.animationOnly) {
    const model = exportModel(entries, names, sceneExtras?.modelVersion ?? 2, warnings, used);
    const trailing = keptBytes(sceneExtras?.trailing, scene ?? undefined);
    if (trailing) model.trailing = trailing;
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
  const nodeName = new Map<Node, string>();
  entries.forEach((e, i) => {
    if (e.node) nodeName.set(e.node, names[i]);
  });
  const anims = root.listAnimations();
  // NAME_<clip>.animation, the clip without the imported model's prefix (skeleton_warrior_axe_walk
  // → walk, so `-o hero.model` writes hero_walk.animation), never a doubled prefix
  const fileName = animationFileNamer(name, {
    named: !!options.name,
    modelName: typeof sceneExtras?.modelName === 'string' ? sceneExtras.modelName : undefined,
    animationOnly: sceneExtras?.animationOnly,
    count: anims.length,
  });
  anims.forEach((anim, ai) => {
    const file = exportAnimation(anim, plans[ai], nodeName, warnings);
    if (file) files.set(fileName(anim.getName(), ai), writeAnimation(file));
  });
  if (!files.size) {
    // e.g. an imported .animation whose every item was dropped: nothing left to write is an error,
    // not an empty file set (fuzz eeb951b25e81904a).
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      `nothing to write: no scene node and no animation with a channel the format can hold (${warnings
        .list()
        .map((w) => w.code)
        .join(', ')})`,
    );
  }
  return { files, warnings: warnings.list(), materials: [...used] };
}

/** The `.model` file model: one node per entry, with its mesh entity. */
function exportModel(
  entries: Entry[],
  names: string[],
  version: number,
  warnings: WarningCollector,
  used: Set<Material | null>,
): ModelFile {
  const indexOf = new Map<Node, number>();
  entries.forEach((e, i) => {
    if (e.node) indexOf.set(e.node, i);
  });
  const model: ModelFile = { magic: 'MDL1', version, nodes: [] };
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
  return model;
}
