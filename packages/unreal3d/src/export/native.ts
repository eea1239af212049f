/**
 * Native path: a document this package imported (mesh extras `unreal3d`, `_UNREAL_VERTEX`
 * attribute, unchanged node placement) is written back exactly: same triangle order, vertex
 * numbering, frames, header fields and (when nothing changed) the same `.uc` text.
 */
import type { Document, Material, Mesh, Node, Primitive } from '@gltf-transform/core';
import { accessorFloats, type WarningCollector } from '@gltf-legacy/core';
import { encodeByteUV, encodeDeusExArray, encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import { type AnivLayout, type UnrealAniv, vertexStride } from '../aniv.js';
import { createDataHeader, createPolys, isWeaponType, type UnrealData } from '../data.js';
import { type UnrealMeshExtras, VERTEX_ATTRIBUTE } from '../extras.js';
import { placementTRS } from '../transform.js';
import {
  parseUc,
  UC_KNOWN_KEYS,
  type UcMesh,
  type UcSequence,
  ucMesh,
  ucMeshSignature,
  writeUc,
} from '../uc.js';
import { fromB64, type UnrealExportModel, unrealName } from './common.js';
import { defaultTextures } from './materials.js';
import { safeUcTextures } from '../skin-names.js';

// ------------------------------------------------------------------ native path

export function findNativeMesh(doc: Document): { node: Node; mesh: Mesh; extras: UnrealMeshExtras } | null {
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

export function exportNative(
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
