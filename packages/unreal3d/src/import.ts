/**
 * Mapping: file model (`_d.3d` + `_a.3d` + `.uc`) → glTF-Transform Document, in named steps:
 * triangle groups (`import/groups.ts`), materials (`import/materials.ts`), primitives and frame
 * morph targets (`import/geometry.ts`), the extras export needs (`import/mesh-extras.ts`), the
 * weapon node and sequences (`import/animation.ts`).
 */
import { Document } from '@gltf-transform/core';
import { FormatError, vertexAnimationEncoding, WarningCollector } from '@gltf-legacy/core';
import { anivFrame, type UnrealAniv } from './aniv.js';
import type { UnrealData } from './data.js';
import { addSequences, weaponNode } from './import/animation.js';
import { frameNormals, framesAllSame } from './import/frames.js';
import { addFrameTargets, type GeometryContext, groupPrimitives, orphanVertices } from './import/geometry.js';
import { triangleGroups } from './import/groups.js';
import { materialMaker } from './import/materials.js';
import { keepOrphans, keepRuns, keepUnrealBytes } from './extras.js';
import { meshExtras, meshKeptBytes, ucPlacement } from './import/mesh-extras.js';
import { placementTRS, UNREAL_UNIT_METRES } from './transform.js';
import type { UcMesh } from './uc.js';

export * from './extras.js';
export { frameNormals, smoothNormals } from './import/frames.js';

/** Options of {@link importUnreal}. */
export interface UnrealImportOptions {
  /** `all` (default): every frame as a morph target; `first`: frame 0 only, no animation. */
  frames?: 'all' | 'first';
  /**
   * glTF metres per Unreal unit (default {@link UNREAL_UNIT_METRES}, 1 UU = 1.905 cm; 1 keeps
   * Unreal units). Applied to the mesh node's transform only: the vertex data and the extras keep
   * the file's numbers, so export writes them back exactly.
   */
  scale?: number;
  /**
   * `gltf` (default): the game's forward (+X) is glTF +Z and its up glTF +Y (the glTF spec's
   * front); `swap`: the plain Y/Z swap (forward +X), as before. On the node transform only.
   */
  axes?: 'gltf' | 'swap';
  /**
   * Smooth vertex normals over each file vertex (as the engine shades), for every frame (morph
   * target normal deltas). Default true; false writes no NORMAL (viewers shade flat).
   */
  normals?: boolean;
  /**
   * Morph targets as the integers they are (issue 19's compact encoding: POSITION deltas as
   * whole-unit BYTE/SHORT, NORMAL deltas as normalized BYTE/SHORT, `KHR_mesh_quantization` in
   * `extensionsRequired`; see `import/morph-encode.ts`). Default false (issue 30): float32
   * deltas, sparse where that is smaller, no required extension — every glTF client opens it.
   */
  compact?: boolean;
  /**
   * The portable mode's name from before issue 30, now the default: `float: true` wins over
   * `compact: true` (`vertexAnimationEncoding` in core).
   */
  float?: boolean;
  /**
   * A NORMAL delta per morph target (default true, with `normals`); false leaves them out (the
   * client keeps frame 0's normals while the mesh moves: smaller and faster, shading less exact).
   */
  frameNormals?: boolean;
  /**
   * Read the skins the `.uc` names and embed them as base colour textures (default true; used by
   * `importUnrealFiles`, which has the files to read).
   */
  textures?: boolean;
}

export const UNREAL_IMPORT_DEFAULTS: Required<Omit<UnrealImportOptions, 'float'>> = {
  frames: 'all',
  scale: UNREAL_UNIT_METRES,
  axes: 'gltf',
  normals: true,
  compact: false,
  frameNormals: true,
  textures: true,
};

/** What {@link importUnreal} needs: the parsed files. */
export interface UnrealMeshFiles {
  data: UnrealData;
  aniv: UnrealAniv;
  /** The `.uc` directives of this mesh (optional). */
  uc?: UcMesh;
  /** The whole `.uc` text it came from (kept in extras so an unchanged export is identical). */
  ucText?: string;
  /** `latin1` when the `.uc` bytes are not valid UTF-8. */
  ucEncoding?: 'latin1';
  /** File name of the `.uc` (`Sporifier.uc` for the mesh `Sporifier3P`): export writes it back under it. */
  ucFile?: string;
  /** Base name used when there is no `.uc` (e.g. `box` for `box_d.3d`). */
  name: string;
  dataFile?: string;
  anivFile?: string;
  /** Base name of the files (`mar_rifle` for `mar_rifle_d.3d`), the default export name. */
  fileBase?: string;
}

/**
 * Builds a Document from parsed Unreal files: one mesh (primitives per texture/style/flags), one
 * node placed by MESHMAP SCALE / MESH ORIGIN, every further frame a morph target, one animation
 * per MESH SEQUENCE (or one "All"), and a `WeaponTriangle` node when the mesh has one.
 *
 * ```ts
 * const doc = importUnreal({ data, aniv, uc, name: 'box' }, { frames: 'all' }, warnings);
 * ```
 */
export function importUnreal(
  files: UnrealMeshFiles,
  options: UnrealImportOptions = {},
  warnings = new WarningCollector(),
): Document {
  const opts = { ...UNREAL_IMPORT_DEFAULTS, ...options };
  opts.scale ??= UNREAL_IMPORT_DEFAULTS.scale;
  if (!(opts.scale > 0 && Number.isFinite(opts.scale)))
    throw new FormatError(`scale must be a positive number of metres per Unreal unit, got ${opts.scale}`, {
      code: 'BAD_OPTION',
      field: 'scale',
    });
  const { data, aniv, uc } = files;
  const nv = data.header.numVertices;
  checkFiles(files);
  const meshName = uc?.name ?? files.name;
  const frameCount = opts.frames === 'first' ? 1 : aniv.frameCount;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(meshName);
  doc.getRoot().setDefaultScene(scene);

  const groups = triangleGroups(data, nv);
  if (!groups.groupKeys.length) {
    throw new FormatError('the _d.3d has no rendered triangle (only weapon placeholders or none at all)', {
      code: 'NO_TRIANGLES',
      file: files.dataFile,
      field: 'header.numPolys',
    });
  }
  const materials = materialMaker(doc, groups.groupKeys, uc);

  // Primitives (frame 0), then one morph target per further frame.
  const mesh = doc.createMesh(meshName);
  const base = anivFrame(aniv, 0);
  const rendered = new Uint8Array(groups.groupOf.length);
  for (let i = 0; i < rendered.length; i++) rendered[i] = groups.groupOf[i] >= 0 ? 1 : 0;
  const normals0 = opts.normals ? frameNormals(base, nv, data.polys.vertices, rendered) : null;
  const geometry: GeometryContext = { doc, buffer, mesh, data, groups, base, normals0 };
  const prims = groupPrimitives(geometry, materials);
  // Frames identical to frame 0 throughout: no morph targets (see UnrealMeshExtras.sameFrames).
  const sameFrames = frameCount > 1 && framesAllSame(aniv, frameCount);
  const targetCount = sameFrames ? 0 : frameCount - 1;
  const orphans = orphanVertices(groups.used);
  orphans.keep(base);
  if (sameFrames) for (let f = 1; f < frameCount; f++) orphans.keep(base);
  addFrameTargets(geometry, prims, aniv, targetCount, orphans, vertexAnimationEncoding(opts));
  if (targetCount > 0) mesh.setWeights(new Array(targetCount).fill(0));
  materials.finish();

  const placement = ucPlacement(uc);
  if (opts.scale !== 1) placement.unit = opts.scale;
  if (opts.axes !== 'swap') placement.front = true;
  const extras = meshExtras({
    files,
    meshName,
    groups,
    orphans,
    placement,
    allFrames: opts.frames === 'all',
    sameFrames: sameFrames ? frameCount : 0,
  });
  // a long triangle order is kept as bytes (keepRuns), not a JSON array
  if (!keepRuns(mesh, extras.runs)) delete (extras as Partial<typeof extras>).runs;
  const targetNames = Array.from({ length: targetCount }, (_, i) => `Frame${i + 1}`);
  mesh.setExtras(targetNames.length ? { targetNames, unreal3d: extras } : { unreal3d: extras });
  keepUnrealBytes(mesh, meshKeptBytes(files, opts.frames === 'all'));
  keepOrphans(mesh, orphans.indices, orphans.frames);

  const trs = placementTRS(placement);
  const node = doc
    .createNode(meshName)
    .setMesh(mesh)
    .setTranslation(trs.translation)
    .setRotation(trs.rotation)
    .setScale(trs.scale);
  scene.addChild(node);
  const weapon = weaponNode({ doc, aniv, placement }, scene, groups.weapons, warnings);
  if (opts.frames === 'all') {
    const ctx = { doc, buffer, aniv, uc, meshName, node, placement, trs, frameCount, targetCount };
    addSequences(ctx, weapon, groups.weapons, warnings);
  }
  return doc;
}

/** The `_a.3d` must match the `_d.3d` and hold a frame. */
function checkFiles(files: UnrealMeshFiles): void {
  const { data, aniv } = files;
  const nv = data.header.numVertices;
  if (aniv.numVertices !== nv) {
    throw new FormatError(`the _a.3d has ${aniv.numVertices} vertices per frame but the _d.3d has ${nv}`, {
      code: 'VERTEX_COUNT_MISMATCH',
      file: files.anivFile,
      field: 'header.frameSize',
    });
  }
  if (aniv.frameCount < 1) {
    throw new FormatError('the _a.3d holds no frame', {
      code: 'NO_FRAMES',
      file: files.anivFile,
      field: 'header.numFrames',
    });
  }
}
