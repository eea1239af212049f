/**
 * The mesh extras of the importer (`mesh.extras.unreal3d`): every file field the glTF does not
 * hold (triangle order, weapon triangles, orphan vertices, header fields the engine ignores,
 * counts of short files, trailing bytes, the `.uc` text), so that export writes the files back
 * byte for byte.
 */
import type { UnrealAniv } from '../aniv.js';
import type { UnrealData } from '../data.js';
import type { UnrealKept, UnrealMeshExtras } from '../extras.js';
import type { UnrealMeshFiles } from '../import.js';
import type { Placement } from '../transform.js';
import type { TriangleGroups } from './groups.js';
import type { Orphans } from './geometry.js';

/** Placement of the mesh node from the `.uc` (MESHMAP SCALE, MESH ORIGIN, UNMIRROR). */
export function ucPlacement(uc: UnrealMeshFiles['uc']): Placement {
  const placement: Placement = {
    scale: uc ? [...uc.scale] : [1, 1, 1],
    origin: uc ? { ...uc.origin } : { x: 0, y: 0, z: 0, pitch: 0, yaw: 0, roll: 0 },
  };
  if (uc?.unmirror) placement.unmirror = true;
  return placement;
}

/** What the importer decided that the extras record. */
export interface ExtrasInput {
  files: UnrealMeshFiles;
  meshName: string;
  groups: TriangleGroups;
  orphans: Orphans;
  placement: Placement;
  /** All frames were read (`frames: 'all'`). */
  allFrames: boolean;
  /** Frames (all equal to frame 0) written back as copies of it, or 0. */
  sameFrames: number;
}

/**
 * The mesh extras for export.
 *
 * ```ts
 * mesh.setExtras({ unreal3d: meshExtras({ files, meshName, groups, orphans, placement, allFrames: true, sameFrames: 0 }) });
 * ```
 */
export function meshExtras(input: ExtrasInput): UnrealMeshExtras {
  const { files, meshName, placement } = input;
  const { data, aniv, uc } = files as { data: UnrealData; aniv: UnrealAniv; uc: UnrealMeshFiles['uc'] };
  const { runs, weapons } = input.groups;
  const nv = data.header.numVertices;
  const n = data.polys.types.length;
  const frameCount = input.sameFrames;
  const sameFrames = input.sameFrames > 0;
  const orphanIdx = input.orphans.indices;
  const extras: UnrealMeshExtras = {
    meshName,
    runs,
    weapons,
    numVertices: nv,
    layout: aniv.layout,
    placement,
  };
  if (files.fileBase) extras.fileBase = files.fileBase;
  // the orphans' indices and frames are kept bytes (keepOrphans, called by import)
  if (orphanIdx.length) extras.orphanCount = orphanIdx.length;
  const h = data.header;
  if (
    h.bogusRot ||
    h.bogusFrame ||
    h.fixScale ||
    h.bogusNorm.some((x) => x) ||
    h.unused.some((x) => x) ||
    h.padding.some((x) => x)
  ) {
    extras.header = {
      bogusRot: h.bogusRot,
      bogusFrame: h.bogusFrame,
      bogusNorm: [...h.bogusNorm],
      fixScale: h.fixScale,
      unused: [...h.unused],
      padding: Array.from(h.padding),
    };
  }
  if (h.numPolys !== n) extras.numPolys = h.numPolys;
  if (input.allFrames) {
    if (aniv.numFrames !== aniv.frameCount) extras.numFrames = aniv.numFrames;
    if (sameFrames) extras.sameFrames = frameCount;
    if (aniv.frameSize !== nv * (aniv.layout === 'deusex' ? 8 : 4)) extras.frameSize = aniv.frameSize;
    if (aniv.missingBytes) extras.anivMissing = aniv.missingBytes;
  }
  if (input.groups.outOfRange.length) extras.outOfRange = input.groups.outOfRange;
  if (uc) {
    extras.uc = {
      directives: uc.directives.map((d) => d.raw),
      unmirror: uc.unmirror,
      zeroTex: uc.zeroTex,
      textures: uc.textures.map((t) => ({ ...t })),
    };
    if (files.ucText !== undefined) extras.uc.text = files.ucText;
    if (files.ucEncoding) extras.uc.encoding = files.ucEncoding;
    if (files.ucFile && files.ucText !== undefined) extras.uc.file = files.ucFile;
  }
  return extras;
}

/**
 * The bytes the files carry that the glTF does not hold (kept as bytes, `GLTF_LEGACY_kept_bytes`
 * on the mesh): each frame's extra bytes, bytes after the last frame or triangle, and the Deus Ex
 * pad words when any is not zero. Frame bytes only when all frames were read.
 *
 * ```ts
 * keepUnrealBytes(mesh, meshKeptBytes(files, true));
 * ```
 */
export function meshKeptBytes(files: UnrealMeshFiles, allFrames: boolean): UnrealKept {
  const { data, aniv } = files as { data: UnrealData; aniv: UnrealAniv };
  const kept: UnrealKept = {};
  if (data.trailing.length) kept.dataTrailing = data.trailing;
  if (allFrames) {
    if (aniv.frameExtra.length) kept.frameExtra = aniv.frameExtra;
    if (aniv.trailing.length) kept.anivTrailing = aniv.trailing;
    if (aniv.words) {
      let any = false;
      for (let i = 3; i < aniv.words.length; i += 4) if (aniv.words[i]) any = true;
      if (any) {
        const pads = new Int16Array(aniv.words.length / 4);
        for (let i = 0; i < pads.length; i++) pads[i] = aniv.words[i * 4 + 3]!;
        kept.pads = pads;
      }
    }
  }
  return kept;
}
