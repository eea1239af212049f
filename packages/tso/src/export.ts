import {
  type ExportOptions,
  ExportError,
  type FileSet,
  type Warning,
  WarningCollector,
  accessorFloats,
  readInfluences,
  readSampler,
  sampleAt,
  assertNodeTrees,
} from '@gltf-legacy/core';
import { decodeQ15, encodeQ15 } from '@gltf-legacy/quantize';
import type { Animation, Document, Mesh, Node, Primitive, Skin } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import { type TsoAnimation, type TsoMotion, writeAnimation } from './anim.js';
import { BLEND_ATTRIBUTES, RAW_POSITION_ATTRIBUTE } from './import.js';
import { type TsoBinding, type TsoMesh, writeMesh } from './mesh.js';
import type { PropertyList } from './props.js';
import { ROOT_PARENT, type TsoBone, type TsoSkeleton, writeSkeleton } from './skel.js';
import {
  bitsToFloats,
  convertRotations,
  convertVectors,
  inv,
  isIdentity,
  jsonFloat,
  mat,
  mul,
  positiveZeros,
  transformDir,
  transformPoint,
  trMatrix,
} from './space.js';

/** Options of {@link exportTso}. */
export interface TsoExportOptions extends ExportOptions {
  /** Base name of the written files (`NAME.mesh`, `NAME.skel`, `NAME-anim.anim`). */
  name?: string;
  /** Frame rate of resampled animations (FreeSO's tools use 36). */
  fps?: number;
  /**
   * Write a `.skel`: `auto` writes one unless the document came from a TSO mesh imported without
   * a skeleton (whose bone nodes are placeholders at the origin).
   */
  skeleton?: 'auto' | 'always' | 'never';
  /** Length of the normals written for foreign glTF (FreeSO-made files use 3). */
  normalScale?: number;
  /**
   * Write the `.mesh` of these mesh nodes only (the outfit exporter writes one `.mesh` per part);
   * bones still come from every mesh node. Default: all mesh nodes into one `.mesh`.
   */
  meshNodes?: Node[];
  /** Write the animations (default true). */
  animations?: boolean;
  /** Textures are written by the caller (outfit export): no `TEXTURE_DROPPED`. */
  texturesWritten?: boolean;
}

export const TSO_EXPORT_DEFAULTS: {
  name: string;
  fps: number;
  skeleton: 'auto' | 'always' | 'never';
  normalScale: number;
} = {
  name: 'model',
  fps: 36,
  skeleton: 'auto',
  normalScale: 1,
};

/** Longest animation export writes, in frames (about 7.7 hours at 36 fps). */
export const MAX_FRAMES = 1_000_000;

interface BoneInfo {
  node: Node;
  name: string;
  parent: number;
  /** Local translation / rotation in glTF space. */
  t: number[];
  r: number[];
  /** TSO rest world matrix (T·R chain, no scale). */
  world: Float64Array;
  /** True when the local TR was decomposed (indirect parent or scale), so animations are approximate. */
  baked: boolean;
}

interface MeshExtras {
  version: number;
  vertexCount2: number;
  boneNames: string[];
  bindings: number[][];
  /** Raw blend records: JSON arrays, or (`attributes: true`) the `_TSO_BLEND*` vertex attributes. */
  blend:
    | { attributes?: undefined; data: number[]; vertices: number[]; realPositions: number[] }
    | { attributes: true; count: number };
  /** Real positions the bone-space → glTF → bone-space trip does not give back: [vertex, x, y, z bits]… */
  rawPositions?: number[];
  /** Every raw real position is in the `_TSO_RAW_POSITION` attribute instead. */
  rawPositionAttribute?: boolean;
  trailing: number[];
}

const num = (v: unknown, d = 0) => jsonFloat(v, d);

function nodeWorld(node: Node): Float64Array {
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.getParentNode()) chain.unshift(n);
  let w = mat();
  for (const n of chain) {
    const m = mat();
    mat4.fromRotationTranslationScale(m, n.getRotation(), n.getTranslation(), n.getScale());
    w = mul(w, m);
  }
  return w;
}

/** A group node our importer made (identity transform) to give several roots a common parent. */
function isTsoGroup(n: Node): boolean {
  const x = n.getExtras()?.tso as { group?: boolean } | undefined;
  if (x?.group !== true || n.getParentNode()) return false;
  const t = n.getTranslation();
  const r = n.getRotation();
  const sc = n.getScale();
  return t.every((v) => v === 0) && r[3] === 1 && sc.every((v) => v === 1);
}

/** A bone name TSO can store: latin1 (others → `_`), ≤ 255 bytes, unique case-insensitively, not `NULL`. */
function uniqueName(base: string, used: Set<string>, fallback: string): string {
  const clean = (base || fallback).replace(/[^\u0000-\u00ff]/g, '_');
  let name = clean.slice(0, 255);
  let k = 2;
  while (used.has(name.toLowerCase()) || name === ROOT_PARENT) name = `${clean.slice(0, 250)}_${k++}`;
  used.add(name.toLowerCase());
  return name;
}

/**
 * Whole vertices of a primitive: a (corrupt) POSITION accessor whose data is not a whole number
 * of VEC3 reports a fractional count; the partial vertex does not exist.
 */
function vertexCount(prim: Primitive): number {
  return Math.floor(prim.getAttribute('POSITION')?.getCount() ?? 0);
}

/** A primitive the mesh can hold: triangles (list, strip or fan) with at least one vertex. */
function storable(prim: Primitive): boolean {
  const mode = prim.getMode();
  return mode >= 4 && mode <= 6 && vertexCount(prim) > 0;
}

/** Whether `readInfluences` finds a JOINTS_0/WEIGHTS_0 pair (else the primitive is rigid). */
function hasInfluences(prim: Primitive): boolean {
  return !!prim.getAttribute('JOINTS_0') && !!prim.getAttribute('WEIGHTS_0');
}

function triangles(prim: Primitive): Uint32Array | null {
  const mode = prim.getMode();
  const count = vertexCount(prim);
  const idxAcc = prim.getIndices();
  let idx: Uint32Array;
  if (idxAcc) idx = new Uint32Array(idxAcc.getArray() ?? []);
  else {
    idx = new Uint32Array(count);
    for (let i = 0; i < count; i++) idx[i] = i;
  }
  if (mode === 4) return idx.subarray(0, idx.length - (idx.length % 3));
  if (mode === 5 || mode === 6) {
    const out: number[] = [];
    for (let i = 2; i < idx.length; i++) {
      if (mode === 5) {
        if (i % 2 === 0) out.push(idx[i - 2], idx[i - 1], idx[i]);
        else out.push(idx[i - 1], idx[i - 2], idx[i]);
      } else out.push(idx[0], idx[i - 1], idx[i]);
    }
    return Uint32Array.from(out);
  }
  return null; // points and lines: PRIMITIVE_DROPPED is warned once per primitive in exportTso
}

/**
 * Converts a glTF Document to TSO files: one `.mesh` with every triangle primitive (each vertex
 * a real vertex of its strongest joint, a second joint a blend vertex), a `.skel` from the
 * joints, and one `.anim` per animation.
 *
 * ```ts
 * const { files, warnings } = exportTso(doc, { name: 'axe' }); // axe.mesh, axe.skel, …
 * ```
 */
export function exportTso(
  doc: Document,
  options: TsoExportOptions = {},
): { files: FileSet; warnings: Warning[] } {
  assertNodeTrees(doc);
  const o = { ...TSO_EXPORT_DEFAULTS, ...(options as Partial<typeof TSO_EXPORT_DEFAULTS>) };
  const warnings = new WarningCollector();
  const root = doc.getRoot();
  const files: FileSet = new Map();

  for (const n of root.listNodes())
    for (const p of n.getMesh()?.listPrimitives() ?? [])
      if (p.getMode() < 4)
        warnings.warn('PRIMITIVE_DROPPED', 'points and lines cannot be stored in a TSO mesh; dropped');

  // ---- which nodes become bones
  // Only nodes with a primitive TSO can store (triangles with vertices) carry mesh data.
  const meshNodes = root.listNodes().filter((n) => n.getMesh()?.listPrimitives().some(storable));
  const boneNodes: Node[] = [];
  const boneIndex = new Map<Node, number>();
  const addBone = (n: Node) => {
    if (!boneIndex.has(n)) {
      boneIndex.set(n, boneNodes.length);
      boneNodes.push(n);
    }
  };
  for (const n of meshNodes) {
    const skin = n.getSkin();
    if (skin) for (const j of skin.listJoints()) addBone(j);
    // A primitive without JOINTS_0/WEIGHTS_0 (even on a skinned node) is rigid on its node.
    if (
      !skin ||
      n
        .getMesh()!
        .listPrimitives()
        .some((p) => storable(p) && !hasInfluences(p))
    )
      addBone(n);
  }
  // Bones of an imported TSO skeleton (even when no mesh uses them, e.g. a .skel converted alone).
  for (const n of root.listNodes()) {
    const x = n.getExtras()?.tso as { canTranslate?: unknown } | undefined;
    if (x && x.canTranslate !== undefined) addBone(n);
  }
  for (const a of root.listAnimations())
    for (const c of a.listChannels()) {
      const t = c.getTargetNode();
      if (t && (c.getTargetPath() === 'translation' || c.getTargetPath() === 'rotation')) addBone(t);
    }
  if (!boneNodes.length)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no mesh, skin or animated node to write as TSO files',
    );

  // ---- bone hierarchy and rest frames
  const used = new Set<string>();
  const bones: BoneInfo[] = boneNodes.map((node, i) => ({
    node,
    name: uniqueName(node.getName(), used, `bone${i}`),
    parent: -1,
    t: [0, 0, 0],
    r: [0, 0, 0, 1],
    world: mat(),
    baked: false,
  }));
  for (const b of bones) {
    for (let p = b.node.getParentNode(); p; p = p.getParentNode()) {
      const k = boneIndex.get(p);
      if (k !== undefined) {
        b.parent = k;
        break;
      }
    }
  }
  // Parents before children.
  const order: number[] = [];
  const placed = new Uint8Array(bones.length);
  const place = (i: number) => {
    if (placed[i]) return;
    placed[i] = 1;
    if (bones[i].parent >= 0) place(bones[i].parent);
    order.push(i);
  };
  for (let i = 0; i < bones.length; i++) place(i);
  let scaled = 0;
  for (const i of order) {
    const b = bones[i];
    const s = b.node.getScale();
    const unit = Math.abs(s[0] - 1) < 1e-6 && Math.abs(s[1] - 1) < 1e-6 && Math.abs(s[2] - 1) < 1e-6;
    const parentNode = b.node.getParentNode();
    const direct =
      b.parent >= 0 ? parentNode === bones[b.parent].node : !parentNode || isTsoGroup(parentNode);
    const parentWorld = b.parent >= 0 ? bones[b.parent].world : mat();
    if (direct && unit) {
      b.t = [...b.node.getTranslation()];
      b.r = [...b.node.getRotation()];
    } else {
      b.baked = true;
      const rel = mul(inv(parentWorld), nodeWorld(b.node));
      const t = vec3.create();
      const r = quat.create();
      const sc = vec3.create();
      mat4.getTranslation(t, rel);
      mat4.getScaling(sc, rel);
      mat4.getRotation(r, rel);
      quat.normalize(r, r);
      b.t = [t[0], t[1], t[2]];
      b.r = [r[0], r[1], r[2], r[3]];
      if (Math.abs(sc[0] - 1) > 1e-4 || Math.abs(sc[1] - 1) > 1e-4 || Math.abs(sc[2] - 1) > 1e-4) scaled++;
    }
    b.world = mul(parentWorld, trMatrix(b.t, b.r));
  }
  warnings.warn(
    'BONE_SCALE_DROPPED',
    'TSO bones have no scale: scaled nodes became unscaled bones (geometry is baked at rest)',
    scaled,
  );
  const boneInv = bones.map((b) => inv(b.world));

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
    const info =
      skins.map((s) => tsoOf(s)?.skeleton).find((x) => x) ??
      bones.map((b) => tsoOf(b.node)?.skeleton).find((x) => x);
    files.set(`${o.name}.skel`, writeSkeleton(exportSkeleton(bones, order, info, o.name, warnings)));
  }

  // ---- animations
  const animNames = new Set<string>();
  for (const a of options.animations === false ? [] : root.listAnimations()) {
    const { anim, file } = exportAnimation(a, bones, boneIndex, o, warnings);
    if (!anim.motions.length) {
      warnings.warn(
        'ANIMATION_DROPPED',
        `animation "${a.getName()}" moves no bone (only scale or morph weights); not written`,
      );
      continue;
    }
    const base = file ?? `${o.name}-${(anim.name || 'anim').replace(/[^A-Za-z0-9_.-]+/g, '_')}`;
    let name = `${base}.anim`;
    for (let k = 2; animNames.has(name.toLowerCase()); k++) name = `${base}_${k}.anim`;
    animNames.add(name.toLowerCase());
    files.set(name, writeAnimation(anim));
  }
  for (const n of root.listNodes())
    if (n.getCamera()) warnings.warn('CAMERA_DROPPED', 'TSO files hold no cameras; dropped');
  if (root.listTextures().length && !options.texturesWritten)
    warnings.warn(
      'TEXTURE_DROPPED',
      'TSO meshes reference textures through .bnd/.apr files; textures not written',
    );
  return { files, warnings: warnings.list() };
}

/** Every exported vertex, struct-of-arrays (glTF space, already in bone space). */
interface Verts {
  count: number;
  bone: Int32Array;
  /** Positions are rounded to float32 once, as the mesh stores them (normals are normalized in f64 first). */
  p: Float32Array;
  n: Float64Array;
  uv: Float32Array;
  /** Bone of the blend vertex, -1 when the vertex has a single influence. */
  blendBone: Int32Array;
  blendWeight: Uint32Array;
  bp: Float32Array;
  bn: Float64Array;
}

const KEPT = new Set([
  'POSITION',
  'NORMAL',
  'TEXCOORD_0',
  'JOINTS_0',
  'WEIGHTS_0',
  'JOINTS_1',
  'WEIGHTS_1',
  '_TSO_NORMAL',
  ...Object.values(BLEND_ATTRIBUTES),
  RAW_POSITION_ATTRIBUTE,
]);

function exportMesh(
  prims: { node: Node; mesh: Mesh; prim: Primitive }[],
  bones: BoneInfo[],
  boneIndex: Map<Node, number>,
  boneInv: Float64Array[],
  o: typeof TSO_EXPORT_DEFAULTS,
  warnings: WarningCollector,
): TsoMesh {
  // Pass 1: which primitives, how many vertices and triangles.
  const parts: { node: Node; prim: Primitive; tri: Uint32Array; count: number }[] = [];
  let total = 0;
  let triTotal = 0;
  for (const { node, prim } of prims) {
    const tri = triangles(prim);
    const posAcc = prim.getAttribute('POSITION');
    if (!tri || !posAcc || !storable(prim)) continue;
    for (const sem of prim.listSemantics()) {
      if (!KEPT.has(sem))
        warnings.warn(
          'ATTRIBUTE_DROPPED',
          `TSO meshes hold positions, normals and one UV set; ${sem} dropped`,
        );
    }
    if (prim.listTargets().length)
      warnings.warn('ATTRIBUTE_DROPPED', 'TSO meshes have no morph targets; dropped');
    const count = vertexCount(prim);
    for (let i = 0; i < tri.length; i++)
      if (!(tri[i] < count))
        throw new ExportError(
          'INDEX_OUT_OF_RANGE',
          `primitive of mesh "${
            prim
              .listParents()
              .find((x) => x.propertyType === 'Mesh')
              ?.getName() ?? ''
          }": index ${tri[i]} is not below its ${count} vertices (invalid glTF)`,
        );
    parts.push({ node, prim, tri, count });
    total += count;
    triTotal += tri.length;
  }
  const vs: Verts = {
    count: total,
    bone: new Int32Array(total),
    p: new Float32Array(total * 3),
    n: new Float64Array(total * 3),
    uv: new Float32Array(total * 2),
    blendBone: new Int32Array(total).fill(-1),
    blendWeight: new Uint32Array(total),
    bp: new Float32Array(total * 3),
    bn: new Float64Array(total * 3),
  };
  const tris = new Uint32Array(triTotal);
  let quantized = 0;
  let rawNormals: Float32Array | undefined;
  let base = 0;
  let triAt = 0;
  // Pass 2: move every vertex into the space of its strongest joint (and the second one).
  for (const { node, prim, tri, count } of parts) {
    const P = accessorFloats(prim.getAttribute('POSITION')!);
    const nAcc = prim.getAttribute('NORMAL');
    const N = nAcc ? accessorFloats(nAcc) : faceNormals(P, tri, count);
    const uvAcc = prim.getAttribute('TEXCOORD_0');
    if (uvAcc) vs.uv.set(accessorFloats(uvAcc).subarray(0, count * 2), base * 2);
    if (prims.length === 1 && prim.getAttribute('_TSO_NORMAL'))
      rawNormals = accessorFloats(prim.getAttribute('_TSO_NORMAL')!);
    // Per-joint matrix from glTF mesh space to TSO bone space: B⁻¹ · W_joint · IBM.
    const skin = node.getSkin();
    const inf = skin ? twoInfluences(prim) : null;
    let jointMats: Float64Array[];
    let jointBones: number[];
    if (skin && inf) {
      const joints = skin.listJoints();
      const ibmAcc = skin.getInverseBindMatrices();
      const ibm = ibmAcc ? accessorFloats(ibmAcc) : new Float32Array(0);
      jointBones = joints.map((j) => boneIndex.get(j)!);
      jointMats = joints.map((j, k) => {
        const b = boneIndex.get(j)!;
        const m = ibm.length >= (k + 1) * 16 ? Float64Array.from(ibm.subarray(k * 16, k * 16 + 16)) : mat();
        const w = nodeWorld(j);
        // Bound at rest (IBM = float32 of the joint's inverse world, as our import writes it):
        // use the exact inverse, so import → export does not pick up the float32 error of the IBM.
        const restInv = inv(w);
        if (restInv.every((x, i) => Math.fround(x) === m[i]))
          return sameMatrix(w, bones[b].world) ? boneInv[b] : mul(boneInv[b], mul(w, restInv));
        return mul(boneInv[b], mul(w, m));
      });
      warnings.warn(
        'WEIGHTS_TRUNCATED',
        'TSO vertices have at most 2 influences (a real and a blend vertex); the smallest dropped',
        inf.truncated,
      );
    } else {
      const b = boneIndex.get(node)!;
      jointBones = [b];
      jointMats = [mul(boneInv[b], nodeWorld(node))];
    }
    const ident = jointMats.map((m) => isIdentity(m));
    // Normals go through the inverse transpose (differs from the matrix only under scale).
    const normalMats = jointMats.map((m) => {
      const it = inv(m);
      mat4.transpose(it, it);
      return it;
    });
    quantized += moveVertices(
      vs,
      base,
      count,
      P,
      N,
      inf,
      jointMats,
      jointBones,
      ident,
      normalMats,
      o.normalScale,
    );
    for (let i = 0; i < tri.length; i++) tris[triAt++] = tri[i] + base;
    base += count;
  }
  warnings.warn(
    'VALUE_QUANTIZED',
    'blend weights are stored as Q1.15 fixed point (error ≤ 1/65536)',
    quantized,
  );

  const extras = prims.length === 1 ? (prims[0].mesh.getExtras()?.tso as MeshExtras | undefined) : undefined;
  const fromExtras = extras && restoreFromExtras(extras, prims[0].prim, vs, bones, rawNormals);
  if (extras && !fromExtras)
    warnings.warn(
      'EXTRAS_STALE',
      'extras.tso of the mesh no longer match its vertices; wrote the mesh from the glTF data',
    );
  let out: TsoMesh;
  if (fromExtras) {
    fromExtras.indices = tris;
    flip(fromExtras);
    out = fromExtras;
  } else out = assemble(vs, tris, bones);
  // Our import rejects non-finite vertices (NaN bits cannot survive the mirror, and an infinite
  // coordinate turns into NaN through a rotated bone): refuse them here, so whatever export
  // writes imports again. They come from NaN/±∞ in the glTF (invalid) or from positions beyond
  // the float32 range once moved into bone space.
  for (const a of [out.realVertices, out.blendVertices])
    for (let i = 0; i < a.length; i++)
      if (a[i] - a[i] !== 0)
        throw new ExportError(
          'NAN_VERTEX',
          `vertex ${Math.floor(i / 6)}: a position or normal is ${a[i]} in bone space (NaN or ±∞ in the glTF, or beyond float32 range); TSO meshes cannot hold it`,
        );
  return out;
}

/**
 * The two strongest influences of every vertex, renormalized: core's `readInfluences(prim, 2)`
 * (typed arrays, no per-vertex allocation), kept as a name for the export path and its tests.
 */
export function twoInfluences(
  prim: Primitive,
): { joints: Uint16Array; weights: Float32Array; truncated: number } | null {
  const inf = readInfluences(prim, 2);
  return inf && { joints: inf.joints, weights: inf.weights, truncated: inf.truncated };
}

/**
 * Pass 2 of {@link exportMesh} for one primitive (its own function so V8 optimizes the loop):
 * every vertex into the space of its strongest joint, the second one as a blend vertex. Returns
 * how many blend weights Q1.15 could not hold exactly.
 */
function moveVertices(
  vs: Verts,
  base: number,
  count: number,
  P: Float32Array,
  N: Float32Array,
  inf: { joints: Uint16Array; weights: Float32Array } | null,
  jointMats: Float64Array[],
  jointBones: number[],
  ident: boolean[],
  normalMats: Float64Array[],
  normalScale: number,
): number {
  const I = mat();
  let quantized = 0;
  for (let v = 0; v < count; v++) {
    const at = base + v;
    const j0 = inf ? inf.joints[v * 2] : 0;
    const m = jointMats[j0] ?? I;
    vs.bone[at] = jointBones[j0] ?? 0;
    movePoint(m, ident[j0] ?? true, P, v * 3, vs.p, at * 3);
    dirInto(normalMats[j0] ?? I, ident[j0] ?? true, N, v * 3, vs.n, at * 3, normalScale);
    if (inf && inf.weights[v * 2 + 1] > 0) {
      const j1 = inf.joints[v * 2 + 1];
      const w = inf.weights[v * 2 + 1];
      const q = encodeQ15(w, 0, 0x8000);
      if (Math.abs(decodeQ15(q) - w) > 1e-7) quantized++;
      if (q > 0) {
        const m1 = jointMats[j1] ?? I;
        vs.blendBone[at] = jointBones[j1] ?? 0;
        vs.blendWeight[at] = q;
        movePoint(m1, ident[j1] ?? true, P, v * 3, vs.bp, at * 3);
        dirInto(normalMats[j1] ?? I, ident[j1] ?? true, N, v * 3, vs.bn, at * 3, normalScale);
      }
    }
  }
  return quantized;
}

function sameMatrix(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < 16; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Point through `m`; an identity matrix copies exactly (keeps −0, which arithmetic would not). */
function movePoint(
  m: Float64Array,
  identity: boolean,
  P: ArrayLike<number>,
  at: number,
  out: Float32Array,
  oat: number,
): void {
  if (identity) {
    out[oat] = P[at];
    out[oat + 1] = P[at + 1];
    out[oat + 2] = P[at + 2];
  } else transformPoint(m, P, at, out, oat);
}

function dirInto(
  m: Float64Array,
  identity: boolean,
  N: ArrayLike<number>,
  at: number,
  out: Float64Array,
  oat: number,
  scale: number,
): void {
  if (identity && scale === 1) {
    out[oat] = N[at];
    out[oat + 1] = N[at + 1];
    out[oat + 2] = N[at + 2];
    return;
  }
  transformDir(m, N, at, out, oat);
  const x = out[oat];
  const y = out[oat + 1];
  const z = out[oat + 2];
  const len = Math.sqrt(x * x + y * y + z * z);
  if (len > 0) {
    const k = scale / len;
    out[oat] = x * k;
    out[oat + 1] = y * k;
    out[oat + 2] = z * k;
  }
}

function faceNormals(P: Float32Array, tri: Uint32Array, count: number): Float32Array {
  const N = new Float32Array(count * 3);
  for (let i = 0; i + 2 < tri.length; i += 3) {
    const [a, b, c] = [tri[i], tri[i + 1], tri[i + 2]];
    const ux = P[b * 3] - P[a * 3];
    const uy = P[b * 3 + 1] - P[a * 3 + 1];
    const uz = P[b * 3 + 2] - P[a * 3 + 2];
    const vx = P[c * 3] - P[a * 3];
    const vy = P[c * 3 + 1] - P[a * 3 + 1];
    const vz = P[c * 3 + 2] - P[a * 3 + 2];
    const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
    for (const k of [a, b, c]) for (let d = 0; d < 3; d++) N[k * 3 + d] += n[d];
  }
  for (let v = 0; v < count; v++) {
    const l = Math.hypot(N[v * 3], N[v * 3 + 1], N[v * 3 + 2]);
    if (l > 0) for (let d = 0; d < 3; d++) N[v * 3 + d] /= l;
    else N[v * 3 + 1] = 1;
  }
  return N;
}

/** glTF space → TSO space for the whole mesh: mirror X, reverse winding. */
function flip(mesh: TsoMesh): void {
  convertVectors(mesh.realVertices, 3);
  convertVectors(mesh.blendVertices, 3);
  const ix = mesh.indices;
  for (let i = 0; i + 2 < ix.length; i += 3) {
    const t = ix[i + 1];
    ix[i + 1] = ix[i + 2];
    ix[i + 2] = t;
  }
}

interface RawBlend {
  blendData: Uint32Array;
  blendVertices: Float32Array;
  realPositions: Float32Array;
}

/** Blend records kept as JSON arrays (float32 bit patterns) in extras. */
function blendFromJson(b: { data?: unknown; vertices?: unknown; realPositions?: unknown }): RawBlend | null {
  if (!Array.isArray(b.data) || !Array.isArray(b.vertices) || !Array.isArray(b.realPositions)) return null;
  const blendData = Uint32Array.from(b.data);
  const count = blendData.length / 2;
  if (b.vertices.length !== count * 6 || b.realPositions.length !== count * 3) return null;
  return { blendData, blendVertices: bitsToFloats(b.vertices), realPositions: bitsToFloats(b.realPositions) };
}

/**
 * Blend records kept as `_TSO_BLEND*` vertex attributes (import's `blendAttributes`): null when
 * they no longer describe `count` records, each on its own vertex, numbered 1…count.
 */
function blendFromAttributes(prim: Primitive, n: number, count: unknown): RawBlend | null {
  if (typeof count !== 'number' || !Number.isInteger(count) || count <= 0 || count > n) return null;
  const get = (name: string, size: number) => {
    const a = prim.getAttribute(name);
    const arr = a?.getArray();
    return arr instanceof Float32Array && !a!.getNormalized() && arr.length === n * size ? arr : null;
  };
  const record = get(BLEND_ATTRIBUTES.record, 2);
  const position = get(BLEND_ATTRIBUTES.position, 3);
  const normal = get(BLEND_ATTRIBUTES.normal, 3);
  const real = get(BLEND_ATTRIBUTES.realPosition, 3);
  if (!record || !position || !normal || !real) return null;
  const blendData = new Uint32Array(count * 2);
  const blendVertices = new Float32Array(count * 6);
  const realPositions = new Float32Array(count * 3);
  const seen = new Uint8Array(count);
  let found = 0;
  for (let v = 0; v < n; v++) {
    const r = record[v * 2];
    if (r === 0) continue;
    const weight = record[v * 2 + 1];
    const j = r - 1;
    if (!Number.isInteger(j) || j < 0 || j >= count || seen[j] || !Number.isInteger(weight) || weight < 0)
      return null;
    seen[j] = 1;
    found++;
    blendData[j * 2] = weight;
    blendData[j * 2 + 1] = v;
    for (let c = 0; c < 3; c++) {
      blendVertices[j * 6 + c] = position[v * 3 + c];
      blendVertices[j * 6 + 3 + c] = normal[v * 3 + c];
      realPositions[j * 3 + c] = real[v * 3 + c];
    }
  }
  return found === count ? { blendData, blendVertices, realPositions } : null;
}

/** Rebuilds the mesh exactly from extras.tso when they still describe these vertices. */
function restoreFromExtras(
  x: MeshExtras,
  prim: Primitive,
  vs: Verts,
  bones: BoneInfo[],
  rawNormals?: Float32Array,
): TsoMesh | null {
  if (!x || !Array.isArray(x.boneNames) || !Array.isArray(x.bindings) || !x.blend) return null;
  const n = vs.count;
  const blend =
    x.blend.attributes === true ? blendFromAttributes(prim, n, x.blend.count) : blendFromJson(x.blend);
  if (!blend) return null;
  const { blendData, blendVertices, realPositions } = blend;
  const bindings: TsoBinding[] = x.bindings.map((b) => ({
    boneIndex: b[0],
    firstRealVertex: b[1],
    realVertexCount: b[2],
    firstBlendVertex: b[3],
    blendVertexCount: b[4],
  }));
  const blendCount = blendData.length / 2;
  // Every real vertex's bone must still be the bone its binding names.
  const names = x.boneNames.map((s) => String(s).toLowerCase());
  const boneNames = bones.map((b) => b.name.toLowerCase());
  let covered = 0;
  for (const b of bindings) {
    const name = names[b.boneIndex];
    if (name === undefined || b.firstRealVertex + b.realVertexCount > n) return null;
    for (let k = 0; k < b.realVertexCount; k++) {
      if (boneNames[vs.bone[b.firstRealVertex + k]] !== name) return null;
    }
    covered += b.realVertexCount;
  }
  if (covered !== n) return null;
  for (let j = 0; j < blendCount; j++) if (blendData[j * 2 + 1] >= n) return null;
  if (rawNormals && rawNormals.length !== n * 3) rawNormals = undefined;

  const real = new Float32Array(n * 6);
  for (let v = 0; v < n; v++) {
    real[v * 6] = vs.p[v * 3];
    real[v * 6 + 1] = vs.p[v * 3 + 1];
    real[v * 6 + 2] = vs.p[v * 3 + 2];
    if (rawNormals) {
      // Raw normals are in TSO axes; pre-mirror so the final flip restores them.
      real[v * 6 + 3] = -rawNormals[v * 3];
      real[v * 6 + 4] = rawNormals[v * 3 + 1];
      real[v * 6 + 5] = rawNormals[v * 3 + 2];
    } else {
      real[v * 6 + 3] = vs.n[v * 3];
      real[v * 6 + 4] = vs.n[v * 3 + 1];
      real[v * 6 + 5] = vs.n[v * 3 + 2];
    }
  }
  // Raw positions whose float32 trip through the bone's world matrix lost a bit (kept at import).
  const raw = new Float32Array(3);
  const boneDistance = bones.map((b) => Math.hypot(b.world[12], b.world[13], b.world[14]));
  const restore = (v: number) => {
    raw[0] = -raw[0]; // pre-mirror, like the rest of `real`
    // The trip loses ~2⁻²⁴ of the glTF position's magnitude (≤ |raw| + the bone's distance).
    let scale = 1 + (boneDistance[vs.bone[v]] ?? 0);
    for (let c = 0; c < 3; c++) scale = Math.max(scale, Math.abs(raw[c]));
    for (let c = 0; c < 3; c++) if (!(Math.abs(raw[c] - real[v * 6 + c]) <= scale * 1e-5)) return;
    real.set(raw, v * 6);
  };
  if (x.rawPositionAttribute === true) {
    const a = prim.getAttribute(RAW_POSITION_ATTRIBUTE);
    const all = a?.getArray();
    if (!(all instanceof Float32Array) || a!.getNormalized() || all.length !== n * 3) return null;
    for (let v = 0; v < n; v++) {
      raw.set(all.subarray(v * 3, v * 3 + 3));
      restore(v);
    }
  }
  const rawPositions = Array.isArray(x.rawPositions) ? x.rawPositions : [];
  for (let i = 0; i + 3 < rawPositions.length; i += 4) {
    const v = rawPositions[i];
    if (!Number.isInteger(v) || v < 0 || v >= n) continue;
    raw.set(bitsToFloats(rawPositions.slice(i + 1, i + 4)));
    restore(v);
  }
  for (let j = 0; j < blendCount; j++) {
    const t = blendData[j * 2 + 1];
    real[t * 6] = -realPositions[j * 3];
    real[t * 6 + 1] = realPositions[j * 3 + 1];
    real[t * 6 + 2] = realPositions[j * 3 + 2];
    // Blend vertices are stored raw: pre-mirror them too.
    blendVertices[j * 6] = -blendVertices[j * 6];
    blendVertices[j * 6 + 3] = -blendVertices[j * 6 + 3];
  }
  return {
    version: num(x.version, 2),
    boneNames: x.boneNames.map(String),
    indices: new Uint32Array(0),
    bindings,
    uvs: vs.uv.slice(),
    blendData,
    vertexCount2: num(x.vertexCount2, n),
    realVertices: real,
    blendVertices,
    trailing: Uint8Array.from(Array.isArray(x.trailing) ? x.trailing : []),
  };
}

/** Groups vertices by bone into bindings (FreeSO's layout) and writes blend records. */
function assemble(vs: Verts, tris: Uint32Array, bones: BoneInfo[]): TsoMesh {
  const n = vs.count;
  const used = new Uint8Array(bones.length);
  for (let v = 0; v < n; v++) {
    used[vs.bone[v]] = 1;
    if (vs.blendBone[v] >= 0) used[vs.blendBone[v]] = 1;
  }
  const boneList: number[] = [];
  const meshIndex = new Int32Array(bones.length).fill(-1);
  for (let b = 0; b < bones.length; b++) if (used[b]) meshIndex[b] = boneList.push(b) - 1;
  // Counting sort of real vertices and blend vertices by mesh bone (stable).
  const k = boneList.length;
  const realStart = new Uint32Array(k + 1);
  const blendStart = new Uint32Array(k + 1);
  for (let v = 0; v < n; v++) {
    realStart[meshIndex[vs.bone[v]] + 1]++;
    if (vs.blendBone[v] >= 0) blendStart[meshIndex[vs.blendBone[v]] + 1]++;
  }
  for (let i = 0; i < k; i++) {
    realStart[i + 1] += realStart[i];
    blendStart[i + 1] += blendStart[i];
  }
  const blendTotal = blendStart[k];
  const remap = new Uint32Array(n);
  const uvs = new Float32Array(n * 2);
  const real = new Float32Array(n * 6);
  const blendData = new Uint32Array(blendTotal * 2);
  const blendVertices = new Float32Array(blendTotal * 6);
  const realAt = realStart.slice(0, k);
  for (let v = 0; v < n; v++) {
    const at = realAt[meshIndex[vs.bone[v]]]++;
    remap[v] = at;
    uvs[at * 2] = vs.uv[v * 2];
    uvs[at * 2 + 1] = vs.uv[v * 2 + 1];
    for (let c = 0; c < 3; c++) {
      real[at * 6 + c] = vs.p[v * 3 + c];
      real[at * 6 + 3 + c] = vs.n[v * 3 + c];
    }
  }
  const blendAt = blendStart.slice(0, k);
  for (let v = 0; v < n; v++) {
    if (vs.blendBone[v] < 0) continue;
    const j = blendAt[meshIndex[vs.blendBone[v]]]++;
    blendData[j * 2] = vs.blendWeight[v];
    blendData[j * 2 + 1] = remap[v];
    for (let c = 0; c < 3; c++) {
      blendVertices[j * 6 + c] = vs.bp[v * 3 + c];
      blendVertices[j * 6 + 3 + c] = vs.bn[v * 3 + c];
    }
  }
  const bindings: TsoBinding[] = [];
  for (let i = 0; i < k; i++) {
    const blends = blendStart[i + 1] - blendStart[i];
    bindings.push({
      boneIndex: i,
      firstRealVertex: realStart[i],
      realVertexCount: realStart[i + 1] - realStart[i],
      firstBlendVertex: blends ? blendStart[i] : 0xffffffff,
      blendVertexCount: blends,
    });
  }
  const indices = new Uint32Array(tris.length);
  for (let i = 0; i < tris.length; i++) indices[i] = remap[tris[i]];
  const mesh: TsoMesh = {
    version: 2,
    boneNames: boneList.map((b) => bones[b].name),
    indices,
    bindings,
    uvs,
    blendData,
    vertexCount2: n,
    realVertices: real,
    blendVertices,
    trailing: new Uint8Array(0),
  };
  flip(mesh);
  return mesh;
}

function exportSkeleton(
  bones: BoneInfo[],
  order: number[],
  info: any,
  name: string,
  warnings: WarningCollector,
): TsoSkeleton {
  const roots = bones.filter((b) => b.parent < 0);
  const out: TsoBone[] = [];
  let extraRoot: string | undefined;
  // Roots that all sit under one TSO group node (our import of a multi-root skeleton) stay roots.
  const group = roots[0]?.node.getParentNode();
  const grouped = !!group && isTsoGroup(group) && roots.every((r) => r.node.getParentNode() === group);
  if (roots.length > 1 && !grouped) {
    const used = new Set(bones.map((b) => b.name.toLowerCase()));
    extraRoot = uniqueName('ROOT', used, 'ROOT');
    out.push(makeBone(extraRoot, ROOT_PARENT, [0, 0, 0], [0, 0, 0, 1], undefined));
    warnings.warn(
      'SKELETON_ROOT_ADDED',
      `the joints have ${roots.length} roots; added a "${extraRoot}" bone above them`,
    );
  }
  for (const i of order) {
    const b = bones[i];
    const parentName = b.parent >= 0 ? bones[b.parent].name : (extraRoot ?? ROOT_PARENT);
    const x = b.node.getExtras()?.tso as Record<string, any> | undefined;
    out.push(makeBone(b.name, parentName, b.t, b.r, x));
  }
  return {
    version: typeof info?.version === 'number' ? info.version : 1,
    name: typeof info?.name === 'string' ? info.name : name,
    bones: out,
    trailing: Uint8Array.from(Array.isArray(info?.trailing) ? info.trailing : []),
  };
}

function makeBone(
  name: string,
  parentName: string,
  t: number[],
  r: number[],
  x: Record<string, any> | undefined,
): TsoBone {
  const translation = Float32Array.from(t);
  const rotation = Float32Array.from(r);
  convertVectors(translation);
  convertRotations(rotation);
  positiveZeros(translation);
  positiveZeros(rotation);
  // Raw values kept at import (−0, non-unit rotations) win while the node still matches them.
  if (Array.isArray(x?.rawTranslation) && x.rawTranslation.length === 3) {
    const raw = bitsToFloats(x.rawTranslation);
    if (raw.every((v, k) => v === translation[k] || (!Number.isFinite(v) && translation[k] === 0)))
      translation.set(raw);
  }
  if (Array.isArray(x?.rawRotation) && x.rawRotation.length === 4) {
    const raw = bitsToFloats(x.rawRotation);
    // What import made of it: glTF axes, normalized (identity when it had no length).
    const seen = Float32Array.from(raw);
    convertRotations(seen);
    const len = Math.hypot(...seen);
    if (len > 0 && Number.isFinite(len)) for (let k = 0; k < 4; k++) seen[k] /= len;
    else seen.set([0, 0, 0, 1]);
    convertRotations(seen);
    if (seen.every((v, k) => Math.abs(v - rotation[k]) < 1e-6 || Object.is(v, rotation[k])))
      rotation.set(raw);
  }
  const props = (Array.isArray(x?.props) ? x.props : []) as PropertyList;
  const parent =
    typeof x?.parentName === 'string' && x.parentName.toLowerCase() === parentName.toLowerCase()
      ? x.parentName
      : parentName;
  return {
    unknown: num(x?.unknown),
    name,
    parentName: parent,
    hasProps: num(x?.hasProps, props.length ? 1 : 0),
    props,
    translation,
    rotation,
    canTranslate: num(x?.canTranslate, 1),
    canRotate: num(x?.canRotate, 1),
    canBlend: num(x?.canBlend, 1),
    wiggleValue: num(x?.wiggleValue),
    wigglePower: num(x?.wigglePower),
  };
}

function exportAnimation(
  a: Animation,
  bones: BoneInfo[],
  boneIndex: Map<Node, number>,
  o: typeof TSO_EXPORT_DEFAULTS,
  warnings: WarningCollector,
): { anim: TsoAnimation; file?: string } {
  const x = a.getExtras()?.tso as Record<string, any> | undefined;
  const channels = new Map<
    string,
    { values: Float32Array; count: number; sampler: ReturnType<typeof readSampler> }
  >();
  for (const c of a.listChannels()) {
    const node = c.getTargetNode();
    const path = c.getTargetPath();
    const s = c.getSampler();
    if (!node || !s) continue;
    if (path !== 'translation' && path !== 'rotation') {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `TSO animations move and rotate bones only; ${path} channels dropped`,
      );
      continue;
    }
    const b = boneIndex.get(node);
    if (b === undefined) continue;
    const sampler = readSampler(s, path === 'rotation');
    channels.set(`${bones[b].name.toLowerCase()}/${path}`, {
      values: sampler.values,
      count: sampler.times.length,
      sampler,
    });
  }
  if (x && Array.isArray(x.motions)) {
    const exact = restoreAnimation(x, channels);
    if (exact) return { anim: exact, file: typeof x.file === 'string' ? x.file : undefined };
    warnings.warn(
      'EXTRAS_STALE',
      `extras.tso of animation "${a.getName()}" no longer match its channels; resampled`,
    );
  }
  // Generic: resample every bone's channels at o.fps.
  const fps = o.fps;
  let end = 0;
  for (const ch of channels.values()) end = Math.max(end, ch.sampler.times[ch.sampler.times.length - 1] ?? 0);
  const frames = Math.max(1, Math.round(end * fps) + 1);
  if (!Number.isFinite(frames) || frames > MAX_FRAMES) {
    throw new ExportError(
      'ANIMATION_TOO_LONG',
      `animation "${a.getName()}" lasts ${end} s: ${frames} frames at ${fps} fps exceed ${MAX_FRAMES}`,
    );
  }
  const tPool: number[] = [];
  const rPool: number[] = [];
  const motions: TsoMotion[] = [];
  const tmp = [0, 0, 0, 0];
  let resampled = 0;
  let approximated = 0;
  const seconds = frames / fps;
  for (const b of bones) {
    const tc = channels.get(`${b.name.toLowerCase()}/translation`);
    const rc = channels.get(`${b.name.toLowerCase()}/rotation`);
    if (!tc && !rc) continue;
    if (b.baked) approximated++;
    const motion: TsoMotion = {
      unknown: 0,
      boneName: b.name,
      frameCount: frames,
      duration: seconds * 1000,
      hasTranslation: tc ? 1 : 0,
      hasRotation: rc ? 1 : 0,
      firstTranslation: tc ? tPool.length / 3 : -1,
      firstRotation: rc ? rPool.length / 4 : -1,
      hasProps: 0,
      props: [],
      hasTimeProps: 0,
      timeProps: [],
    };
    for (const [ch, pool, size] of [
      [tc, tPool, 3],
      [rc, rPool, 4],
    ] as const) {
      if (!ch) continue;
      const onGrid =
        ch.sampler.interpolation !== 'CUBICSPLINE' &&
        ch.count === frames &&
        Array.from(ch.sampler.times).every((t, k) => Math.abs(t - k / fps) < 1e-5);
      if (!onGrid) resampled++;
      const vals = new Float32Array(frames * size);
      for (let k = 0; k < frames; k++) {
        if (onGrid) for (let c = 0; c < size; c++) tmp[c] = ch.values[k * size + c];
        else sampleAt(ch.sampler, k / fps, tmp);
        for (let c = 0; c < size; c++) vals[k * size + c] = tmp[c];
      }
      if (size === 3) convertVectors(vals);
      else convertRotations(vals);
      for (const v of vals) pool.push(v);
    }
    motions.push(motion);
  }
  warnings.warn(
    'ANIMATION_RESAMPLED',
    `TSO animations hold one key per frame; channels resampled at ${fps} fps`,
    resampled,
  );
  warnings.warn(
    'ANIMATION_APPROXIMATED',
    'a bone was animated through non-bone parents or scale; its keys were written as-is',
    approximated,
  );
  return {
    anim: {
      version: 2,
      name: a.getName() || 'anim',
      duration: seconds * 1000,
      distance: 0,
      isMoving: 0,
      translations: Float32Array.from(tPool),
      rotations: Float32Array.from(rPool),
      motions,
      trailing: new Uint8Array(0),
    },
  };
}

function restoreAnimation(
  x: Record<string, any>,
  channels: Map<string, { values: Float32Array; count: number }>,
): TsoAnimation | null {
  const tCount = num(x.translationCount);
  const rCount = num(x.rotationCount);
  if (!Number.isInteger(tCount) || !Number.isInteger(rCount) || tCount < 0 || rCount < 0) return null;
  if (tCount > MAX_FRAMES * 16 || rCount > MAX_FRAMES * 16 || !Array.isArray(x.motions)) return null;
  const translations = new Float32Array(tCount * 3);
  const rotations = new Float32Array(rCount * 4);
  const motions = x.motions as TsoMotion[];
  for (const m of motions) {
    const f = m.frameCount;
    if (f === 0) continue;
    for (const [flag, first, path, pool, size, total] of [
      [m.hasTranslation, m.firstTranslation, 'translation', translations, 3, tCount],
      [m.hasRotation, m.firstRotation, 'rotation', rotations, 4, rCount],
    ] as const) {
      if (flag !== 1) continue;
      const ch = channels.get(`${String(m.boneName).toLowerCase()}/${path}`);
      if (!ch) {
        // The bone was not loaded at import: its keys are in the raw lists.
        continue;
      }
      if (ch.count !== f || first < 0 || first + f > total) return null;
      const vals = ch.values.slice(0, f * size);
      if (size === 3) convertVectors(vals);
      else convertRotations(vals);
      pool.set(vals, first * size);
    }
  }
  for (const e of (x.rawT ?? []) as number[][])
    if (e[0] < tCount) translations.set(bitsToFloats(e.slice(1, 4)), e[0] * 3);
  for (const e of (x.rawR ?? []) as number[][])
    if (e[0] < rCount) rotations.set(bitsToFloats(e.slice(1, 5)), e[0] * 4);
  return {
    version: num(x.version, 2),
    name: typeof x.name === 'string' ? x.name : '',
    duration: num(x.duration),
    distance: num(x.distance),
    isMoving: num(x.isMoving),
    translations,
    rotations,
    motions: motions.map((m) => ({
      ...m,
      duration: num(m.duration),
      props: m.props ?? [],
      timeProps: m.timeProps ?? [],
    })),
    trailing: Uint8Array.from(x.trailing ?? []),
  };
}
