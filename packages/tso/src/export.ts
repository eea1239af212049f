/**
 * The TSO exporter, in two layers: `exportTso` runs the shared export stage
 * (`prepare(document, tsoLimits(fps))`: triangulation, 2 influences, frame grid) and `mapTso`
 * maps the prepared document to `.mesh`, `.skel` and `.anim` files, one named step per file in
 * `export/` (bones, geometry, bindings, mesh extras, skeleton, animation).
 */
import {
  ExportError,
  type FileSet,
  type Warning,
  WarningCollector,
  assertNodeTrees,
  clipFileName,
  fileSafeName,
  objectName,
  uniqueNames,
} from '@gltf-legacy/core';
import type { Document, Mesh, Node, Primitive, Skin } from '@gltf-transform/core';
import { writeAnimation } from './anim.js';
import { MAX_FRAMES, exportAnimation } from './export/animation.js';
import { boneFrames, collectBoneNodes } from './export/bones.js';
import { exportMesh } from './export/geometry.js';
import { TSO_EXPORT_DEFAULTS, type TsoExportOptions } from './export/options.js';
import { exportSkeleton } from './export/skeleton.js';
import { tsoAnimationFps, tsoLimits } from './limits.js';
import { type TsoMesh, writeMesh } from './mesh.js';
import { writeSkeleton } from './skel.js';
import { keptRun } from './kept.js';

export { TSO_EXPORT_DEFAULTS, type TsoExportOptions } from './export/options.js';
export { MAX_FRAMES } from './export/animation.js';
export { twoInfluences } from './export/influences.js';

/** What an export gives: the files and every warning (the stage's first). */
export interface TsoExportResult {
  files: FileSet;
  warnings: Warning[];
}

/**
 * Converts a glTF Document to TSO files: one `.mesh` with every triangle primitive (each vertex
 * a real vertex of its strongest joint, a second joint a blend vertex), a `.skel` from the
 * joints, and one `.anim` per animation. Runs the shared export stage first (the caller's
 * document is never modified), then {@link mapTso}.
 *
 * ```ts
 * const { files, warnings } = await exportTso(doc, { name: 'axe' }); // axe.mesh, axe.skel, …
 * ```
 */
export async function exportTso(doc: Document, options: TsoExportOptions = {}): Promise<TsoExportResult> {
  const { document, warnings } = await prepareTso(doc, options);
  const mapped = mapTso(document, { ...options, meshNodes: sameNodes(doc, document, options.meshNodes) });
  warnings.merge(mapped.warnings);
  return { files: mapped.files, warnings: warnings.list() };
}

/** `nodes` of `from` as the nodes of `to` (a prepared clone lists its nodes in the same order). */
function sameNodes(from: Document, to: Document, nodes: Node[] | undefined): Node[] | undefined {
  if (!nodes || from === to) return nodes;
  const list = from.getRoot().listNodes();
  const clone = to.getRoot().listNodes();
  return nodes.map((n) => clone[list.indexOf(n)]).filter((n): n is Node => !!n);
}

/**
 * The shared stage with TSO's limits at `options.fps` (`ANIMATION_TOO_LONG` is refused before
 * the stage would sample it). Returns the document to map (the caller's own when nothing had to
 * change) and the stage's warnings.
 *
 * ```ts
 * const { document } = await prepareTso(doc, { fps: 30 });
 * ```
 */
export async function prepareTso(
  doc: Document,
  options: TsoExportOptions = {},
): Promise<{ document: Document; warnings: WarningCollector }> {
  assertNodeTrees(doc);
  const fps = options.fps ?? TSO_EXPORT_DEFAULTS.fps;
  if (options.animations !== false) assertAnimationLengths(doc, fps);
  const warnings = new WarningCollector();
  // the shared stage is loaded on first export: it brings @gltf-transform/functions
  const { prepare } = await import('@gltf-legacy/prepare');
  const { document } = await prepare(doc, tsoLimits(fps), { warnings });
  return { document, warnings };
}

/** Every animation fits {@link MAX_FRAMES} frames at its rate (else `ANIMATION_TOO_LONG`). */
function assertAnimationLengths(doc: Document, fallbackFps: number): void {
  for (const a of doc.getRoot().listAnimations()) {
    const fps = tsoAnimationFps(a, fallbackFps);
    let end = 0;
    for (const s of a.listSamplers()) {
      const t = s.getInput()?.getArray();
      if (t?.length) end = Math.max(end, t[t.length - 1]);
    }
    const frames = Math.max(1, Math.round(end * fps) + 1);
    if (!Number.isFinite(frames) || frames > MAX_FRAMES)
      throw new ExportError(
        'ANIMATION_TOO_LONG',
        `animation "${a.getName()}" lasts ${end} s: ${frames} frames at ${fps} fps exceed ${MAX_FRAMES}`,
      );
  }
}

/**
 * The map layer: a document already within {@link tsoLimits} (triangle lists, ≤ 2 influences,
 * keys on frames) to TSO files. Nothing here triangulates, limits influences or resamples.
 *
 * ```ts
 * const { document } = await prepareTso(doc);
 * const { files } = mapTso(document, { name: 'axe' });
 * ```
 */
export function mapTso(doc: Document, options: TsoExportOptions = {}): TsoExportResult {
  const o = { ...TSO_EXPORT_DEFAULTS, ...(options as Partial<typeof TSO_EXPORT_DEFAULTS>) };
  const warnings = new WarningCollector();
  const root = doc.getRoot();
  const files: FileSet = new Map();
  const { meshNodes, boneNodes, boneIndex } = collectBoneNodes(doc);
  const { bones, order, boneInv } = boneFrames(boneNodes, boneIndex, warnings);

  // ---- mesh
  const written = options.meshNodes ? meshNodes.filter((n) => options.meshNodes!.includes(n)) : meshNodes;
  const meshes = written.map((n) => n.getMesh()!);
  const prims: { node: Node; mesh: Mesh; prim: Primitive }[] = [];
  for (let i = 0; i < written.length; i++)
    for (const prim of meshes[i].listPrimitives()) prims.push({ node: written[i], mesh: meshes[i], prim });
  const skins = meshNodes.map((n) => n.getSkin()).filter((s): s is Skin => !!s);
  const tsoOf = (x: { getExtras(): Record<string, unknown> }) =>
    (x.getExtras()?.tso ?? undefined) as Record<string, any> | undefined;
  const placeholder = skins.some((s) => tsoOf(s)?.noSkeleton);
  const writeSkel = o.skeleton === 'always' || (o.skeleton === 'auto' && !placeholder);
  let meshModel: TsoMesh | undefined;
  if (prims.length) {
    meshModel = exportMesh(prims, bones, boneIndex, boneInv, o, warnings);
    files.set(`${o.name}.mesh`, writeMesh(meshModel));
  }

  // ---- skeleton
  if (writeSkel) {
    const skin = skins.find((s) => tsoOf(s)?.skeleton);
    const bone = skin ? undefined : bones.find((b) => tsoOf(b.node)?.skeleton)?.node;
    const holder = skin ?? bone;
    const info = holder && tsoOf(holder)?.skeleton;
    const trailing = skin
      ? keptRun(skin, 'trailing', info?.trailing)
      : keptRun(bone, 'skeletonTrailing', info?.trailing);
    files.set(
      `${o.name}.skel`,
      writeSkeleton(exportSkeleton(bones, order, info, trailing, o.name, warnings)),
    );
  }

  // ---- animations
  // ---- animations: file names by core's naming rule (object name, file-safe, unique
  // case-insensitively); an animation imported from a .anim keeps its file's name.
  const clips: { base: string; bytes: Uint8Array }[] = [];
  const list = options.animations === false ? [] : root.listAnimations();
  for (let index = 0; index < list.length; index++) {
    const a = list[index];
    const { anim, file } = exportAnimation(a, bones, boneIndex, o, warnings, index);
    if (!anim.motions.length) {
      warnings.warn(
        'ANIMATION_DROPPED',
        `animation "${a.getName()}" moves no bone (only scale or morph weights); not written`,
      );
      continue;
    }
    // core's one rule: `<model>_<clip>`, file-safe, `Animation<i>` when unnamed, no doubled prefix
    const clip = fileSafeName(objectName(anim.name, 'Animation', index), `Animation${index}`);
    const base = file ?? clipFileName(o.name, clip, '');
    clips.push({ base, bytes: writeAnimation(anim) });
  }
  const names = uniqueNames(clips.map((c) => c.base));
  for (let k = 0; k < clips.length; k++) files.set(`${names[k]}.anim`, clips[k].bytes);
  for (const n of root.listNodes())
    if (n.getCamera()) warnings.warn('CAMERA_DROPPED', 'TSO files hold no cameras; dropped');
  if (root.listTextures().length && !options.texturesWritten)
    warnings.warn(
      'TEXTURE_DROPPED',
      'TSO meshes reference textures through .bnd/.apr outfit files, which this export does not write (outfit never, or no base colour texture); textures not written',
    );
  return { files, warnings: warnings.list() };
}
