/**
 * Mapping: Urho3D file models (`.mdl` + `.ani`) → glTF-Transform Document, in named steps, one
 * file per concept under `import/` (skeleton, vertex buffers, morphs, geometries, LOD placement,
 * animation). This file owns the options and the order of the steps.
 */
import { type AxisMap, FormatError, setKeptBytes, type Warning, WarningCollector } from '@gltf-legacy/core';
import { Document, type Node } from '@gltf-transform/core';
import { keepBoneMappings, modelExtrasFromMdl } from './extras.js';
import { importAnimation } from './import/animation.js';
import { importGeometries } from './import/geometries.js';
import { placeMeshes } from './import/lods.js';
import { importMorphs } from './import/morphs.js';
import { importSkeleton } from './import/skeleton.js';
import { importVertexBuffers } from './import/vertex-buffers.js';
import type { MdlModel } from './mdl.js';
import { type UrhoAxes, urhoAxes, urhoMirror } from './space.js';

import type { UrhoAnimationInput } from './import/animation.js';

export type { UrhoAnimationInput } from './import/animation.js';

/** Options of {@link importUrho}. */
export interface ImportUrhoOptions {
  /** Name of the model (top node, mesh, materials). Default `model`. */
  name?: string;
  /**
   * Which axis to mirror (see `space.ts`): `gltf` (default) keeps the model's forward +Z, as glTF
   * wants; `assetimporter` mirrors Z like Urho3D's AssetImporter, for assets that came from glTF
   * through it. Recorded in the scene's `extras.urho3d.axes`, so export mirrors back the same way.
   */
  axes?: UrhoAxes;
  /**
   * Write the morphs' NORMAL / TANGENT deltas as morph-target attributes (default true). False
   * (core `ImportOptions.frameNormals`, CLI `--no-frame-normals`): POSITION deltas only; the
   * engine and glTF clients then keep the base normals, and export writes the morphs without
   * normal / tangent deltas.
   */
  frameNormals?: boolean;
}
export const IMPORT_URHO_DEFAULTS: Required<ImportUrhoOptions> = {
  name: 'model',
  axes: 'gltf',
  frameNormals: true,
};

export type { UrhoModelExtras } from './extras.js';

/**
 * Builds a glTF document from a model and its animations.
 *
 * ```ts
 * const { document, warnings } = importUrho(readMdl(mdl), [{ fileName: 'Jack_Walk', animation: readAni(ani) }], { name: 'Jack' });
 * ```
 */
export function importUrho(
  model: MdlModel | null,
  animations: UrhoAnimationInput[],
  options: ImportUrhoOptions = {},
): { document: Document; warnings: Warning[] } {
  const name = options.name ?? IMPORT_URHO_DEFAULTS.name;
  const warnings = new WarningCollector();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const axes = urhoAxes(options.axes);
  const mirror = urhoMirror(axes);
  const scene = doc.createScene(name).setExtras({ urho3d: { axes } });
  doc.getRoot().setDefaultScene(scene);
  const top = doc.createNode(name);
  scene.addChild(top);
  const nodesByName = new Map<string, Node>();
  const frameNormals = options.frameNormals ?? IMPORT_URHO_DEFAULTS.frameNormals;
  if (model) importModel(doc, model, name, top, nodesByName, warnings, mirror, frameNormals);
  for (const a of animations)
    importAnimation(doc, a, top, nodesByName, model !== null, warnings, mirror, model ? name : '');
  for (const acc of doc.getRoot().listAccessors()) acc.setBuffer(buffer);
  return { document: doc, warnings: warnings.list() };
}

/** Hostile files could make many geometries / LODs each expand a big shared buffer: bound the work. */
function checkExpansion(model: MdlModel): void {
  let expanded = 0;
  for (const g of model.geometries) {
    const vbs = new Set<number>();
    for (const l of g.lods) {
      expanded += l.indexCount;
      vbs.add(l.vertexBuffer);
    }
    for (const v of vbs) expanded += model.vertexBuffers[v].vertexCount * 5;
  }
  if (expanded > 1 << 28) {
    throw new FormatError(`geometries would expand to ${expanded} vertex/index entries`, {
      code: 'TOO_LARGE',
      field: 'geometries',
    });
  }
}

/** The model's nodes, skin, accessors, meshes and extras, in named steps. */
function importModel(
  doc: Document,
  model: MdlModel,
  name: string,
  top: Node,
  nodesByName: Map<string, Node>,
  warnings: WarningCollector,
  mirror: AxisMap,
  frameNormals: boolean,
) {
  checkExpansion(model);
  const { skin } = importSkeleton(doc, model, name, top, nodesByName, warnings, mirror);
  const vb = importVertexBuffers(doc, model, name, warnings, mirror);
  const morphTargets = importMorphs(doc, model, vb.vbAttrs, mirror, frameNormals);
  const { meshes, anyJoints } = importGeometries(doc, model, name, vb, morphTargets, skin, warnings);
  placeMeshes(doc, model, name, top, meshes, skin, anyJoints);
  top.setExtras({ urho3d: { model: modelExtrasFromMdl(model, vb.rawBackups) } });
  keepBoneMappings(top, model);
  // bytes after the model, as bytes (a buffer view of the .glb), for a byte-exact export
  if (model.trailing.length) setKeptBytes(top, 'trailing', model.trailing);
}
