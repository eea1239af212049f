/**
 * UNIGINE export: `exportUnigine` runs the shared export stage (`prepare(document, UNIGINE_LIMITS)`)
 * and then maps the prepared document to the file models — surfaces (`export/surface.ts`), the
 * skeleton (`export/skeleton.ts`), animation blocks (`export/animation.ts`) — and their bytes.
 */
import {
  type ExportOptions,
  ExportError,
  type FileSet,
  type Warning,
  WarningCollector,
  assertNodeTrees,
} from '@gltf-legacy/core';
import type { Document, Material, Node, Root } from '@gltf-transform/core';
import { type AnimFile, writeAnim } from './anim.js';
import type { AnimationBlock } from './block.js';
import { type TextEncoding, TRS_FLOATS, type UnigineBone } from './common.js';
import type { AnimFileExtras, UnigineRootExtras } from './extras.js';
import { keptTrailing } from './extras.js';
import { unpackF32 } from './jsonf32.js';
import { UNIGINE_LIMITS } from './limits.js';
import { type MeshFile, type MeshSurface, writeMesh } from './mesh.js';
import {
  type AnimEntry,
  type AnimationContext,
  animationBlock,
  animationContext,
  animationLimits,
  bindOfName,
  groupAnimations,
  overrideOf,
  reportAnimations,
} from './export/animation.js';
import { unigineExtras } from './export/common.js';
import { type Skeleton, assertFiniteBindPose, buildSkeleton } from './export/skeleton.js';
import { chooseBounds, unionBounds } from './export/bounds.js';
import { type SurfaceInput, buildSurface } from './export/surface.js';

/** Options of {@link exportUnigine}. */
export interface UnigineExportOptions {
  /** Base name of the written files: `NAME.mesh`, `NAME_<animation>.anim`. */
  name: string;
  /** Frame rate animations are sampled at when they carry no UNIGINE frame data. */
  fps: number;
  /**
   * A `.mat` export follows (`legacyFormat.export`): textures are not reported as dropped here.
   * Default false.
   */
  materials?: boolean;
}

export const UNIGINE_EXPORT_DEFAULTS: UnigineExportOptions = { name: 'model', fps: 30 };

/** The file models an export produced, besides their bytes. */
export interface UnigineExportResult {
  files: FileSet;
  warnings: Warning[];
  mesh: MeshFile | null;
  anims: { file: string; anim: AnimFile }[];
  /** The glTF material of each surface of `mesh` (same order), for the `.mat` export. */
  surfaceMaterials: (Material | null)[];
}

/**
 * Exports a glTF document as a UNIGINE ms11 `.mesh` plus one an10 `.anim` per animation file.
 * Runs the shared export stage first (`prepare(document, UNIGINE_LIMITS)`: strips and fans to
 * triangle lists, points, lines and primitives without POSITION dropped, at most 4 influences,
 * static meshes baked into model space, keys off the frame grid sampled again), then maps the
 * prepared document to the file models. The caller's document is never modified. Documents
 * imported by this package need no step and come back byte for byte; other glTF is converted
 * (positions welded into coordinate vertices, tangent frames computed, animations quantized)
 * with warnings.
 *
 * ```ts
 * const { files, warnings } = await exportUnigine(document, { name: 'actor_00' });
 * for (const [file, bytes] of files) fs.writeFileSync(file, bytes);
 * ```
 */
export async function exportUnigine(
  document: Document,
  options: ExportOptions & Partial<UnigineExportOptions> = {},
): Promise<UnigineExportResult> {
  assertNodeTrees(document);
  const fps = options.fps === undefined ? UNIGINE_EXPORT_DEFAULTS.fps : Number(options.fps);
  if (!(fps > 0) || !Number.isFinite(fps))
    throw new ExportError('BAD_OPTION', `fps must be a positive number, got ${options.fps}`);
  const warnings = new WarningCollector();
  const animation = animationLimits(document, fps);
  // the shared stage is loaded on first export: it brings @gltf-transform/functions
  const { prepare } = await import('@gltf-legacy/prepare');
  const prepared = await prepare(document, { ...UNIGINE_LIMITS, animation }, { warnings });
  const result = mapUnigine(prepared.document, options, fps, warnings);
  // The stage maps a clone when it changed something: name the caller's own materials.
  result.surfaceMaterials = result.surfaceMaterials.map(prepared.callerMaterial);
  return result;
}

/** The map layer: a prepared document → the file models and their bytes. */
function mapUnigine(
  document: Document,
  options: ExportOptions & Partial<UnigineExportOptions>,
  fps: number,
  warnings: WarningCollector,
): UnigineExportResult {
  const name = typeof options.name === 'string' && options.name ? options.name : UNIGINE_EXPORT_DEFAULTS.name;
  const root = document.getRoot();
  const rx = (unigineExtras(root) ?? {}) as Partial<UnigineRootExtras>;
  const skel = buildSkeleton(document, warnings);
  const nodeByName = new Map<string, Node>();
  for (const n of root.listNodes()) if (!nodeByName.has(n.getName())) nodeByName.set(n.getName(), n);
  reportDropped(document, !!options.materials, warnings);
  const surfaces: MeshSurface[] = [];
  const surfaceMaterials: (Material | null)[] = [];
  for (const input of surfaceInputs(document)) {
    const s = buildSurface(input, skel, warnings);
    if (s) {
      surfaces.push(s);
      surfaceMaterials.push(input.prim.getMaterial());
    }
  }
  if (surfaces.length > 32767)
    throw new ExportError(
      'TOO_MANY_SURFACES',
      `${surfaces.length} surfaces; a UNIGINE mesh holds at most 32767`,
    );
  const ctx = animationContext(skel, nodeByName, fps, warnings);
  const { meshAnims, fileGroups } = groupAnimations(document, rx, name, surfaces.length > 0);
  const files: FileSet = new Map();
  let mesh: MeshFile | null = null;
  if (surfaces.length) {
    mesh = meshFile(rx, skel, surfaces, meshAnims, ctx, name, root);
    files.set(`${name}.mesh`, writeMesh(mesh));
  }
  const anims = animFiles(rx, fileGroups, ctx, root);
  // Without a mesh, a single .anim is the main file and is named NAME.anim (as groupAnimations
  // names a re-imported standalone .anim), so that export → import → export keeps the name. This
  // looks at the files actually written: groups dropped (no skeleton, no animated bone) must not
  // keep the survivor at NAME_<animation>.anim.
  if (!mesh && anims.length === 1) anims[0].file = `${name}.anim`;
  for (const { file, anim } of anims) files.set(file, writeAnim(anim));
  reportAnimations(ctx, fps);
  if (!files.size)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no triangle meshes and no skeletal animations to write as UNIGINE .mesh/.anim',
    );
  return { files, warnings: warnings.list(), mesh, anims, surfaceMaterials };
}

/** What a UNIGINE mesh has no place for: cameras, and textures unless a `.mat` export follows. */
function reportDropped(document: Document, materials: boolean, warnings: WarningCollector): void {
  const root = document.getRoot();
  if (root.listCameras().length)
    warnings.warn(
      'CAMERA_DROPPED',
      'cameras have no place in a UNIGINE mesh; dropped',
      root.listCameras().length,
    );
  if (root.listTextures().length && !materials)
    warnings.warn(
      'TEXTURE_DROPPED',
      'textures and materials are not stored in .mesh files (surfaces keep the material names)',
      root.listTextures().length,
    );
}

/** Every primitive of every mesh instance of the scene(s), in scene order. */
function surfaceInputs(document: Document): SurfaceInput[] {
  const root = document.getRoot();
  const inputs: SurfaceInput[] = [];
  const scenes = root.getDefaultScene() ? [root.getDefaultScene()!] : root.listScenes();
  const visited = new Set<Node>();
  const visit = (node: Node) => {
    if (visited.has(node)) return;
    visited.add(node);
    const mesh = node.getMesh();
    if (mesh) {
      const skin = node.getSkin();
      mesh.listPrimitives().forEach((prim, i) => {
        const base = mesh.getName() || node.getName() || 'mesh';
        inputs.push({
          prim,
          node,
          skin,
          label: `mesh "${base}" primitive ${i}`,
          defaultName: mesh.listPrimitives().length > 1 ? `${base}_${i}` : base,
        });
      });
    }
    for (const c of node.listChildren()) visit(c);
  };
  for (const scene of scenes) for (const c of scene.listChildren()) visit(c);
  return inputs;
}

/** The `.mesh` file model: surfaces, skeleton, bind pose and the mesh-embedded animations. */
function meshFile(
  rx: Partial<UnigineRootExtras>,
  skel: Skeleton,
  surfaces: MeshSurface[],
  meshAnims: AnimEntry[],
  ctx: AnimationContext,
  name: string,
  root: Root,
): MeshFile {
  const bindPose = new Float32Array(skel.bones.length * TRS_FLOATS);
  skel.bind.forEach((b, i) => {
    bindPose.set(b, i * TRS_FLOATS);
  });
  const blocks: AnimationBlock[] = [];
  const animationNames: string[] = [];
  for (const { anim, ex } of meshAnims) {
    const block = animationBlock(ctx, anim, ex, skel.bones, skel.bind, false);
    if (block) {
      blocks.push(block);
      animationNames.push(typeof ex.name === 'string' ? ex.name : anim.getName());
    }
  }
  const computed = unionBounds(surfaces.map((s) => s.bounds));
  assertFiniteBindPose(bindPose, skel.bones, `${name}.mesh`);
  const trailing = keptTrailing(root, rx.mesh?.file, rx.mesh?.trailing);
  return {
    ...(trailing ? { trailing } : {}),
    magic: 'ms11',
    encoding: (rx.mesh?.encoding === 'latin1' ? 'latin1' : 'utf8') as TextEncoding,
    bounds: chooseBounds(computed, rx.mesh?.bounds),
    bones: skel.bones,
    animationNames,
    surfaces,
    bindPose,
    animations: blocks,
  };
}

/** The `.anim` file models, one per file group: its skeleton, rest poses and blocks. */
function animFiles(
  rx: Partial<UnigineRootExtras>,
  fileGroups: Map<string, AnimEntry[]>,
  ctx: AnimationContext,
  root: Root,
): { file: string; anim: AnimFile }[] {
  const anims: { file: string; anim: AnimFile }[] = [];
  for (const [file, group] of fileGroups) {
    const first = group[0].ex;
    const header: AnimFileExtras | undefined = rx.animFiles?.find((f) => f.file === first.file);
    let bones: UnigineBone[];
    if (header && Array.isArray(header.bones))
      bones = header.bones.map(([n, p]) => ({ name: String(n), parent: Number(p) }));
    else bones = ctx.skel.bones;
    if (!bones.length) {
      ctx.warnings.warn(
        'ANIMATION_DROPPED',
        `animations of ${file} have no skeleton (the glTF has no skin); dropped`,
        group.length,
      );
      continue;
    }
    const rest: number[][] = bones.map(
      (b, i) => overrideOf(header, i) ?? bindOfName(ctx, b.name) ?? [0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    );
    const ordered = group.slice().sort((a, b) => (a.ex.index ?? 0) - (b.ex.index ?? 0));
    const blocks: AnimationBlock[] = [];
    const animationNames: string[] = [];
    for (const { anim, ex } of ordered) {
      const block = animationBlock(ctx, anim, ex, bones, rest, true);
      if (block) {
        blocks.push(block);
        animationNames.push(typeof ex.name === 'string' ? ex.name : anim.getName() || 'anim');
      }
    }
    if (!blocks.length) continue;
    const bindPose = new Float32Array(bones.length * TRS_FLOATS);
    rest.forEach((r, i) => {
      bindPose.set(r, i * TRS_FLOATS);
    });
    const trailing = keptTrailing(root, header?.file, header?.trailing);
    const animFile: AnimFile = {
      ...(trailing ? { trailing } : {}),
      magic: 'an10',
      encoding: header?.encoding === 'latin1' ? 'latin1' : 'utf8',
      bounds:
        unpackF32(header?.bounds, 10) ?? Float32Array.from([1e9, 1e9, 1e9, -1e9, -1e9, -1e9, 0, 0, 0, -1]),
      bones,
      animationNames,
      bindPose,
      animations: blocks,
    };
    assertFiniteBindPose(bindPose, bones, file);
    anims.push({ file, anim: animFile });
  }
  return anims;
}
