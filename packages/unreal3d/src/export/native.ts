/**
 * Native path: a document this package imported (mesh extras `unreal3d`, `_UNREAL_VERTEX`
 * attribute, unchanged node placement) is written back exactly: same triangle order, vertex
 * numbering, frames, header fields and (when nothing changed) the same `.uc` text.
 */
import type { Document, Material, Mesh, Node, Primitive } from '@gltf-transform/core';
import { accessorFloats, baseName, textureSourcePath, type WarningCollector } from '@gltf-legacy/core';
import { type AnivLayout, type UnrealAniv, vertexStride } from '../aniv.js';
import { type UnrealMeshExtras, unrealKeptBytes, VERTEX_ATTRIBUTE, withKeptArrays } from '../extras.js';
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
import { type UnrealExportModel, unrealName } from './common.js';
import { defaultTextures } from './materials.js';
import { nativeFrames } from './native-frames.js';
import { nativeTriangles } from './native-triangles.js';
import { safeUcTextures } from '../skin-names.js';
import type { SkinExtras } from '../skin-import.js';

// ------------------------------------------------------------------ native path

export function findNativeMesh(doc: Document): { node: Node; mesh: Mesh; extras: UnrealMeshExtras } | null {
  const meshNodes = doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh());
  if (meshNodes.length !== 1) return null;
  const node = meshNodes[0];
  const mesh = node.getMesh() as Mesh;
  const json = (mesh.getExtras() as { unreal3d?: UnrealMeshExtras }).unreal3d;
  if (!json || typeof json !== 'object') return null;
  // with what import kept as bytes (runs, orphans) back in place
  const extras = withKeptArrays(mesh, json);
  if (!Array.isArray(extras.runs)) return null;
  if (
    !mesh
      .listPrimitives()
      .every((p) => p.getAttribute(VERTEX_ATTRIBUTE) && p.getAttribute('POSITION') && p.getIndices())
  )
    return null;
  if (!mesh.listPrimitives().every(nativeQuantization)) return null;
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

/**
 * True when the positions are stored the way import writes them: a float32 POSITION, and morph
 * POSITION deltas float32 or whole-unit integers (`KHR_mesh_quantization` BYTE/SHORT, not
 * normalized; a normalized one only as the shared all-zero delta). Anything else (a `quantize()`d
 * document) goes through the shared stage, which widens it, and is baked.
 */
function nativeQuantization(prim: Primitive): boolean {
  const pos = prim.getAttribute('POSITION');
  if (!pos || !(pos.getArray() instanceof Float32Array)) return false;
  for (const t of prim.listTargets()) {
    const d = t.getAttribute('POSITION');
    if (!d?.getNormalized()) continue;
    const a = d.getArray();
    if (a) for (let i = 0; i < a.length; i++) if (a[i] !== 0) return false;
  }
  return true;
}

/**
 * True when an animation name is what import made of sequence `seq`: the name itself, or it
 * made unique by core's `uniqueNames` (`Fire_2`) or by earlier versions (`Fire_`).
 */
function sameSequenceName(animName: string, seq: string): boolean {
  if (animName === seq || animName.replace(/_+$/, '') === seq.replace(/_+$/, '')) return true;
  return animName.startsWith(`${seq}_`) && /^\d+$/.test(animName.slice(seq.length + 1));
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
      name: sameSequenceName(animName, ex.seq) || !animName ? ex.seq : unrealName(animName, ex.seq),
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
  const K = unrealKeptBytes(mesh, E);
  const prims = mesh.listPrimitives();
  const nv = E.numVertices;
  if (!(Number.isInteger(nv) && nv >= 0 && nv <= 0xffff)) return null;
  // Weapon triangles kept in extras must still name vertices of the mesh (else bake).
  // Those naming vertex numVertices (INDEX_OUT_OF_RANGE) may name it, and no further.
  const rawOk = (last: number) => (w: UnrealMeshExtras['weapons'][number]) =>
    !!w &&
    Array.isArray(w.vertices) &&
    w.vertices.length === 3 &&
    Array.isArray(w.uvs) &&
    w.uvs.length === 6 &&
    w.vertices.every((v) => Number.isInteger(v) && v >= 0 && v <= last);
  if (!Array.isArray(E.weapons) || !E.weapons.every(rawOk(nv - 1))) return null;
  if (E.outOfRange !== undefined && !(Array.isArray(E.outOfRange) && E.outOfRange.every(rawOk(nv))))
    return null;
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
  const frames = nativeFrames(prims, E, frameCount, layout, factor, warnings, K.pads);
  if (!frames) return null;
  const { data, drawn, primExtras } = nativeTriangles(prims, E, K.dataTrailing);
  const { clamped } = frames;
  const packedOut = frames.packed;
  const wordsOut = frames.words;
  if (clamped)
    warnings.warn('VALUE_CLAMPED', 'vertex coordinates outside the packed range were clamped', clamped);
  const stride = vertexStride(layout);
  const frameSize = factor ? nv * stride : (E.frameSize ?? nv * stride);
  const extraPer = frameSize - nv * stride;
  const frameExtra = factor ? new Uint8Array(0) : (K.frameExtra ?? new Uint8Array(0));
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
    trailing: K.anivTrailing ?? new Uint8Array(0),
    // A short last frame read padded is written short again (only when the frames are the file's).
    missingBytes:
      !factor && frameCount === (E.numFrames ?? frameCount) && Number.isInteger(E.anivMissing)
        ? E.anivMissing
        : undefined,
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
          primExtras.filter((_, i) => drawn[i] > 0).map((ex) => ex.textureNum ?? 0),
        ),
    ),
    directives: [],
  };
  const slotMaterials = new Map<number, Material | null>();
  prims.forEach((p, i) => {
    if (!drawn[i]) return;
    const num = primExtras[i].textureNum ?? 0;
    if (!slotMaterials.has(num) || (!slotMaterials.get(num)?.getBaseColorTexture() && p.getMaterial()))
      slotMaterials.set(num, p.getMaterial());
  });
  // Skins a class file other than the mesh's .uc set (or another package holds): the .uc is
  // written fresh and imports each under its own name and file (issue 28).
  const elsewhere = elsewhereSkins(slotMaterials);
  let ucText: string | undefined;
  const fileBase = (E as UnrealMeshExtras & { fileBase?: string }).fileBase;
  if (E.uc?.text !== undefined && fileBase?.toLowerCase() === name.toLowerCase() && !elsewhere.size) {
    const orig = ucMesh(parseUc(E.uc.text), E.meshName);
    const origSeq = orig.sequences.length ? orig : { ...orig, sequences: [] };
    const mine = orig.sequences.length
      ? ucm
      : { ...ucm, sequences: ucm.sequences.filter((s) => !(s.name === 'All' && sequences.length === 1)) };
    if (ucMeshSignature(origSeq) === ucMeshSignature(mine)) ucText = E.uc.text;
  }
  if (ucText === undefined) {
    if (elsewhere.size)
      ucm.textures = safeUcTextures([
        ...ucm.textures.filter((t) => !elsewhere.has(t.num)),
        ...[...elsewhere].map(([num, t]) => ({ num, ...t })),
      ]).sort((a, b) => a.num - b.num);
    const extra = (E.uc?.directives ?? []).filter((line) => {
      const d = parseUc(line).directives[0];
      return d && !UC_KNOWN_KEYS.includes(`${d.command} ${d.action}`);
    });
    ucText = writeUc(ucm, { fileBase: name, extraDirectives: extra });
  }
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

/**
 * The slots whose skin came from outside the mesh's own `.uc` (`extras.unreal3d.skin.elsewhere`:
 * a class file's `Skin=`/`MultiSkins`, another package's texture) and still has its image: the
 * texture name and the base name of the file it was read from (the kept original's path).
 */
function elsewhereSkins(slots: Map<number, Material | null>): Map<number, { name: string; file: string }> {
  const out = new Map<number, { name: string; file: string }>();
  for (const [num, m] of slots) {
    const tex = m?.getBaseColorTexture();
    const skin = (m?.getExtras() as { unreal3d?: { skin?: SkinExtras } } | undefined)?.unreal3d?.skin;
    if (!tex || !skin?.elsewhere || skin.missing || typeof skin.texture !== 'string') continue;
    const path = textureSourcePath(tex) ?? skin.file;
    if (typeof path !== 'string') continue;
    out.set(num, { name: skin.texture, file: baseName(path) });
  }
  return out;
}
