/**
 * Mapping: glTF-Transform Document → Unreal file model → `NAME_d.3d`, `NAME_a.3d`, `NAME.uc`.
 *
 * Two paths:
 * - native: a document this package imported (mesh extras `unreal3d`, `_UNREAL_VERTEX` attribute,
 *   unchanged node placement) is written back exactly: same triangle order, vertex numbering,
 *   frames, header fields and (when nothing changed) the same `.uc` text;
 * - baked: any other document. The shared export stage (`@gltf-legacy/prepare`, with
 *   `UNREAL3D_LIMITS`) first makes triangle lists, limits influences, bakes static transforms and
 *   puts keys on the `fps` grid; then every mesh instance is merged, every animation posed on the
 *   CPU into vertex frames, and the MESHMAP SCALE / MESH ORIGIN chosen so the animated bounds fill
 *   the integer range.
 */
import type { Document } from '@gltf-transform/core';
import {
  encodeText,
  ExportError,
  type ExportResult,
  WarningCollector,
  assertNodeTrees,
  type LegacyLimits,
} from '@gltf-legacy/core';
import { writeAniv } from './aniv.js';
import { writeData } from './data.js';
import type { UnrealMeshExtras } from './extras.js';
import {
  layoutOf,
  type UnrealExportModel,
  type UnrealExportOptions,
  UNREAL_EXPORT_DEFAULTS,
  assertWholeAccessors,
} from './export/common.js';
import { exportBaked } from './export/baked.js';
import { exportNative, findNativeMesh } from './export/native.js';
import { writeSkins } from './skin-export.js';
import { UNREAL3D_NATIVE_LIMITS, unreal3dLimits } from './limits.js';

export * from './export/common.js';
export { planFrames, sceneVertexCount, type FramePlan } from './export/frames.js';
export { fitRange, weldFrames } from './export/baked.js';
export { polyTypeFor } from './export/materials.js';

/**
 * Converts a Document to the Unreal file model (see module doc for the two paths). A document
 * this package imported is checked with the shared stage (`UNREAL3D_NATIVE_LIMITS`) and, when it
 * needs no step, written back exactly; any other runs the stage (`UNREAL3D_LIMITS` at `fps`) and
 * is baked. The caller's document is never modified.
 *
 * ```ts
 * const model = await exportUnrealModel(doc, { name: 'Fox', fps: 30 }, warnings);
 * model.aniv.numFrames; // one frame per sample of every clip
 * ```
 */
export async function exportUnrealModel(
  doc: Document,
  options: UnrealExportOptions = {},
  warnings = new WarningCollector(),
): Promise<UnrealExportModel> {
  assertNodeTrees(doc);
  assertWholeAccessors(doc);
  const native = options.bake ? null : findNativeMesh(doc);
  const E = native?.extras as (UnrealMeshExtras & { fileBase?: string }) | undefined;
  const name = options.name ?? E?.fileBase ?? UNREAL_EXPORT_DEFAULTS.name;
  const fps = options.fps ?? UNREAL_EXPORT_DEFAULTS.fps;
  if (!(fps > 0 && fps <= 1000)) throw new ExportError('BAD_OPTION', `fps must be in (0, 1000], got ${fps}`);
  const unit = options.scale === undefined ? UNREAL_EXPORT_DEFAULTS.scale : Number(options.scale);
  if (!(unit > 0 && Number.isFinite(unit)))
    throw new ExportError(
      'BAD_OPTION',
      `scale must be a positive number of metres per Unreal unit, got ${options.scale}`,
    );
  const mf = options.maxFrames;
  if (mf !== undefined && !(Number.isInteger(mf) && mf >= 1))
    throw new ExportError('BAD_OPTION', `maxFrames must be a whole number ≥ 1, got ${mf}`);
  const layout = layoutOf(options.variant, E?.layout ?? 'packed');
  if (native) {
    const local = new WarningCollector();
    // the shared stage is loaded on first export: it brings @gltf-transform/functions
    const { prepare } = await import('@gltf-legacy/prepare');
    const prepared = await prepare(doc, UNREAL3D_NATIVE_LIMITS, { warnings: local });
    const model = prepared.changed ? null : exportNative(doc, native, layout, name, local);
    if (model) {
      warnings.merge(local);
      return model;
    }
  }
  return exportBaked(doc, layout, name, fps, warnings, options);
}

/**
 * The limits the export of `doc` gives the shared stage: `UNREAL3D_NATIVE_LIMITS` for a document
 * this package imported (written back by the native path when the stage needs no step), else
 * `UNREAL3D_LIMITS` with the animation grid at the `fps` option.
 *
 * ```ts
 * const limits = unreal3dExportLimits(document, { fps: 15 }); // limits.animation.fps === 15
 * ```
 */
export function unreal3dExportLimits(doc: Document, options: UnrealExportOptions = {}): LegacyLimits {
  if (!options.bake && findNativeMesh(doc)) return UNREAL3D_NATIVE_LIMITS;
  return unreal3dLimits(Number(options.fps ?? UNREAL_EXPORT_DEFAULTS.fps));
}

/**
 * Exports a Document as `NAME_d.3d`, `NAME_a.3d` and `NAME.uc`.
 *
 * ```ts
 * const { files, warnings } = await exportUnreal(doc, { name: 'Fox', fps: 30 });
 * files.get('Fox_d.3d');
 * ```
 */
export async function exportUnreal(doc: Document, options: UnrealExportOptions = {}): Promise<ExportResult> {
  const warnings = new WarningCollector();
  const model = await exportUnrealModel(doc, options, warnings);
  const name =
    options.name ??
    (doc.getRoot().listMeshes()[0]?.getExtras() as { unreal3d?: { fileBase?: string } })?.unreal3d
      ?.fileBase ??
    UNREAL_EXPORT_DEFAULTS.name;
  const files = new Map<string, Uint8Array>();
  files.set(`${name}_d.3d`, writeData(model.data));
  files.set(`${name}_a.3d`, writeAniv(model.aniv));
  files.set(model.ucFile ?? `${name}.uc`, encodeText(model.ucText, model.ucEncoding ?? 'utf8'));
  await writeSkins(model, files, warnings);
  return { files, warnings: warnings.list() };
}
