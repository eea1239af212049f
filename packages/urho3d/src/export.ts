/**
 * Mapping: glTF-Transform Document → Urho3D file models (`.mdl` + one `.ani` per animation), in
 * named steps, one file per concept under `export/` (primitives, LODs, bone split, vertex layout,
 * geometries, morphs, bones, bounds, animation). This file owns the options and the order of the
 * steps.
 *
 * Documents made by {@link importUrho} carry `extras.urho3d` hints (vertex layouts, buffer
 * sharing, LOD levels, bone mappings, bounds, raw file values); every hint is checked against the
 * glTF data before use, so an edited document falls back to freshly derived layouts.
 */
import {
  type ExportOptions,
  ExportError,
  type ExportResult,
  type FileSet,
  type Warning,
  WarningCollector,
  assertNodeTrees,
} from '@gltf-legacy/core';
import type { Document, Material, Root } from '@gltf-transform/core';
import { writeAni } from './ani.js';
import { modelExtrasOf } from './extras.js';
import { type ExportedAnimation, exportAnimations } from './export/animation.js';
import { geometryMappings, hintMappingsHold, splitGeometriesByBones } from './export/bone-split.js';
import { boneNames, buildBones, computeBoneShapes } from './export/bones.js';
import { modelBounds } from './export/bounds.js';
import { primsByGeometry, type VPrim } from './export/common.js';
import { buildGeometries } from './export/geometries.js';
import { collectVPrims, lodLevels } from './export/lods.js';
import { buildMorphs, setMorphRanges } from './export/morphs.js';
import { primitiveContext } from './export/primitives.js';
import { collectSkeleton, meshNodesOf, rigidBoneOf, skinJointToBone } from './export/skeleton.js';
import { buildVertexBuffers } from './export/vertex-layout.js';
import { urhoLimits } from './limits.js';
import { createPak, writePak } from './pak.js';
import { recordedAxes, type UrhoAxes, urhoAxes, urhoMirror } from './space.js';
import { exportUrhoScene } from './prefab-export.js';
import { type MdlModel, writeMdl } from './mdl.js';

export type { ExportedAnimation } from './export/animation.js';

/** Options of {@link exportUrho}. */
export interface ExportUrhoOptions extends ExportOptions {
  /** Base name of the files (`NAME.mdl`, `NAME_<anim>.ani`). Default: the model's name or `model`. */
  name?: string;
  /** Bones one geometry may reference (Urho3D's hardware-skinning limit). Default 64. */
  maxBones?: number;
  /** Key rate used when resampling STEP / CUBICSPLINE animation channels. Default 30. */
  fps?: number;
  /**
   * Write materials, textures and a prefab too ({@link exportUrhoScene}: resource names as file
   * keys, `Models/…`, `Materials/…`, `Textures/…`, `Objects/NAME.xml`). `auto` (default): when
   * the document came from Urho3D material files or a prefab, or a mesh has a material with a look
   * of its own (any glTF material: a texture, a colour, alpha — {@link materialHasLook}), so a
   * foreign textured glTF keeps its textures; `false`: only `NAME.mdl` / `NAME_<anim>.ani`
   * (materials and textures dropped with warnings); `true`: always.
   */
  materials?: boolean | 'auto';
  /** Format of re-encoded textures when materials are written: `png` (default) or `dds`. */
  textureFormat?: 'png' | 'dds';
  /**
   * Pack every file written into one `NAME.pak` (its entries keep the resource names, so a prefab
   * inside resolves inside the package). `lz4` packs compressed (ULZ4). Default false.
   */
  pak?: boolean | 'lz4';
  /**
   * Which axis to mirror (see `space.ts`): `gltf` keeps the model's forward +Z; `assetimporter`
   * mirrors Z like Urho3D's AssetImporter. Default: the convention the document was imported with
   * (scene `extras.urho3d.axes`), else `gltf`.
   */
  axes?: UrhoAxes;
}
export const EXPORT_URHO_DEFAULTS = {
  maxBones: 64,
  fps: 30,
  materials: 'auto',
  textureFormat: 'png',
  pak: false,
} as const;

/** The axis convention of an export: `options.axes`, else the one import recorded, else `gltf`. */
export function exportAxes(doc: Document, options: { axes?: unknown } = {}): UrhoAxes {
  return urhoAxes(options.axes, recordedAxes(doc));
}

/** What an `.mdl` cannot hold (cameras, lights, textures, materials): one warning each. */
function warnDropped(root: Root, warnings: WarningCollector): void {
  if (root.listCameras().length)
    warnings.warn('CAMERA_DROPPED', 'Urho3D models hold no cameras; dropped', root.listCameras().length);
  const lights = root.listExtensionsUsed().find((e) => e.extensionName === 'KHR_lights_punctual');
  if (lights) warnings.warn('LIGHT_DROPPED', 'Urho3D models hold no lights; dropped');
  if (root.listTextures().length)
    warnings.warn(
      'TEXTURE_DROPPED',
      'Urho3D .mdl holds no textures or materials (materials=false); dropped',
      root.listTextures().length,
    );
  const realMaterials = root.listMaterials().filter((m) => !(m.getExtras() as any)?.urho3d?.placeholder);
  if (realMaterials.length) {
    warnings.warn(
      'MATERIAL_DROPPED',
      'Urho3D .mdl holds no materials (they live in separate .xml files); only geometry order is kept',
      realMaterials.length,
    );
  }
}

/** The glTF material of each geometry's LOD 0, in geometry order. */
function materialsOfGeometries(vprims: VPrim[]): (Material | null)[] {
  const geometryMaterials: (Material | null)[] = [];
  for (const vp of vprims)
    if (vp.lod === 0 && geometryMaterials[vp.geometry] === undefined)
      geometryMaterials[vp.geometry] = vp.material ?? null;
  for (let g = 0; g < geometryMaterials.length; g++) geometryMaterials[g] ??= null;
  return geometryMaterials;
}

/** What {@link exportUrhoModel} and {@link mapUrhoModel} return: file models, not bytes yet. */
export interface UrhoModelExport {
  model: MdlModel | null;
  animations: ExportedAnimation[];
  warnings: Warning[];
  /** The glTF material of each geometry of `model` (its LOD 0), in geometry order. */
  geometryMaterials: (Material | null)[];
}

/**
 * Converts a document to an Urho3D model and animations (file models): the shared export stage
 * (`prepare(doc, urhoLimits(fps))`: strips/fans triangulated, 4 influences, linear keys) and then
 * {@link mapUrhoModel}. `doc` is not modified; the materials returned are `doc`'s own.
 *
 * ```ts
 * const { model, animations, warnings } = await exportUrhoModel(document, { name: 'Jack' });
 * const mdl = writeMdl(model!);
 * ```
 */
export async function exportUrhoModel(
  doc: Document,
  options: ExportUrhoOptions = {},
): Promise<UrhoModelExport> {
  assertNodeTrees(doc);
  const warnings = new WarningCollector();
  const fps = options.fps ?? EXPORT_URHO_DEFAULTS.fps;
  // the shared stage is loaded on first export: it brings @gltf-transform/functions
  const { prepare } = await import('@gltf-legacy/prepare');
  const { document: prepared, callerMaterial } = await prepare(doc, urhoLimits(fps), { warnings });
  const out = mapUrhoModel(prepared, options, warnings);
  // The stage maps a clone when it changed something: hand back the caller's own materials.
  out.geometryMaterials = out.geometryMaterials.map(callerMaterial);
  return out;
}

/**
 * The map layer: a prepared document (see {@link urhoLimits}; any document {@link importUrho}
 * made is one) → Urho3D file models, in named steps. Warnings go to `warnings`, and all of them
 * (the stage's too) are returned.
 *
 * ```ts
 * const { document: prepared } = await prepare(document, urhoLimits(30));
 * const { model } = mapUrhoModel(prepared, { name: 'Jack' });
 * ```
 */
export function mapUrhoModel(
  doc: Document,
  options: ExportUrhoOptions = {},
  warnings = new WarningCollector(),
): UrhoModelExport {
  assertNodeTrees(doc);
  const root = doc.getRoot();
  const maxBones = Math.max(4, Math.min(256, options.maxBones ?? EXPORT_URHO_DEFAULTS.maxBones));
  const hint = modelExtrasOf(doc);
  const hx = hint?.extras;
  const name = options.name ?? hint?.top.getName() ?? 'model';
  const mirror = urhoMirror(exportAxes(doc, options));
  warnDropped(root, warnings);

  // Which primitives become geometries, and the skeleton.
  const meshNodes = meshNodesOf(root);
  const skeleton = collectSkeleton(root, meshNodes, !!hx, warnings);
  const ctx = primitiveContext(warnings, (s) => skinJointToBone(skeleton, s), mirror);
  let { vprims, geometryCount } = collectVPrims(ctx, meshNodes, hint, lodLevels(root, hx), (n) =>
    rigidBoneOf(skeleton, n),
  );

  // Bone mappings and geometry splitting.
  const numBones = skeleton.boneNodes.length;
  const useHintMappings = !!hx && numBones > 0 && hintMappingsHold(vprims, hx);
  if (numBones > maxBones && !useHintMappings)
    ({ vprims, geometryCount } = splitGeometriesByBones(vprims, geometryCount, maxBones, warnings));
  const primsOfGeometry = primsByGeometry(vprims, geometryCount);
  const geomMappings = geometryMappings(primsOfGeometry, numBones, maxBones, useHintMappings ? hx! : null);

  // Vertex buffers, index buffers and geometries, morphs.
  const layout = buildVertexBuffers({ root, warnings, hx, useHintMappings, geomMappings, mirror }, vprims);
  const { groupList, vbIndexOf, vertexBuffers, allHinted, magic } = layout;
  const hxLayout = allHinted ? hx : undefined;
  const { indexBuffers, geometries } = buildGeometries(
    vprims,
    primsOfGeometry,
    geomMappings,
    vertexBuffers,
    vbIndexOf,
    hxLayout,
  );
  const morphs = buildMorphs(ctx.targetKeys, groupList, hx);
  setMorphRanges(vertexBuffers, morphs, hxLayout);

  // Bones, bounds.
  const nameOf = boneNames(skeleton.boneNodes, warnings);
  const bones = buildBones(skeleton, nameOf, mirror);
  computeBoneShapes(bones, skeleton.boneNodes, vprims);
  const { bounds, geometryCenters } = modelBounds(primsOfGeometry, groupList, hx, allHinted);

  const hasModel = geometries.length > 0 || bones.length > 0;
  const model: MdlModel | null = hasModel
    ? {
        magic,
        vertexBuffers,
        indexBuffers,
        geometries,
        morphs,
        bones,
        bounds,
        geometryCenters,
        trailing:
          allHinted && Array.isArray(hx?.trailing) ? Uint8Array.from(hx!.trailing!) : new Uint8Array(0),
      }
    : null;

  const animations = exportAnimations(root, name, hint?.top.getName(), warnings, nameOf, mirror);
  return { model, animations, warnings: warnings.list(), geometryMaterials: materialsOfGeometries(vprims) };
}

/**
 * True when a glTF material has a look a material file can carry: a texture, a base colour or
 * emissive other than the defaults, alpha blending or masking, or two sides. Our importers'
 * placeholders (`extras.urho3d.placeholder`) and a plain default material have none.
 *
 * ```ts
 * materialHasLook(document.createMaterial().setBaseColorFactor([1, 0, 0, 1])); // true
 * ```
 */
export function materialHasLook(m: Material): boolean {
  if ((m.getExtras() as any)?.urho3d?.placeholder) return false;
  if (m.getBaseColorTexture() || m.getNormalTexture() || m.getEmissiveTexture()) return true;
  if (m.getMetallicRoughnessTexture() || m.getOcclusionTexture()) return true;
  if (m.listExtensions().length) return true; // unlit, specular, emissive strength, …
  if (m.getBaseColorFactor().some((v) => v !== 1)) return true;
  if (m.getEmissiveFactor().some((v) => v !== 0)) return true;
  return m.getAlphaMode() !== 'OPAQUE' || m.getDoubleSided();
}

/** True when export writes materials (see {@link ExportUrhoOptions.materials}). */
export function wantsMaterials(doc: Document, mode: unknown): boolean {
  if (mode === true || mode === false) return mode;
  if (mode !== 'auto')
    throw new ExportError('BAD_OPTION', `materials must be auto, true or false, got ${String(mode)}`);
  const root = doc.getRoot();
  if (root.listScenes().some((s) => (s.getExtras() as any)?.urho3d?.prefab)) return true;
  if (root.listMaterials().some((m) => (m.getExtras() as any)?.urho3d?.material)) return true;
  // a foreign glTF: materials that meshes use and that look like something
  return root
    .listMeshes()
    .some((mesh) =>
      mesh.listPrimitives().some((p) => !!p.getMaterial() && materialHasLook(p.getMaterial()!)),
    );
}

/**
 * Exports a document as Urho3D files: `NAME.mdl` (when it has geometry or bones) and one
 * `NAME_<anim>.ani` per animation.
 *
 * ```ts
 * const { files, warnings } = await exportUrho(document, { name: 'Jack' });
 * for (const [file, bytes] of files) writeFileSync(file, bytes);
 * ```
 */
export async function exportUrho(doc: Document, options: ExportUrhoOptions = {}): Promise<ExportResult> {
  if (options.pak) {
    const { pak, ...rest } = options;
    const out = await exportUrho(doc, rest);
    const name = options.name ?? modelExtrasOf(doc)?.top.getName() ?? 'model';
    const bytes = writePak(createPak(out.files, { compress: pak === 'lz4' }));
    return { files: new Map([[`${name.replace(/[^\w.-]+/g, '_')}.pak`, bytes]]), warnings: out.warnings };
  }
  if (wantsMaterials(doc, options.materials ?? EXPORT_URHO_DEFAULTS.materials))
    return exportUrhoScene(doc, options);
  const { model, animations, warnings } = await exportUrhoModel(doc, options);
  const name = options.name ?? modelExtrasOf(doc)?.top.getName() ?? 'model';
  const files: FileSet = new Map();
  if (model) files.set(`${name}.mdl`, writeMdl(model));
  for (const a of animations) files.set(`${a.fileName}.ani`, writeAni(a.animation));
  if (!files.size)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no meshes, skins or animations to write as Urho3D files',
    );
  return { files, warnings };
}
