/**
 * Mapping: glTF-Transform Document → Unreal file model → `NAME_d.3d`, `NAME_a.3d`, `NAME.uc`.
 *
 * Two paths:
 * - native: a document this package imported (mesh extras `unreal3d`, `_UNREAL_VERTEX` attribute,
 *   unchanged node placement) is written back exactly: same triangle order, vertex numbering,
 *   frames, header fields and (when nothing changed) the same `.uc` text;
 * - baked: any other document. Every mesh instance is merged, every animation sampled at `fps`
 *   (node TRS, morph weights and skinning evaluated on the CPU) into vertex frames, and the
 *   MESHMAP SCALE / MESH ORIGIN chosen so the animated bounds fill the integer range.
 */
import type { Animation, Document, Material, Mesh, Node, Primitive } from '@gltf-transform/core';
import {
  accessorFloats,
  decodeBase64,
  encodeText,
  ExportError,
  type ExportResult,
  WarningCollector,
  assertNodeTrees,
} from '@gltf-legacy/core';
import {
  decodeByteUV,
  encodeByteUV,
  encodeDeusExArray,
  encodeUnrealPackedArray,
  UNREAL_X_MAX,
  UNREAL_Z_MAX,
} from '@gltf-legacy/quantize';
import { type AnivLayout, type UnrealAniv, vertexStride, writeAniv } from './aniv.js';
import { collectItems, poseAt, readTracks, restMirrored } from './bake.js';
import {
  createDataHeader,
  createPolys,
  isWeaponType,
  PolyStyle,
  PolyTypeFlag,
  type UnrealData,
  writeData,
} from './data.js';
import { type UnrealMeshExtras, VERTEX_ATTRIBUTE } from './import.js';
import { placementTRS, type Placement } from './transform.js';
import {
  parseUc,
  UC_KNOWN_KEYS,
  type UcMesh,
  type UcSequence,
  type UcTexture,
  ucMesh,
  ucMeshSignature,
  ucNumber,
  writeUc,
} from './uc.js';
import { writeSkins } from './skin-export.js';
import { safeSkinFile, safeUcTextures } from './skin-names.js';

/** Options of {@link exportUnreal}. */
export interface UnrealExportOptions {
  /** Base name of the files: `NAME_d.3d`, `NAME_a.3d`, `NAME.uc` (default: the imported name, else `model`). */
  name?: string;
  /** Sampling rate for baked animations (frames per second, also the sequences' RATE). */
  fps?: number;
  /** `standard` (11/11/10 packed) or `deusex` (16-bit); default: as imported, else standard. */
  variant?: 'standard' | 'deusex';
  /** Always bake (ignore the native path). */
  bake?: boolean;
  /** Baked path: merge vertices with the same quantized position in every frame (default true). */
  weld?: boolean;
  /** Baked path: most vertex frames to write (all sequences together; default 4096). */
  maxFrames?: number;
}

export const UNREAL_EXPORT_DEFAULTS = {
  name: 'model',
  fps: 30,
  variant: undefined as 'standard' | 'deusex' | undefined,
  bake: false,
  maxFrames: 4096,
};

/**
 * Baked path: most `frames × glTF vertices` to pose (each costs 48 bytes of working memory while
 * baking); beyond it export fails fast with `TOO_MUCH_ANIMATION` instead of allocating.
 */
export const UNREAL_MAX_VERTEX_FRAMES = 1 << 22;

/** The file model written by an export. */
export interface UnrealExportModel {
  data: UnrealData;
  aniv: UnrealAniv;
  uc: UcMesh;
  ucText: string;
  /** Encoding of `ucText` when written (`latin1` when the original class file was). */
  ucEncoding?: 'utf8' | 'latin1';
  /** The original class file's name, when `ucText` is its text unchanged (`Sporifier.uc`). */
  ucFile?: string;
  /** True when `ucText` is the imported `.uc` text unchanged (skins go back to their original paths). */
  ucVerbatim?: boolean;
  /** The material of each texture slot (for writing the skins). */
  slotMaterials?: Map<number, Material | null>;
}

const fromB64 = (s: string | undefined) => (s ? decodeBase64(s) : new Uint8Array(0));

/** Identifier-safe name for UnrealScript (`Walk cycle` → `Walk_cycle`). */
export function unrealName(s: string, fallback: string): string {
  let out = s.replace(/[^A-Za-z0-9_]/g, '_');
  if (!out) out = fallback;
  if (/^[0-9]/.test(out)) out = `_${out}`;
  return out;
}

function vertexLimit(layout: AnivLayout): number {
  return Math.floor(0xffff / vertexStride(layout));
}

function layoutOf(variant: string | undefined, fallback: AnivLayout): AnivLayout {
  if (variant === undefined) return fallback;
  if (variant === 'deusex') return 'deusex';
  if (variant === 'standard' || variant === 'packed') return 'packed';
  throw new ExportError('BAD_OPTION', `unknown variant "${variant}" (use "standard" or "deusex")`);
}

function encodeFrames(
  layout: AnivLayout,
  raw: Float64Array,
  pads?: number[],
): { packed?: Uint32Array; words?: Int16Array; clamped: number } {
  if (layout === 'packed') {
    const { packed, clamped } = encodeUnrealPackedArray(raw);
    return { packed, clamped };
  }
  const { words, clamped } = encodeDeusExArray(raw, pads);
  return { words, clamped };
}

// ------------------------------------------------------------------ native path

function findNativeMesh(doc: Document): { node: Node; mesh: Mesh; extras: UnrealMeshExtras } | null {
  const meshNodes = doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh());
  if (meshNodes.length !== 1) return null;
  const node = meshNodes[0];
  const mesh = node.getMesh() as Mesh;
  const extras = (mesh.getExtras() as { unreal3d?: UnrealMeshExtras }).unreal3d;
  if (!extras || typeof extras !== 'object' || !Array.isArray(extras.runs)) return null;
  if (
    !mesh
      .listPrimitives()
      .every((p) => p.getAttribute(VERTEX_ATTRIBUTE) && p.getAttribute('POSITION') && p.getIndices())
  )
    return null;
  // The placement must be the one imported (else bake).
  const trs = placementTRS(extras.placement);
  const close = (a: ArrayLike<number>, b: ArrayLike<number>) =>
    Array.from(a).every((v, i) => Math.abs(v - b[i]) <= 1e-6 * Math.max(1, Math.abs(b[i])));
  if (!close(node.getTranslation(), trs.translation) || !close(node.getScale(), trs.scale)) return null;
  const r = node.getRotation();
  const dot = Math.abs(
    r[0] * trs.rotation[0] + r[1] * trs.rotation[1] + r[2] * trs.rotation[2] + r[3] * trs.rotation[3],
  );
  if (dot < 1 - 1e-9) return null;
  if (
    node.getParentNode() &&
    !node
      .getParentNode()
      ?.getWorldMatrix()
      .every((v, i) => v === [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1][i])
  )
    return null;
  return { node, mesh, extras };
}

/** Sequences of a native document: from animation extras when the keys agree with them. */
function nativeSequences(doc: Document, node: Node, frameCount: number): UcSequence[] | null {
  const out: UcSequence[] = [];
  for (const anim of doc.getRoot().listAnimations()) {
    const ex = (
      anim.getExtras() as {
        unreal3d?: {
          seq: string;
          startFrame: number;
          numFrames: number;
          rate: number;
          group?: string;
          notifies?: { time: number; function: string }[];
        };
      }
    ).unreal3d;
    const ch = anim.listChannels().find((c) => c.getTargetNode() === node);
    if (!ch) continue;
    const input = ch.getSampler()?.getInput();
    if (!ex || !input) return null;
    const times = accessorFloats(input);
    const rate = ex.rate > 0 && Number.isFinite(ex.rate) ? ex.rate : 30;
    const num = Math.max(1, Math.min(ex.numFrames, frameCount - Math.min(ex.startFrame, frameCount - 1)));
    const keys = num > 1 ? num + 1 : 1;
    if (times.length !== keys) return null;
    for (let k = 0; k < keys; k++) if (Math.abs(times[k] - k / rate) > 1e-4) return null;
    if (ch.getTargetPath() === 'weights') {
      const vals = accessorFloats(
        ch.getSampler()?.getOutput() as NonNullable<
          ReturnType<NonNullable<ReturnType<typeof ch.getSampler>>['getOutput']>
        >,
      );
      const nt = frameCount - 1;
      const start = Math.min(ex.startFrame, frameCount - 1);
      for (let k = 0; k < keys; k++) {
        const f = start + (k % num);
        for (let j = 0; j < nt; j++)
          if (Math.abs(vals[k * nt + j] - (j === f - 1 ? 1 : 0)) > 1e-6) return null;
      }
    }
    // A renamed animation renames the sequence (import appends '_' to duplicate names).
    const animName = anim.getName();
    const s: UcSequence = {
      name:
        animName.replace(/_+$/, '') === ex.seq.replace(/_+$/, '') || !animName
          ? ex.seq
          : unrealName(animName, ex.seq),
      startFrame: ex.startFrame,
      numFrames: ex.numFrames,
      rate: ex.rate,
      notifies: ex.notifies ?? [],
    };
    if (ex.group !== undefined) s.group = ex.group;
    out.push(s);
  }
  return out;
}

function exportNative(
  doc: Document,
  found: NonNullable<ReturnType<typeof findNativeMesh>>,
  layout: AnivLayout,
  name: string,
  warnings: WarningCollector,
): UnrealExportModel | null {
  const { node, mesh, extras: E } = found;
  const prims = mesh.listPrimitives();
  const nv = E.numVertices;
  if (!(Number.isInteger(nv) && nv >= 0 && nv <= 0xffff)) return null;
  // Weapon triangles kept in extras must still name vertices of the mesh (else bake).
  const weaponOk = (w: UnrealMeshExtras['weapons'][number]) =>
    !!w &&
    Array.isArray(w.vertices) &&
    w.vertices.length === 3 &&
    Array.isArray(w.uvs) &&
    w.uvs.length === 6 &&
    w.vertices.every((v) => Number.isInteger(v) && v >= 0 && v < nv);
  if (!Array.isArray(E.weapons) || !E.weapons.every(weaponOk)) return null;
  const targetCount = prims[0]?.listTargets().length ?? 0;
  if (!prims.every((p) => p.listTargets().length === targetCount)) return null;
  // No morph targets and `sameFrames`: frame 0 repeated (a static mesh imported from N equal frames).
  const same = E.sameFrames;
  const frameCount =
    targetCount === 0 && typeof same === 'number' && Number.isInteger(same) && same >= 1 && same <= 0xffff
      ? same
      : targetCount + 1;
  const sequences = nativeSequences(doc, node, frameCount);
  if (!sequences) return null;
  // Variant change: rescale the integers (umeshtools' x·32, y·32, z·64) and compensate in
  // MESHMAP SCALE / MESH ORIGIN, keeping every frame and sequence.
  const factor: number[] | null =
    layout === E.layout ? null : layout === 'deusex' ? [32, 32, 64] : [1 / 32, 1 / 32, 1 / 64];

  // Frames: raw integers per original vertex, built and encoded one frame at a time. Each file
  // vertex takes its position from the last glTF vertex that names it (or from the orphans kept
  // in extras).
  const src = prims.map((p) => ({
    pos: accessorFloats(p.getAttribute('POSITION') as NonNullable<ReturnType<Primitive['getAttribute']>>),
    orig: accessorFloats(
      p.getAttribute(VERTEX_ATTRIBUTE) as NonNullable<ReturnType<Primitive['getAttribute']>>,
    ),
    targets: p.listTargets().map((t) => {
      const a = t.getAttribute('POSITION');
      return a ? accessorFloats(a) : null;
    }),
  }));
  const repP = new Int32Array(nv).fill(-1);
  const repJ = new Int32Array(nv);
  for (let pi = 0; pi < src.length; pi++) {
    const orig = src[pi].orig;
    for (let j = 0; j < orig.length; j++) {
      const v = orig[j];
      if (!(v >= 0 && v < nv)) return null;
      if (!Number.isInteger(v)) continue;
      repP[v] = pi;
      repJ[v] = j;
    }
  }
  const orphanK = new Int32Array(nv).fill(-1);
  const orphanFrames = E.orphans && E.orphans.frames.length === frameCount ? E.orphans.frames : null;
  if (orphanFrames) {
    E.orphans?.indices.forEach((v, k) => {
      if (Number.isInteger(v) && v >= 0 && v < nv) orphanK[v] = k;
    });
  }
  let missing = 0;
  for (let v = 0; v < nv; v++) if (repP[v] < 0 && orphanK[v] < 0) missing++;
  if (missing)
    warnings.warn(
      'VERTEX_MISSING',
      'vertices used by no triangle and not kept in extras were written at the origin',
      missing,
    );
  const packedOut = layout === 'packed' ? new Uint32Array(frameCount * nv) : undefined;
  const wordsOut = layout === 'packed' ? undefined : new Int16Array(frameCount * nv * 4);
  const pads = !factor && Array.isArray(E.pads) ? E.pads : undefined;
  // Per primitive, the file vertices it represents and their glTF vertex.
  const repCount = new Int32Array(src.length);
  for (let v = 0; v < nv; v++) if (orphanK[v] < 0 && repP[v] >= 0) repCount[repP[v]]++;
  const repV = Array.from(repCount, (c) => new Int32Array(c));
  repCount.fill(0);
  for (let v = 0; v < nv; v++) {
    const pi = repP[v];
    if (orphanK[v] < 0 && pi >= 0) repV[pi][repCount[pi]++] = v;
  }
  const rf = new Float64Array(nv * 3);
  let rounded = 0;
  let clamped = 0;
  for (let f = 0; f < frameCount; f++) {
    rf.fill(0);
    for (let pi = 0; pi < src.length; pi++) {
      const s = src[pi];
      fillFrame(rf, s.pos, f === 0 ? null : (s.targets[f - 1] ?? null), repV[pi], repJ);
    }
    if (orphanFrames) {
      const row = orphanFrames[f];
      for (let v = 0; v < nv; v++) {
        const k = orphanK[v];
        if (k < 0) continue;
        rf[v * 3] = row[k * 3] ?? 0;
        rf[v * 3 + 1] = row[k * 3 + 1] ?? 0;
        rf[v * 3 + 2] = row[k * 3 + 2] ?? 0;
      }
    }
    if (factor) for (let i = 0; i < rf.length; i++) rf[i] *= factor[i % 3];
    for (let i = 0; i < rf.length; i++) {
      const r = Math.round(rf[i]);
      if (Math.abs(r - rf[i]) > 1e-3) rounded++;
      rf[i] = r;
    }
    if (packedOut) clamped += encodeUnrealPackedArray(rf, packedOut.subarray(f * nv, (f + 1) * nv)).clamped;
    else if (wordsOut) {
      const e = encodeDeusExArray(rf, pads?.slice(f * nv, (f + 1) * nv));
      wordsOut.set(e.words, f * nv * 4);
      clamped += e.clamped;
    }
  }
  if (rounded)
    warnings.warn(
      'VALUE_QUANTIZED',
      'vertex coordinates that were not whole Unreal units were rounded',
      rounded,
    );

  // Triangles in the original order.
  let total = E.weapons.length;
  for (const p of prims) total += (p.getIndices()?.getCount() ?? 0) / 3;
  const polys = createPolys(total);
  const cursors = new Int32Array(prims.length);
  // Rendered triangles written per primitive: only those give a texture slot a material (the
  // importer makes none for a slot that draws nothing, so its skin would not come back).
  const drawn = new Int32Array(prims.length);
  const primData = prims.map((p) => {
    const ex = ((
      p.getExtras() as {
        unreal3d?: { textureNum?: number; type?: number; flags?: number; color?: number; colors?: number[] };
      }
    ).unreal3d ?? {}) as {
      textureNum?: number;
      type?: number;
      flags?: number;
      color?: number;
      colors?: number[];
    };
    return {
      idx: accessorFloats(p.getIndices() as NonNullable<ReturnType<Primitive['getIndices']>>),
      orig: accessorFloats(
        p.getAttribute(VERTEX_ATTRIBUTE) as NonNullable<ReturnType<Primitive['getAttribute']>>,
      ),
      uv: p.getAttribute('TEXCOORD_0')
        ? accessorFloats(p.getAttribute('TEXCOORD_0') as NonNullable<ReturnType<Primitive['getAttribute']>>)
        : null,
      ex,
    };
  });
  let t = 0;
  let weaponAt = 0;
  const emit = (g: number) => {
    const pd = primData[g];
    const k = cursors[g]++;
    if (k * 3 + 2 >= pd.idx.length) return false;
    const corners = [pd.idx[k * 3], pd.idx[k * 3 + 2], pd.idx[k * 3 + 1]]; // undo the winding swap
    for (let c = 0; c < 3; c++) {
      const gv = corners[c];
      polys.vertices[t * 3 + c] = pd.orig[gv];
      polys.uvs[t * 6 + c * 2] = pd.uv ? encodeByteUV(pd.uv[gv * 2]) : 0;
      polys.uvs[t * 6 + c * 2 + 1] = pd.uv ? encodeByteUV(pd.uv[gv * 2 + 1]) : 0;
    }
    polys.types[t] = pd.ex.type ?? 0;
    if (!isWeaponType(polys.types[t])) drawn[g]++;
    polys.textures[t] = pd.ex.textureNum ?? 0;
    polys.flags[t] = pd.ex.flags ?? 0;
    polys.colors[t] = pd.ex.colors ? (pd.ex.colors[k] ?? 0) : (pd.ex.color ?? 0);
    t++;
    return true;
  };
  const emitWeapon = () => {
    const w = E.weapons[weaponAt++];
    if (!w) return;
    polys.vertices.set(w.vertices, t * 3);
    polys.uvs.set(w.uvs, t * 6);
    polys.types[t] = w.type;
    polys.colors[t] = w.color;
    polys.textures[t] = w.texture;
    polys.flags[t] = w.flags;
    t++;
  };
  for (let r = 0; r + 1 < E.runs.length; r += 2) {
    const g = E.runs[r];
    for (let k = 0; k < E.runs[r + 1]; k++) {
      if (g < 0) emitWeapon();
      else if (g < prims.length) emit(g);
    }
  }
  for (let g = 0; g < prims.length; g++) while (cursors[g] * 3 < primData[g].idx.length && emit(g));
  while (weaponAt < E.weapons.length) emitWeapon();

  const header = createDataHeader(E.numPolys ?? t, nv);
  if (E.header) {
    header.bogusRot = E.header.bogusRot;
    header.bogusFrame = E.header.bogusFrame;
    header.bogusNorm = [E.header.bogusNorm[0], E.header.bogusNorm[1], E.header.bogusNorm[2]];
    header.fixScale = E.header.fixScale;
    header.unused = [E.header.unused[0], E.header.unused[1], E.header.unused[2]];
    header.padding = new Uint8Array(E.header.padding);
  }
  const data: UnrealData = { header, polys: sliceP(polys, t), trailing: fromB64(E.dataTrailing) };

  if (clamped)
    warnings.warn('VALUE_CLAMPED', 'vertex coordinates outside the packed range were clamped', clamped);
  const stride = vertexStride(layout);
  const frameSize = factor ? nv * stride : (E.frameSize ?? nv * stride);
  const extraPer = frameSize - nv * stride;
  const frameExtra = factor ? new Uint8Array(0) : fromB64(E.frameExtra);
  const aniv: UnrealAniv = {
    numFrames: E.numFrames ?? frameCount,
    frameSize,
    layout,
    numVertices: nv,
    frameCount,
    packed: packedOut,
    words: wordsOut,
    frameExtra:
      frameExtra.length === extraPer * frameCount
        ? frameExtra
        : new Uint8Array(Math.max(0, extraPer) * frameCount),
    trailing: fromB64(E.anivTrailing),
  };

  // The .uc.
  const ucm: UcMesh = {
    name: E.meshName,
    unmirror: E.uc?.unmirror ?? false,
    zeroTex: E.uc?.zeroTex ?? false,
    origin: factor
      ? {
          ...E.placement.origin,
          x: E.placement.origin.x * factor[0],
          y: E.placement.origin.y * factor[1],
          z: E.placement.origin.z * factor[2],
        }
      : { ...E.placement.origin },
    scale: factor
      ? [E.placement.scale[0] / factor[0], E.placement.scale[1] / factor[1], E.placement.scale[2] / factor[2]]
      : [...E.placement.scale],
    sequences,
    // Names and files from extras or glTF names are untrusted: the .uc gets safe ones.
    textures: safeUcTextures(
      E.uc?.textures ??
        defaultTextures(
          prims.filter((_, i) => drawn[i] > 0).map((p) => p.getMaterial()),
          primData.filter((_, i) => drawn[i] > 0).map((p) => p.ex.textureNum ?? 0),
        ),
    ),
    directives: [],
  };
  let ucText: string | undefined;
  const fileBase = (E as UnrealMeshExtras & { fileBase?: string }).fileBase;
  if (E.uc?.text !== undefined && fileBase?.toLowerCase() === name.toLowerCase()) {
    const orig = ucMesh(parseUc(E.uc.text), E.meshName);
    const origSeq = orig.sequences.length ? orig : { ...orig, sequences: [] };
    const mine = orig.sequences.length
      ? ucm
      : { ...ucm, sequences: ucm.sequences.filter((s) => !(s.name === 'All' && sequences.length === 1)) };
    if (ucMeshSignature(origSeq) === ucMeshSignature(mine)) ucText = E.uc.text;
  }
  if (ucText === undefined) {
    const extra = (E.uc?.directives ?? []).filter((line) => {
      const d = parseUc(line).directives[0];
      return d && !UC_KNOWN_KEYS.includes(`${d.command} ${d.action}`);
    });
    ucText = writeUc(ucm, { fileBase: name, extraDirectives: extra });
  }
  const slotMaterials = new Map<number, Material | null>();
  prims.forEach((p, i) => {
    if (!drawn[i]) return;
    const num = primData[i].ex.textureNum ?? 0;
    if (!slotMaterials.has(num) || (!slotMaterials.get(num)?.getBaseColorTexture() && p.getMaterial()))
      slotMaterials.set(num, p.getMaterial());
  });
  const model: UnrealExportModel = {
    data,
    aniv,
    uc: ucm,
    ucText,
    ucEncoding: E.uc?.encoding ?? 'utf8',
    slotMaterials,
  };
  if (ucText === E.uc?.text) {
    model.ucVerbatim = true;
    if (E.uc?.file) model.ucFile = E.uc.file;
  }
  return model;
}

/** Raw Unreal X, Y, Z of the file vertices `vs` from glTF position + delta (glTF Y/Z swapped back). */
function fillFrame(
  rf: Float64Array,
  pos: Float32Array,
  d: Float32Array | null,
  vs: Int32Array,
  repJ: Int32Array,
): void {
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    const o = v * 3;
    const j = repJ[v] * 3;
    if (d) {
      rf[o] = pos[j] + d[j];
      rf[o + 1] = pos[j + 2] + d[j + 2];
      rf[o + 2] = pos[j + 1] + d[j + 1];
    } else {
      rf[o] = pos[j];
      rf[o + 1] = pos[j + 2];
      rf[o + 2] = pos[j + 1];
    }
  }
}

function sliceP(p: ReturnType<typeof createPolys>, n: number): ReturnType<typeof createPolys> {
  if (p.types.length === n) return p;
  return {
    vertices: p.vertices.slice(0, n * 3),
    types: p.types.slice(0, n),
    colors: p.colors.slice(0, n),
    uvs: p.uvs.slice(0, n * 6),
    textures: p.textures.slice(0, n),
    flags: p.flags.slice(0, n),
  };
}

function defaultTextures(materials: (Material | null)[], slots: number[]): UcTexture[] {
  const out: UcTexture[] = [];
  const slotMaterials = new Map<number, Material | null>();
  materials.forEach((m, i) => {
    const num = slots[i];
    if (out.some((t) => t.num === num)) return;
    out.push(uniqueSkinName(textureFor(m, num), m, out, slotMaterials));
    slotMaterials.set(num, m);
  });
  return out;
}

function textureFor(m: Material | null, num: number): UcTexture {
  const ex = (m?.getExtras() as { unreal3d?: { texture?: string; file?: string } } | undefined)?.unreal3d;
  const tex = m?.getBaseColorTexture();
  // A foreign texture is named after its image, so materials sharing it share one skin file.
  const rawName = tex ? tex.getName() || tex.getURI().split(/[\\/]/).pop() || '' : '';
  const texName = rawName.replace(/\.(png|jpe?g|webp|ktx2|pcx|bmp|tga|dds)$/i, '');
  const name = unrealName(ex?.texture ?? (texName || m?.getName()) ?? '', `Skin${num}`);
  const t: UcTexture = { num, name };
  let file = ex?.file ?? tex?.getURI().split(/[\\/]/).pop();
  // UCC imports PCX and BMP only: a glTF image is written as NAME.pcx.
  if (tex && !(file && /\.(pcx|bmp)$/i.test(file))) file = `${name}.pcx`;
  if (file) t.file = safeSkinFile(file, name);
  return t;
}

/** Renames a slot's texture when another slot already uses its name for a different image. */
function uniqueSkinName(
  t: UcTexture,
  m: Material | null,
  textures: UcTexture[],
  slotMaterials: Map<number, Material | null>,
): UcTexture {
  const tex = m?.getBaseColorTexture() ?? null;
  const clash = (n: string) =>
    tex !== null &&
    textures.some(
      (o) =>
        o.name.toLowerCase() === n.toLowerCase() &&
        (slotMaterials.get(o.num)?.getBaseColorTexture() ?? null) !== tex,
    );
  if (!clash(t.name)) return t;
  let k = t.num;
  let name = `${t.name}_${k}`;
  while (clash(name)) name = `${t.name}_${++k}`;
  const out: UcTexture = { num: t.num, name };
  if (t.file) out.file = tex ? `${name}.pcx` : t.file;
  return out;
}

/** Poly `type` byte for a material (extras win; else from doubleSided / alpha mode / unlit). */
export function polyTypeFor(m: Material | null): number {
  const ex = (m?.getExtras() as { unreal3d?: { type?: number; modulated?: boolean } } | undefined)?.unreal3d;
  if (ex && typeof ex.type === 'number') return ex.type & 0xff;
  if (!m) return PolyStyle.NORMAL;
  let type: number = m.getDoubleSided() ? PolyStyle.TWO_SIDED : PolyStyle.NORMAL;
  if (m.getAlphaMode() === 'BLEND') type = ex?.modulated ? PolyStyle.MODULATED : PolyStyle.TRANSLUCENT;
  else if (m.getAlphaMode() === 'MASK') type = PolyStyle.MASKED;
  if (m.getExtension('KHR_materials_unlit')) type |= PolyTypeFlag.UNLIT;
  return type;
}

// ------------------------------------------------------------------ baked path

/**
 * Every vertex attribute, index and morph target accessor must hold a whole number of elements.
 * NodeIO accepts a fractional `count` (invalid glTF; fuzz d309734b: POSITION count 623.33), whose
 * array then ends mid-element: the vertex count became fractional and the .3d frame size 21 bytes,
 * a file our own import rejects. ExportError BAD_ACCESSOR instead.
 */
function assertWholeAccessors(doc: Document): void {
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const named: [string, ReturnType<Primitive['getIndices']>][] = [['indices', prim.getIndices()]];
      for (const s of prim.listSemantics()) named.push([s, prim.getAttribute(s)]);
      prim.listTargets().forEach((t, i) => {
        for (const s of t.listSemantics()) named.push([`target ${i} ${s}`, t.getAttribute(s)]);
      });
      for (const [what, acc] of named) {
        const len = acc?.getArray()?.length ?? 0;
        if (acc && len % acc.getElementSize() !== 0)
          throw new ExportError(
            'BAD_ACCESSOR',
            `mesh "${mesh.getName()}": the ${what} accessor holds ${len} values, not a whole number of ${acc.getType()} elements (invalid glTF)`,
          );
      }
    }
  }
}

function tooManyVertices(nv: number, layout: AnivLayout): ExportError {
  return new ExportError(
    'TOO_MANY_VERTICES',
    `the merged mesh has ${nv} vertices (after welding); an Unreal ${layout === 'deusex' ? 'Deus Ex ' : ''}aniv frame holds at most ${vertexLimit(layout)} (its u16 frameSize is ${vertexStride(layout)} bytes per vertex)`,
  );
}

function tooManyFrames(frames: number, nv: number, maxFrames: number, budget: number, fps: number) {
  if (budget >= maxFrames)
    return new ExportError(
      'TOO_MANY_FRAMES',
      `the animations need ${frames} vertex frames at ${fps} fps, more than the ${maxFrames} allowed (option maxFrames; an aniv file holds at most 65535); lower --fps or shorten the clips`,
    );
  return new ExportError(
    'TOO_MUCH_ANIMATION',
    `the animations need ${frames} vertex frames of ${nv} vertices at ${fps} fps; at most ${budget} frames of that many vertices can be baked (${UNREAL_MAX_VERTEX_FRAMES} vertex-frames); lower --fps, shorten the clips or simplify the mesh`,
  );
}

/**
 * Merges vertices whose integer coordinates are equal in every frame. Returns the old → new index
 * map, the new count and the compacted frames.
 */
export function weldFrames(
  raw: Float64Array,
  frameCount: number,
  nv: number,
): { remap: Uint32Array; count: number; raw: Float64Array } {
  const remap = new Uint32Array(nv);
  const firstOf: number[] = [];
  const buckets = new Map<number, number[]>();
  const same = (a: number, b: number) => {
    for (let f = 0; f < frameCount; f++) {
      const oa = (f * nv + a) * 3;
      const ob = (f * nv + b) * 3;
      if (raw[oa] !== raw[ob] || raw[oa + 1] !== raw[ob + 1] || raw[oa + 2] !== raw[ob + 2]) return false;
    }
    return true;
  };
  for (let v = 0; v < nv; v++) {
    let h = 0x811c9dc5;
    for (let f = 0; f < frameCount; f++) {
      const o = (f * nv + v) * 3;
      h = Math.imul(h ^ (raw[o] | 0), 16777619);
      h = Math.imul(h ^ (raw[o + 1] | 0), 16777619);
      h = Math.imul(h ^ (raw[o + 2] | 0), 16777619);
    }
    const list = buckets.get(h);
    let found = -1;
    if (list) {
      for (const n of list) {
        if (same(firstOf[n], v)) {
          found = n;
          break;
        }
      }
    }
    if (found < 0) {
      found = firstOf.length;
      firstOf.push(v);
      if (list) list.push(found);
      else buckets.set(h, [found]);
    }
    remap[v] = found;
  }
  const count = firstOf.length;
  if (count === nv) return { remap, count, raw };
  const out = new Float64Array(frameCount * count * 3);
  for (let f = 0; f < frameCount; f++) {
    for (let n = 0; n < count; n++) {
      const o = (f * nv + firstOf[n]) * 3;
      const d = (f * count + n) * 3;
      out[d] = raw[o];
      out[d + 1] = raw[o + 1];
      out[d + 2] = raw[o + 2];
    }
  }
  return { remap, count, raw: out };
}

/**
 * Scale and origin that fit `[min, max]` (Unreal world units) into ±`lim` with the most precision.
 *
 * ```ts
 * fitRange(-10, 30, 1023); // { scale: 0.01955034, origin: -511.5001 }: raw = world / scale + origin
 * ```
 */
export function fitRange(min: number, max: number, lim: number): { scale: number; origin: number } {
  if (!(max >= min)) return { scale: 1, origin: 0 };
  const half = (max - min) / 2;
  const center = (max + min) / 2;
  if (half < 1e-12) return { scale: 1, origin: -center };
  let scale = half / lim;
  // A decimal that reads back exactly and is not smaller than needed.
  let s = Number(scale.toPrecision(7));
  if (s < scale) s = Number((scale * (1 + 1e-7)).toPrecision(7));
  scale = s;
  const origin = Number((-center / scale).toFixed(4));
  return { scale, origin };
}

function exportBaked(
  doc: Document,
  layout: AnivLayout,
  name: string,
  fps: number,
  warnings: WarningCollector,
  options: UnrealExportOptions = {},
): UnrealExportModel {
  const items = collectItems(doc, warnings, (n) => n.getName() === 'WeaponTriangle' && !n.getMesh());
  let nv = 0;
  for (const it of items) nv += it.positions.length / 3;
  if (!items.length || nv === 0)
    throw new ExportError('NO_GEOMETRY', 'the document has no triangle mesh to write');
  for (const it of items) {
    const count = it.positions.length / 3;
    for (let k = 0; k < it.indices.length; k++)
      if (it.indices[k] >= count)
        throw new ExportError(
          'INDEX_OUT_OF_RANGE',
          `mesh "${it.mesh.getName()}": index ${it.indices[k]} is not below the primitive's ${count} vertices`,
        );
  }
  const limit = vertexLimit(layout);
  // Before welding, allow a few times the limit (glTF splits vertices at UV/normal seams).
  if (nv > limit * 8) throw tooManyVertices(nv, layout);
  if (items.some((it) => it.skin))
    warnings.warn(
      'SKIN_BAKED',
      'skinned meshes were baked into vertex frames (Unreal 1 meshes have no bones)',
    );

  // Frames: one sequence per animation, sampled at fps.
  const anims: Animation[] = doc.getRoot().listAnimations();
  const samples: { tracks: ReturnType<typeof readTracks> | null; t: number }[] = [];
  const sequences: UcSequence[] = [];
  const usedNames = new Set<string>();
  const maxFrames = Math.min(0xffff, options.maxFrames ?? UNREAL_EXPORT_DEFAULTS.maxFrames);
  const budget = Math.min(maxFrames, Math.floor(UNREAL_MAX_VERTEX_FRAMES / nv));
  for (const anim of anims) {
    const tracks = readTracks(anim, warnings);
    if (!tracks.channels.length) continue;
    const n = Math.max(1, Math.round(tracks.duration * fps));
    // Checked before any frame is listed or posed: a long clip must fail fast, not fill memory.
    if (samples.length + n > budget) throw tooManyFrames(samples.length + n, nv, maxFrames, budget, fps);
    let seqName = unrealName(anim.getName(), `Anim${sequences.length}`);
    while (usedNames.has(seqName.toLowerCase())) seqName += '_';
    usedNames.add(seqName.toLowerCase());
    sequences.push({ name: seqName, startFrame: samples.length, numFrames: n, rate: fps, notifies: [] });
    for (let i = 0; i < n; i++) samples.push({ tracks, t: i / fps });
    const sampled = tracks.channels.some(
      (c) =>
        c.data.times.length > 1 &&
        (c.data.interpolation !== 'LINEAR' || Math.abs((c.data.times[1] - c.data.times[0]) * fps - 1) > 1e-3),
    );
    if (sampled)
      warnings.warn(
        'ANIMATION_RESAMPLED',
        `animations were resampled at ${fps} fps (Unreal vertex frames interpolate linearly)`,
      );
  }
  if (!samples.length) {
    samples.push({ tracks: null, t: 0 });
    sequences.push({ name: 'All', startFrame: 0, numFrames: 1, rate: fps, notifies: [] });
  }

  const frameCount = samples.length;
  const world = new Float64Array(frameCount * nv * 3); // Unreal axes, world units
  const tmp = new Float64Array(nv * 3);
  const parents = new Map<Node, Node | null>();
  for (let f = 0; f < frameCount; f++) {
    poseAt(items, samples[f].tracks, samples[f].t, tmp, parents);
    const o = f * nv * 3;
    for (let i = 0; i < nv; i++) {
      world[o + i * 3] = tmp[i * 3];
      world[o + i * 3 + 1] = tmp[i * 3 + 2];
      world[o + i * 3 + 2] = tmp[i * 3 + 1];
    }
  }
  let bad = 0;
  for (let i = 0; i < world.length; i++) {
    if (!Number.isFinite(world[i])) {
      world[i] = 0;
      bad++;
    }
  }
  if (bad) warnings.warn('VALUE_INVALID', 'non-finite vertex coordinates were written as 0', bad);

  // Bounds → scale and origin per axis.
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < world.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const v = world[i + c];
      if (v < min[c]) min[c] = v;
      if (v > max[c]) max[c] = v;
    }
  }
  const lims = layout === 'packed' ? [UNREAL_X_MAX, UNREAL_X_MAX, UNREAL_Z_MAX] : [32767, 32767, 32767];
  const fit = [0, 1, 2].map((c) => fitRange(min[c], max[c], lims[c]));
  const placement: Placement = {
    scale: [fit[0].scale, fit[1].scale, fit[2].scale],
    origin: { x: fit[0].origin, y: fit[1].origin, z: fit[2].origin, pitch: 0, yaw: 0, roll: 0 },
  };
  const raw = new Float64Array(world.length);
  let worst = 0;
  for (let i = 0; i < world.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const s = fit[c].scale;
      const o = fit[c].origin;
      const q = Math.round(world[i + c] / s + o);
      raw[i + c] = q;
      const err = Math.abs(s * (q - o) - world[i + c]);
      if (err > worst) worst = err;
    }
  }
  warnings.warn(
    'VALUE_QUANTIZED',
    `positions were quantized to the ${layout === 'packed' ? '11/11/10-bit' : '16-bit'} grid (MESHMAP SCALE ${placement.scale.map((v) => ucNumber(v)).join(' ')}); worst error ${worst.toPrecision(3)} units`,
  );

  // Materials → texture slots.
  const slots = new Map<Material | null, number>();
  const textures: UcTexture[] = [];
  const slotMaterials = new Map<number, Material | null>();
  for (const it of items) {
    const m = it.prim.getMaterial();
    // A material that draws no rendered triangle gets no slot: the importer would make no
    // material for it, so its skin would not come back (fuzz 5c46fcbd).
    if (slots.has(m) || it.indices.length < 3 || isWeaponType(polyTypeFor(m))) continue;
    const ex = (m?.getExtras() as { unreal3d?: { textureNum?: number } } | undefined)?.unreal3d;
    let num = typeof ex?.textureNum === 'number' ? ex.textureNum : slots.size;
    while ([...slots.values()].includes(num) && typeof ex?.textureNum !== 'number') num++;
    if (num > 255)
      throw new ExportError('TOO_MANY_MATERIALS', 'an Unreal mesh has at most 256 texture slots');
    slots.set(m, num);
    if (!textures.some((t) => t.num === num)) {
      textures.push(uniqueSkinName(textureFor(m, num), m, textures, slotMaterials));
      slotMaterials.set(num, m);
    }
  }

  // Triangles.
  let tris = 0;
  for (const it of items) tris += it.indices.length / 3;
  if (tris > 0xffff)
    throw new ExportError('TOO_MANY_TRIANGLES', `${tris} triangles exceed the 65535 a _d.3d can hold`);
  // A _d.3d needs a rendered (non-weapon) triangle: degenerate strips/fans or lists shorter than
  // 3 indices give none.
  if (!items.some((it) => it.indices.length >= 3 && !isWeaponType(polyTypeFor(it.prim.getMaterial()))))
    throw new ExportError(
      'NO_GEOMETRY',
      'the document has no triangle to write (only empty or degenerate primitives)',
    );
  const polys = createPolys(tris);
  let t = 0;
  let uvErr = 0;
  let uvClamped = 0;
  let noUv = 0;
  const uvByte = (u: number) => {
    const b = encodeByteUV(u);
    if (u < 0 || u >= 1 + 1 / 512) uvClamped++;
    else {
      const e = Math.abs(decodeByteUV(b) - u);
      if (e > uvErr) uvErr = e;
    }
    return b;
  };
  for (const it of items) {
    const m = it.prim.getMaterial();
    const type = polyTypeFor(m);
    const tex = slots.get(m) ?? 0;
    const flagsByte =
      ((m?.getExtras() as { unreal3d?: { flags?: number } } | undefined)?.unreal3d?.flags ?? 0) & 0xff;
    const mirrored = !it.skin && restMirrored(it.node);
    if (!it.uvs) noUv++;
    const idx = it.indices;
    for (let k = 0; k + 2 < idx.length; k += 3) {
      const corners = mirrored ? [idx[k], idx[k + 1], idx[k + 2]] : [idx[k], idx[k + 2], idx[k + 1]];
      for (let c = 0; c < 3; c++) {
        const v = corners[c];
        polys.vertices[t * 3 + c] = it.base + v;
        polys.uvs[t * 6 + c * 2] = it.uvs ? uvByte(it.uvs[v * 2]) : 0;
        polys.uvs[t * 6 + c * 2 + 1] = it.uvs ? uvByte(it.uvs[v * 2 + 1]) : 0;
      }
      polys.types[t] = type;
      polys.textures[t] = tex;
      t++;
    }
    void flagsByte;
  }
  if (uvErr > 0)
    warnings.warn(
      'VALUE_QUANTIZED',
      `texture coordinates were quantized to bytes (1/256); worst error ${uvErr.toPrecision(3)}`,
    );
  if (uvClamped)
    warnings.warn(
      'UV_CLAMPED',
      'texture coordinates outside [0, 1) were clamped (Unreal byte UVs cannot tile)',
      uvClamped,
    );
  if (noUv) warnings.warn('ATTRIBUTE_DROPPED', 'primitives without TEXCOORD_0 got UV 0,0', noUv);
  if (items.some((it) => it.prim.getAttribute('NORMAL')))
    warnings.warn('ATTRIBUTE_DROPPED', 'normals are not stored (the engine computes them)');
  if (items.some((it) => it.prim.getAttribute('COLOR_0')))
    warnings.warn('ATTRIBUTE_DROPPED', 'vertex colors cannot be stored');

  // Weld vertices whose quantized positions agree in every frame (UVs live on the triangles).
  let outRaw: Float64Array = raw;
  let outNv = nv;
  if (options.weld !== false) {
    const w = weldFrames(raw, frameCount, nv);
    if (w.count < nv) {
      for (let i = 0; i < polys.vertices.length; i++) polys.vertices[i] = w.remap[polys.vertices[i]];
      outRaw = w.raw;
      outNv = w.count;
      warnings.warn(
        'VERTICES_WELDED',
        `${nv} glTF vertices became ${w.count} Unreal vertices (same position in every frame)`,
      );
    }
  }
  if (outNv > limit) throw tooManyVertices(outNv, layout);
  const enc = encodeFrames(layout, outRaw);
  const data: UnrealData = { header: createDataHeader(t, outNv), polys, trailing: new Uint8Array(0) };
  const aniv: UnrealAniv = {
    numFrames: frameCount,
    frameSize: outNv * vertexStride(layout),
    layout,
    numVertices: outNv,
    frameCount,
    packed: enc.packed,
    words: enc.words,
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  };
  const meshName = unrealName(name, 'model');
  const ucm: UcMesh = {
    name: meshName,
    unmirror: false,
    zeroTex: false,
    origin: placement.origin,
    scale: placement.scale,
    sequences,
    textures,
    directives: [],
  };
  return { data, aniv, uc: ucm, ucText: writeUc(ucm, { fileBase: name }), slotMaterials };
}

/**
 * Converts a Document to the Unreal file model (see module doc for the two paths).
 *
 * ```ts
 * const model = exportUnrealModel(doc, { name: 'Fox', fps: 30 }, warnings);
 * model.aniv.numFrames; // one frame per sample of every clip
 * ```
 */
export function exportUnrealModel(
  doc: Document,
  options: UnrealExportOptions = {},
  warnings = new WarningCollector(),
): UnrealExportModel {
  assertNodeTrees(doc);
  assertWholeAccessors(doc);
  const native = options.bake ? null : findNativeMesh(doc);
  const E = native?.extras as (UnrealMeshExtras & { fileBase?: string }) | undefined;
  const name = options.name ?? E?.fileBase ?? UNREAL_EXPORT_DEFAULTS.name;
  const fps = options.fps ?? UNREAL_EXPORT_DEFAULTS.fps;
  if (!(fps > 0 && fps <= 1000)) throw new ExportError('BAD_OPTION', `fps must be in (0, 1000], got ${fps}`);
  const mf = options.maxFrames;
  if (mf !== undefined && !(Number.isInteger(mf) && mf >= 1))
    throw new ExportError('BAD_OPTION', `maxFrames must be a whole number ≥ 1, got ${mf}`);
  const layout = layoutOf(options.variant, E?.layout ?? 'packed');
  if (native) {
    const local = new WarningCollector();
    const model = exportNative(doc, native, layout, name, local);
    if (model) {
      warnings.merge(local);
      return model;
    }
  }
  return exportBaked(doc, layout, name, fps, warnings, options);
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
  const model = exportUnrealModel(doc, options, warnings);
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
