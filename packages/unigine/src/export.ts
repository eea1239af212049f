import {
  type AnimationLimits,
  type ExportOptions,
  ExportError,
  type FileSet,
  type Warning,
  WarningCollector,
  accessorFloats,
  accumulateFaceNormals,
  convertQuaternions,
  convertScale,
  convertVec3,
  readInfluences,
  readSampler,
  sampleAt,
  type SamplerData,
  assertNodeTrees,
} from '@gltf-legacy/core';
import { encodeRangeU16, encodeWeightU16, decodeRangeU16, decodeSnorm16 } from '@gltf-legacy/quantize';
import type { Animation, Document, Material, Node, Primitive, Skin } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import { prepare } from '@gltf-legacy/prepare';
import { type AnimFile, writeAnim } from './anim.js';
import { GLTF_TO_UNIGINE, UNIGINE_TO_GLTF } from './axes.js';
import { type AnimationBlock, FLAG_POS, FLAG_ROT, FLAG_SCALE } from './block.js';
import { type TextEncoding, TRS_FLOATS, type UnigineBone } from './common.js';
import {
  ATTR_COORD,
  ATTR_TBN,
  ATTR_TRI,
  ATTR_WBONES,
  ATTR_WCOUNT,
  ATTR_WVALUES,
  type AnimFileExtras,
  type UnigineAnimationExtras,
  type UnigineRootExtras,
  type UnigineSurfaceExtras,
} from './extras.js';
import { unpackF32 } from './jsonf32.js';
import { boneWorldMatrices, inverseBindMatrix, quatFromBasis, quatToNormalTangent } from './math.js';
import { composeTRS } from '@gltf-legacy/core';
import {
  CHUNK,
  quantizeInfluences4,
  copyIndices,
  cornerIndices,
  firstVertexOf,
  lastVertexOf,
  maxIndex,
  numberUsed,
  packWeights,
  scatterColors,
  scatterF32,
  scatterI16x4,
  scatterVec3,
} from './kernels.js';
import { UNIGINE_LIMITS } from './limits.js';
import { type MeshFile, type MeshSurface, writeMesh } from './mesh.js';

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

type M4 = Float64Array;
const asMat = (m: M4) => m as unknown as mat4;

const UNUSED = 0xffffffff;
const EMPTY_BOX = [1e9, 1e9, 1e9, -2e9, -2e9, -2e9];

function worldMatrix(node: Node): M4 {
  const m = new Float64Array(16);
  const w = node.getWorldMatrix();
  for (let i = 0; i < 16; i++) m[i] = w[i];
  return m;
}

function isIdentity(m: ArrayLike<number>, eps = 1e-9): boolean {
  for (let i = 0; i < 16; i++) if (Math.abs(m[i] - (i % 5 === 0 ? 1 : 0)) > eps) return false;
  return true;
}

function overrideOf(header: AnimFileExtras | undefined, i: number): number[] | null {
  const o = unpackF32(header?.bindPoseOverrides?.[String(i)], 10);
  return o ? Array.from(o) : null;
}

function sanitize(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '') || 'anim';
}

function unigineExtras(obj: { getExtras(): Record<string, unknown> }): Record<string, unknown> | undefined {
  const u = obj.getExtras()?.unigine;
  return u && typeof u === 'object' ? (u as Record<string, unknown>) : undefined;
}

/** Local TRS (glTF axes) of a node, as plain arrays. */
function nodeTRS(node: Node): { t: number[]; r: number[]; s: number[] } {
  return { t: [...node.getTranslation()], r: [...node.getRotation()], s: [...node.getScale()] };
}

function decompose(m: M4): { t: number[]; r: number[]; s: number[] } {
  const t = vec3.create();
  const s = vec3.create();
  const r = quat.create();
  mat4.getTranslation(t, asMat(m));
  mat4.getScaling(s, asMat(m));
  // Negative determinant: put the mirror into the X scale.
  const det = mat4.determinant(asMat(m));
  if (det < 0) s[0] = -s[0];
  const n = new Float64Array(m);
  for (let c = 0; c < 3; c++)
    for (let k = 0; k < 3; k++) n[c * 4 + k] = s[c] !== 0 ? m[c * 4 + k] / s[c] : c === k ? 1 : 0;
  mat4.getRotation(r, asMat(n));
  quat.normalize(r, r);
  return { t: [t[0], t[1], t[2]], r: [r[0], r[1], r[2], r[3]], s: [s[0], s[1], s[2]] };
}

/**
 * Bind pose of a node in file axes: its TRS, or the exact floats kept in `extras.unigine.bind`
 * by the importer when they still describe the same transform.
 */
function nodeBind(node: Node): number[] {
  const mine = toFileTRS(nodeTRS(node));
  const kept = unpackF32(unigineExtras(node)?.bind, 10);
  if (kept?.every((v, k) => Math.abs(v - mine[k]) <= 1e-4 * Math.max(1, Math.abs(v))))
    return Array.from(kept);
  return mine;
}

/** TRS (glTF axes) → the 10 bind-pose floats in file axes. */
function toFileTRS(trs: { t: number[]; r: number[]; s: number[] }): number[] {
  const t = trs.t.slice();
  const r = trs.r.slice();
  const s = trs.s.slice();
  convertVec3(GLTF_TO_UNIGINE, t);
  convertQuaternions(GLTF_TO_UNIGINE, r);
  convertScale(GLTF_TO_UNIGINE, s);
  return [...t, ...r, ...s];
}

interface Skeleton {
  nodes: Node[];
  index: Map<Node, number>;
  bones: UnigineBone[];
  /** Bind pose per bone, file axes (10 floats each). */
  bind: number[][];
  /** For root bones whose node has a transformed parent: that parent's world matrix (glTF). */
  parentFix: (M4 | null)[];
}

function buildSkeleton(doc: Document, warnings: WarningCollector): Skeleton {
  const nodes: Node[] = [];
  const index = new Map<Node, number>();
  const bindWorld = new Map<Node, M4>();
  // The inverse bind matrix each joint's bind pose came from (float32, as stored).
  const bindIBM = new Map<Node, Float32Array>();
  // Joints whose inverse bind matrix gives no finite float32 transform: their node TRS is used.
  const unusable = new Set<Node>();
  for (const skin of doc.getRoot().listSkins()) {
    const joints = skin.listJoints();
    const ibm = skin.getInverseBindMatrices();
    const ibmData = ibm ? accessorFloats(ibm) : null;
    joints.forEach((j, i) => {
      if (!index.has(j)) {
        index.set(j, nodes.length);
        nodes.push(j);
      }
      if (!bindWorld.has(j)) {
        const w = new Float64Array(16);
        if (ibmData && ibmData.length >= (i + 1) * 16) {
          const raw = ibmData.subarray(i * 16, i * 16 + 16);
          // Kept even when singular: float32 can flush a huge bind pose's matrix to rank < 4,
          // and import still wrote exactly that matrix (exact check below).
          bindIBM.set(j, raw);
          const m = new Float64Array(raw);
          if (!mat4.invert(asMat(w), asMat(m))) w.set(worldMatrix(j));
          else if (!finiteF32(raw) || !finite64(w)) {
            // A matrix holding NaN/±Infinity, or whose inverse does, is no bind transform. (World
            // matrices may exceed float32 range; bind poses decomposed from them are checked below.)
            w.set(worldMatrix(j));
            unusable.add(j);
          }
        } else w.set(worldMatrix(j));
        bindWorld.set(j, w);
      }
    });
  }
  if (nodes.length > 32767)
    throw new ExportError(
      'TOO_MANY_BONES',
      `${nodes.length} joints; UNIGINE bone indices are 16-bit (at most 32767 bones)`,
    );
  const bones: UnigineBone[] = nodes.map((node, i) => {
    let p = node.getParentNode();
    while (p && !index.has(p)) p = p.getParentNode();
    return { name: node.getName() || `bone_${i}`, parent: p ? (index.get(p) as number) : -1 };
  });
  // Joints exactly in the bind pose the importer wrote: their inverse bind matrices, and those of
  // all their ancestor bones, are bit for bit what import computes from the node TRS (same code).
  // Their TRS is the bind pose, however ill-conditioned the chain: deriving it again from the
  // float32 matrices (below) would not give a fixed point.
  const parents = bones.map((b) => b.parent);
  const nodeWorlds = boneWorldMatrices(parents, (i) => nodeTRS(nodes[i]));
  const own = nodes.map((node, i) => {
    const stored = bindIBM.get(node);
    const mine = stored ? inverseBindMatrix(nodeWorlds[i]) : null;
    return !!mine && mine.every((v, k) => v === stored?.[k]);
  });
  const exact = own.map((_, i) => {
    for (let j = i; j >= 0; j = parents[j]) if (!own[j]) return false;
    return true;
  });
  const bind: number[][] = [];
  const parentFix: (M4 | null)[] = [];
  const local = new Float64Array(16);
  const inv = new Float64Array(16);
  let derived = 0;
  for (let bi = 0; bi < nodes.length; bi++) {
    const node = nodes[bi];
    const parent = bones[bi].parent;
    let same = exact[bi];
    // Local bind transform relative to the parent bone.
    const w = bindWorld.get(node) as M4;
    const want = new Float64Array(16);
    if (!same) {
      if (parent >= 0 && mat4.invert(asMat(inv), asMat(bindWorld.get(nodes[parent]) as M4)))
        mat4.multiply(asMat(want), asMat(inv), asMat(w));
      else want.set(w);
      const trs = nodeTRS(node);
      composeTRS(trs.t, trs.r, trs.s, local);
      let scale = 1;
      for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(want[i]));
      same = true;
      for (let i = 0; i < 16; i++) if (Math.abs(local[i] - want[i]) > 1e-4 * scale) same = false;
    }
    const fromIBM = same ? null : toFileTRS(decompose(want));
    if (fromIBM && finiteF32(fromIBM)) {
      derived++;
      bind.push(fromIBM);
    } else {
      if (fromIBM) unusable.add(node);
      bind.push(nodeBind(node));
    }
    // Root bones: animation keys are relative to the node's parent, which UNIGINE does not have.
    const pn = node.getParentNode();
    const pw = parent < 0 && pn ? worldMatrix(pn) : null;
    parentFix.push(pw && !isIdentity(pw) ? pw : null);
  }
  if (derived)
    warnings.warn(
      'BIND_POSE_FROM_IBM',
      'bone bind poses were taken from the inverse bind matrices (the joint nodes were not in bind pose)',
      derived,
    );
  if (unusable.size)
    warnings.warn(
      'BIND_POSE_FROM_NODE',
      `inverse bind matrices of ${[...unusable].map((n) => `"${n.getName()}"`).join(', ')} give no finite float32 bind transform; the joint nodes' TRS was used`,
      unusable.size,
    );
  return { nodes, index, bones, bind, parentFix };
}

/** True when every value is finite once stored as a float32 (no NaN, no ±Infinity, no overflow). */
function finiteF32(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = Math.fround(a[i]);
    if (v - v !== 0) return false;
  }
  return true;
}

function finite64(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] - a[i] !== 0) return false;
  return true;
}

/** Our readers reject non-finite bind poses, so export must never write one. */
function assertFiniteBindPose(bindPose: Float32Array, bones: readonly UnigineBone[], file: string): void {
  for (let i = 0; i < bindPose.length; i++) {
    const v = bindPose[i];
    if (v - v !== 0) {
      const b = bones[Math.floor(i / TRS_FLOATS)];
      throw new ExportError(
        'BAD_BIND_POSE',
        `${file}: bone "${b?.name}" has a bind pose value of ${v} (its node transform is not finite); UNIGINE bind poses must be finite`,
      );
    }
  }
}

function f32Bounds(min: number[], max: number[], center: number[], radius: number): Float32Array {
  return Float32Array.from([...min, ...max, ...center, radius]);
}

/** bbox + bounding sphere (bbox centre, farthest point) of packed positions. */
function computeBounds(p: Float32Array): Float32Array {
  const n = Math.floor(p.length / 3);
  if (p.length / 3 === 0) return new Float32Array(10);
  const box = Float64Array.of(p[0], p[1], p[2], p[0], p[1], p[2]);
  for (let from = 0; from < n; from += CHUNK) boxRange(p, from, Math.min(n, from + CHUNK), box);
  const cx = Math.fround((box[0] + box[3]) / 2);
  const cy = Math.fround((box[1] + box[4]) / 2);
  const cz = Math.fround((box[2] + box[5]) / 2);
  let r2 = 0;
  for (let from = 0; from < n; from += CHUNK)
    r2 = farthestRange(p, from, Math.min(n, from + CHUNK), cx, cy, cz, r2);
  return Float32Array.of(box[0], box[1], box[2], box[3], box[4], box[5], cx, cy, cz, Math.sqrt(r2));
}

/** Grows `box` (min xyz, max xyz) by points `from … to−1`. */
function boxRange(p: Float32Array, from: number, to: number, box: Float64Array): void {
  let x0 = box[0];
  let y0 = box[1];
  let z0 = box[2];
  let x1 = box[3];
  let y1 = box[4];
  let z1 = box[5];
  for (let v = from; v < to; v++) {
    const x = p[v * 3];
    const y = p[v * 3 + 1];
    const z = p[v * 3 + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  box[0] = x0;
  box[1] = y0;
  box[2] = z0;
  box[3] = x1;
  box[4] = y1;
  box[5] = z1;
}

/** Largest squared distance from (cx, cy, cz) over points `from … to−1` and `r2`. */
function farthestRange(
  p: Float32Array,
  from: number,
  to: number,
  cx: number,
  cy: number,
  cz: number,
  r2: number,
): number {
  let m = r2;
  for (let v = from; v < to; v++) {
    const dx = p[v * 3] - cx;
    const dy = p[v * 3 + 1] - cy;
    const dz = p[v * 3 + 2] - cz;
    m = Math.max(m, dx * dx + dy * dy + dz * dz);
  }
  return m;
}

/** Keeps stored bounds when their box still matches the data (they carry the sphere exactly). */
function chooseBounds(computed: Float32Array, stored: unknown): Float32Array {
  const s = unpackF32(stored, 10);
  if (s) {
    let same = true;
    for (let i = 0; i < 6; i++) if (!Object.is(s[i], computed[i])) same = false;
    if (same) return s;
  }
  return computed;
}

/** Mesh bounds: union box; sphere grown to hold every surface sphere. */
function unionBounds(list: Float32Array[]): Float32Array {
  if (!list.length) return f32Bounds([0, 0, 0], [0, 0, 0], [0, 0, 0], 0);
  const min = [list[0][0], list[0][1], list[0][2]];
  const max = [list[0][3], list[0][4], list[0][5]];
  let c = [list[0][6], list[0][7], list[0][8]];
  let r = list[0][9];
  for (const b of list) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], b[k]);
      max[k] = Math.max(max[k], b[3 + k]);
    }
  }
  for (const b of list.slice(1)) {
    const d = Math.hypot(b[6] - c[0], b[7] - c[1], b[8] - c[2]);
    if (d + b[9] <= r) continue;
    if (d + r <= b[9]) {
      c = [b[6], b[7], b[8]];
      r = b[9];
      continue;
    }
    const nr = (d + r + b[9]) / 2;
    const k = d > 0 ? (nr - r) / d : 0;
    c = [c[0] + (b[6] - c[0]) * k, c[1] + (b[7] - c[1]) * k, c[2] + (b[8] - c[2]) * k];
    r = nr;
  }
  return f32Bounds(min, max, c, r);
}

/** Position of the first index ≥ n, −1 when all are in range. */
function firstIndexAtLeast(idx: Uint32Array, n: number): number {
  for (let from = 0; from < idx.length; from += CHUNK) {
    const at = indexAtLeastIn(idx, n, from, Math.min(idx.length, from + CHUNK));
    if (at >= 0) return at;
  }
  return -1;
}

function indexAtLeastIn(idx: Uint32Array, n: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (idx[i] >= n) return i;
  return -1;
}

function badIndex(label: string, value: number, at: number, n: number): ExportError {
  return new ExportError(
    'BAD_INDEX',
    `${label}: index ${value} (indices[${at}]) is outside the primitive's ${n} vertices`,
  );
}

/**
 * The triangle list of a prepared primitive (the shared stage leaves only TRIANGLES), range
 * checked: u32 indices as a view (no copy; buildSurface copies before flipping the winding of a
 * mirrored static mesh), other widths copied, none → sequential.
 */
function primitiveIndices(prim: Primitive, n: number, label: string): Uint32Array {
  const idx = prim.getIndices()?.getArray();
  if (idx instanceof Uint32Array) {
    const bad = firstIndexAtLeast(idx, n);
    if (bad >= 0) throw badIndex(label, idx[bad], bad, n);
    return idx.subarray(0, idx.length - (idx.length % 3));
  }
  let raw: Uint32Array;
  if (idx) raw = new Uint32Array(idx);
  else {
    raw = new Uint32Array(n);
    for (let i = 0; i < n; i++) raw[i] = i;
  }
  // glTF requires every index < the vertex count; the mesh written from one outside would not
  // import back (coordIndices out of range).
  const bad = firstIndexAtLeast(raw, n);
  if (bad >= 0) throw badIndex(label, raw[bad], bad, n);
  return raw.slice(0, raw.length - (raw.length % 3));
}

/** Smooth normals by area-weighted face normals per vertex. */
function generateNormals(pos: Float32Array, idx: Uint32Array): Float32Array {
  const out = new Float32Array(pos.length);
  accumulateFaceNormals(pos, idx, out);
  // Own normalization: a vertex without area gets z = 1 (x and y stay as summed).
  for (let i = 0; i < out.length; i += 3) {
    const l = Math.sqrt(out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2]);
    if (l > 0) {
      out[i] /= l;
      out[i + 1] /= l;
      out[i + 2] /= l;
    } else out[i + 2] = 1;
  }
  return out;
}

/** Component c of one triangle's tangent and bitangent, added to its three vertices. */
function accumulateTangent(
  pos: Float32Array,
  i0: number,
  i1: number,
  i2: number,
  du1: number,
  dv1: number,
  du2: number,
  dv2: number,
  r: number,
  t: Float64Array,
  b: Float64Array,
  c: number,
): void {
  const e1 = pos[i1 * 3 + c] - pos[i0 * 3 + c];
  const e2 = pos[i2 * 3 + c] - pos[i0 * 3 + c];
  const tc = (e1 * dv2 - e2 * dv1) * r;
  const bc = (e2 * du1 - e1 * du2) * r;
  t[i0 * 3 + c] += tc;
  t[i1 * 3 + c] += tc;
  t[i2 * 3 + c] += tc;
  b[i0 * 3 + c] += bc;
  b[i1 * 3 + c] += bc;
  b[i2 * 3 + c] += bc;
}

/** Per-vertex tangents (xyz + handedness) from per-triangle UV derivatives, accumulated. */
function generateTangents(
  pos: Float32Array,
  nrm: Float32Array,
  uv: Float32Array | null,
  idx: Uint32Array,
): Float32Array {
  const n = pos.length / 3;
  const t = new Float64Array(n * 3);
  const b = new Float64Array(n * 3);
  const nt = Math.floor(idx.length / 3);
  if (uv)
    for (let from = 0; from < nt; from += CHUNK)
      accumulateTangents(pos, uv, idx, from, Math.min(nt, from + CHUNK), t, b);
  const out = new Float32Array(n * 4);
  for (let from = 0; from < n; from += CHUNK) finishTangents(nrm, t, b, from, Math.min(n, from + CHUNK), out);
  return out;
}

/** Triangles `from … to−1`: UV-derived tangents and bitangents added to their vertices. */
function accumulateTangents(
  pos: Float32Array,
  uv: Float32Array,
  idx: Uint32Array,
  from: number,
  to: number,
  t: Float64Array,
  b: Float64Array,
): void {
  for (let tri = from; tri < to; tri++) {
    const i = tri * 3;
    const i0 = idx[i];
    const i1 = idx[i + 1];
    const i2 = idx[i + 2];
    const du1 = uv[i1 * 2] - uv[i0 * 2];
    const dv1 = uv[i1 * 2 + 1] - uv[i0 * 2 + 1];
    const du2 = uv[i2 * 2] - uv[i0 * 2];
    const dv2 = uv[i2 * 2 + 1] - uv[i0 * 2 + 1];
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-20) continue;
    const r = 1 / det;
    accumulateTangent(pos, i0, i1, i2, du1, dv1, du2, dv2, r, t, b, 0);
    accumulateTangent(pos, i0, i1, i2, du1, dv1, du2, dv2, r, t, b, 1);
    accumulateTangent(pos, i0, i1, i2, du1, dv1, du2, dv2, r, t, b, 2);
  }
}

/** Vertices `from … to−1`: tangent orthogonalized against the normal, handedness from the bitangent. */
function finishTangents(
  nrm: Float32Array,
  t: Float64Array,
  b: Float64Array,
  from: number,
  to: number,
  out: Float32Array,
): void {
  for (let v = from; v < to; v++) {
    const nx = nrm[v * 3];
    const ny = nrm[v * 3 + 1];
    const nz = nrm[v * 3 + 2];
    let tx = t[v * 3];
    let ty = t[v * 3 + 1];
    let tz = t[v * 3 + 2];
    const d = tx * nx + ty * ny + tz * nz;
    tx -= nx * d;
    ty -= ny * d;
    tz -= nz * d;
    let l = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (l < 1e-12) {
      // Any vector perpendicular to the normal.
      if (Math.abs(nx) < 0.9) {
        tx = 0;
        ty = nz;
        tz = -ny;
      } else {
        tx = -nz;
        ty = 0;
        tz = nx;
      }
      l = Math.sqrt(tx * tx + ty * ty + tz * tz) || 1;
    }
    out[v * 4] = tx / l;
    out[v * 4 + 1] = ty / l;
    out[v * 4 + 2] = tz / l;
    // Handedness: does cross(N, T) point along the UV bitangent?
    const cx = ny * tz - nz * ty;
    const cy = nz * tx - nx * tz;
    const cz = nx * ty - ny * tx;
    out[v * 4 + 3] = cx * b[v * 3] + cy * b[v * 3 + 1] + cz * b[v * 3 + 2] < 0 ? -1 : 1;
  }
}

/** quantize's encodeSnorm16, local so the per-vertex loop inlines it. */
function snorm16(v: number): number {
  if (Number.isNaN(v)) return 0;
  return Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
}

/**
 * Encodes normal + tangent (xyz + handedness w, file axes) as UNIGINE tangent quaternions
 * (i16 x, y, z, w): the rotation taking X to the tangent and Z to the normal, with the sign of w
 * carrying the handedness.
 *
 * ```ts
 * encodeTangentFrames([0, 0, 1], [1, 0, 0, 1], 1); // Int16Array [0, 0, 0, 32767]
 * ```
 */
export function encodeTangentFrames(
  nrm: ArrayLike<number>,
  tan: ArrayLike<number>,
  count: number,
  out = new Int16Array(count * 4),
): Int16Array {
  for (let from = 0; from < count; from += CHUNK)
    encodeTangentRange(nrm, tan, from, Math.min(count, from + CHUNK), out);
  return out;
}

function encodeTangentRange(
  nrm: ArrayLike<number>,
  tan: ArrayLike<number>,
  from: number,
  to: number,
  out: Int16Array,
): void {
  const q = new Float64Array(4);
  for (let v = from; v < to; v++) {
    let nx = nrm[v * 3];
    let ny = nrm[v * 3 + 1];
    let nz = nrm[v * 3 + 2];
    let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 1e-12)) {
      nx = 0;
      ny = 0;
      nz = 1;
      l = 1;
    }
    nx /= l;
    ny /= l;
    nz /= l;
    let tx = tan[v * 4];
    let ty = tan[v * 4 + 1];
    let tz = tan[v * 4 + 2];
    const h = tan[v * 4 + 3] < 0 ? -1 : 1;
    const d = tx * nx + ty * ny + tz * nz;
    tx -= nx * d;
    ty -= ny * d;
    tz -= nz * d;
    l = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (!(l > 1e-9)) {
      if (Math.abs(nx) < 0.9) {
        tx = 0;
        ty = nz;
        tz = -ny;
      } else {
        tx = -nz;
        ty = 0;
        tz = nx;
      }
      l = Math.sqrt(tx * tx + ty * ty + tz * tz);
    }
    tx /= l;
    ty /= l;
    tz /= l;
    const bx = ny * tz - nz * ty;
    const by = nz * tx - nx * tz;
    const bz = nx * ty - ny * tx;
    quatFromBasis(tx, ty, tz, bx, by, bz, nx, ny, nz, q);
    const s = (q[3] < 0 ? -1 : 1) === h ? 1 : -1;
    out[v * 4] = snorm16(q[0] * s);
    out[v * 4 + 1] = snorm16(q[1] * s);
    out[v * 4 + 2] = snorm16(q[2] * s);
    let w = snorm16(q[3] * s);
    if (w === 0) w = h; // keep the handedness bit
    out[v * 4 + 3] = w;
  }
}

function intArray(prim: Primitive, name: string, n: number): ArrayLike<number> | null {
  const a = prim.getAttribute(name);
  if (!a || a.getCount() !== n) return null;
  return a.getArray();
}

/** True when every glTF vertex mapped to one coordinate vertex has the same position and influences. */
function coordsConsistent(
  coord: ArrayLike<number>,
  pos: Float32Array,
  infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null,
  n: number,
): boolean {
  // First vertex of each coordinate vertex: a typed table when the indices are in a sane range.
  let max = 0;
  for (let v = 0; v < n; v++) {
    const c = coord[v];
    if (!Number.isInteger(c) || c < 0) return false;
    if (c > max) max = c;
  }
  const table = max <= 4 * n + 16 ? new Int32Array(max + 1).fill(-1) : null;
  const first = table ? null : new Map<number, number>();
  const bits = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  for (let v = 0; v < n; v++) {
    const c = coord[v];
    const f = table ? table[c] : (first?.get(c) ?? -1);
    if (f < 0) {
      if (table) table[c] = v;
      else first?.set(c, v);
      continue;
    }
    for (let k = 0; k < 3; k++) if (bits[v * 3 + k] !== bits[f * 3 + k]) return false;
    if (infl) {
      if (infl.count[v] !== infl.count[f]) return false;
      for (let k = 0; k < infl.count[v]; k++) {
        if (
          infl.bones[v * 4 + k] !== infl.bones[f * 4 + k] ||
          infl.values[v * 4 + k] !== infl.values[f * 4 + k]
        )
          return false;
      }
    }
  }
  return true;
}

/** True when the normals the raw tangent quaternions encode agree with NORMAL (glTF axes). */
function tbnMatchesNormals(tbn: ArrayLike<number>, nrm: Float32Array, n: number): boolean {
  const dn = new Float32Array(3);
  const dt = new Float32Array(4);
  for (let v = 0; v < n; v++) {
    const x = tbn[v * 4];
    const y = tbn[v * 4 + 1];
    const z = tbn[v * 4 + 2];
    const w = tbn[v * 4 + 3];
    const l = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
    quatToNormalTangent(x / l, y / l, z / l, w / l, dn, 0, dt, 0);
    convertVec3(UNIGINE_TO_GLTF, dn);
    if (
      Math.abs(dn[0] - nrm[v * 3]) > 2e-3 ||
      Math.abs(dn[1] - nrm[v * 3 + 1]) > 2e-3 ||
      Math.abs(dn[2] - nrm[v * 3 + 2]) > 2e-3
    )
      return false;
  }
  return true;
}

/**
 * Welds glTF vertices with bit-identical positions and identical influences (count, bones,
 * codes) into coordinate vertices, numbered in first-use order; vertices with
 * `triOf[v] === UNUSED` get UNUSED. Open-addressing hash table over typed arrays (no per-vertex
 * keys). Returns the number of coordinate vertices.
 */
function weldCoordinates(
  pos: Float32Array,
  infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null,
  triOf: Uint32Array,
  coordOf: Uint32Array,
  n: number,
): number {
  const bits = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  const table = new Int32Array(cap).fill(-1); // representative vertex of each slot
  let numCoord = 0;
  for (let from = 0; from < n; from += CHUNK)
    numCoord = weldRange(bits, infl, triOf, coordOf, table, from, Math.min(n, from + CHUNK), numCoord);
  return numCoord;
}

/** {@link weldCoordinates} for vertices `from … to−1`; returns the coordinate count so far. */
function weldRange(
  bits: Uint32Array,
  infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null,
  triOf: Uint32Array,
  coordOf: Uint32Array,
  table: Int32Array,
  from: number,
  to: number,
  numCoord0: number,
): number {
  const hmask = table.length - 1;
  let numCoord = numCoord0;
  for (let v = from; v < to; v++) {
    if (triOf[v] === UNUSED) {
      coordOf[v] = UNUSED;
      continue;
    }
    let h = Math.imul(bits[v * 3] ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ bits[v * 3 + 1] ^ (h >>> 15), 0xc2b2ae35);
    h = Math.imul(h ^ bits[v * 3 + 2] ^ (h >>> 13), 0x27d4eb2f);
    if (infl) {
      const c = infl.count[v];
      h = Math.imul(h ^ c, 0x165667b1);
      for (let k = 0; k < c; k++)
        h = Math.imul(h ^ ((infl.bones[v * 4 + k] & 0xffff) | (infl.values[v * 4 + k] << 16)), 0x9e3779b1);
    }
    h ^= h >>> 16;
    let slot = h & hmask;
    for (;;) {
      const u = table[slot];
      if (u < 0) {
        table[slot] = v;
        coordOf[v] = numCoord++;
        break;
      }
      let same =
        bits[u * 3] === bits[v * 3] &&
        bits[u * 3 + 1] === bits[v * 3 + 1] &&
        bits[u * 3 + 2] === bits[v * 3 + 2];
      if (same && infl) {
        const c = infl.count[v];
        if (infl.count[u] !== c) same = false;
        for (let k = 0; k < c && same; k++)
          if (
            infl.bones[u * 4 + k] !== infl.bones[v * 4 + k] ||
            infl.values[u * 4 + k] !== infl.values[v * 4 + k]
          )
            same = false;
      }
      if (same) {
        coordOf[v] = coordOf[u];
        break;
      }
      slot = (slot + 1) & hmask;
    }
  }
  return numCoord;
}

interface SurfaceInput {
  prim: Primitive;
  node: Node;
  skin: Skin | null;
  label: string;
  defaultName: string;
}

function buildSurface(input: SurfaceInput, skel: Skeleton, warnings: WarningCollector): MeshSurface | null {
  const { prim, node, skin, label } = input;
  // The shared stage dropped primitives without POSITION and those the format cannot draw.
  const posAcc = prim.getAttribute('POSITION')!;
  if (posAcc.getType() !== 'VEC3') {
    // Invalid glTF (a mutated accessor type): its array is not n × 3 floats.
    warnings.warn('PRIMITIVE_DROPPED', `${label}: POSITION is ${posAcc.getType()}, not VEC3; left out`);
    return null;
  }
  const n = posAcc.getCount();
  let idx = primitiveIndices(prim, n, label);
  const ex = (unigineExtras(prim) ?? {}) as Partial<UnigineSurfaceExtras>;
  // Positions and normals: static meshes are baked into model space.
  // The accessors' own arrays are only read; copies are made where values change.
  const srcPos = accessorFloats(posAcc);
  const pos = new Float32Array(srcPos);
  let moved = false;
  const nrmAcc = prim.getAttribute('NORMAL');
  const tanAcc = prim.getAttribute('TANGENT');
  let nrm: Float32Array | null = nrmAcc ? accessorFloats(nrmAcc) : null;
  let tan: Float32Array | null = tanAcc ? accessorFloats(tanAcc) : null;
  if (nrm && nrm.length !== n * 3) nrm = null;
  if (tan && tan.length !== n * 4) tan = null;
  if (!skin) {
    const w = worldMatrix(node);
    if (!isIdentity(w)) {
      moved = true;
      if (nrm) nrm = new Float32Array(nrm);
      if (tan) tan = new Float32Array(tan);
      const p = vec3.create();
      for (let v = 0; v < n; v++) {
        vec3.set(p, pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]);
        vec3.transformMat4(p, p, asMat(w));
        pos.set(p, v * 3);
      }
      const nm = mat4.create();
      mat4.invert(nm, asMat(w));
      mat4.transpose(nm, nm);
      const tmp = vec3.create();
      const dirs = (a: Float32Array | null, stride: number, m: mat4) => {
        if (!a) return;
        for (let v = 0; v < n; v++) {
          vec3.set(tmp, a[v * stride], a[v * stride + 1], a[v * stride + 2]);
          vec3.transformMat4(tmp, tmp, m);
          vec3.sub(tmp, tmp, vec3.transformMat4(vec3.create(), [0, 0, 0], m));
          vec3.normalize(tmp, tmp);
          a[v * stride] = tmp[0];
          a[v * stride + 1] = tmp[1];
          a[v * stride + 2] = tmp[2];
        }
      };
      dirs(nrm, 3, nm);
      dirs(tan, 4, asMat(w));
      if (mat4.determinant(asMat(w)) < 0) {
        idx = idx.slice();
        for (let i = 0; i + 2 < idx.length; i += 3) {
          const t = idx[i + 1];
          idx[i + 1] = idx[i + 2];
          idx[i + 2] = t;
        }
        if (tan) for (let v = 0; v < n; v++) tan[v * 4 + 3] = -tan[v * 4 + 3];
      }
    }
  }
  convertVec3(GLTF_TO_UNIGINE, pos);
  const uv0Acc = prim.getAttribute('TEXCOORD_0');
  const uv0 = uv0Acc && uv0Acc.getCount() === n ? accessorFloats(uv0Acc) : null;
  const uv1Acc = prim.getAttribute('TEXCOORD_1');
  const uv1 = uv1Acc && uv1Acc.getCount() === n ? accessorFloats(uv1Acc) : null;
  for (const sem of prim.listSemantics()) {
    if (/^(TEXCOORD_[2-9]|COLOR_[1-9]|JOINTS_[1-9]|WEIGHTS_[1-9])/.test(sem)) {
      warnings.warn('ATTRIBUTE_DROPPED', `${label}: ${sem} has no place in a UNIGINE mesh; dropped`);
    }
  }
  // Triangle vertices (attributes) and coordinate vertices (positions + weights).
  const triAttr = intArray(prim, ATTR_TRI, n);
  let numTri = n;
  let triOf: Uint32Array;
  if (triAttr) {
    triOf = new Uint32Array(triAttr);
    const max = maxIndex(triOf, triOf.length);
    numTri = typeof ex.numTriVerts === 'number' && ex.numTriVerts > max ? ex.numTriVerts : max + 1;
  } else {
    // One triangle vertex per glTF vertex the indices use (unused vertices are dropped).
    triOf = new Uint32Array(n);
    numTri = numberUsed(idx, n, triOf, UNUSED);
    warnings.warn('UNUSED_VERTICES_DROPPED', 'vertices no triangle uses were dropped', n - numTri);
  }
  // Influences per glTF vertex, as bone indices + u16 codes.
  let infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null = null;
  if (skin && skel.nodes.length) {
    const rc = intArray(prim, ATTR_WCOUNT, n);
    const rb = intArray(prim, ATTR_WBONES, n);
    const rv = intArray(prim, ATTR_WVALUES, n);
    if (rc && rb && rv && rb.length === n * 4 && rv.length === n * 4) {
      infl = { count: new Uint8Array(rc), bones: new Int16Array(rb), values: new Uint16Array(rv) };
    } else {
      const joints = skin.listJoints();
      const boneOfJoint = Int32Array.from(joints, (j) => skel.index.get(j) ?? -1);
      const ja = prim.getAttribute('JOINTS_0');
      const wa = prim.getAttribute('WEIGHTS_0');
      const jarr = ja?.getArray();
      const warr = wa?.getArray();
      let quantized = -1;
      const count = new Uint8Array(n);
      const bones = new Int16Array(n * 4);
      const values = new Uint16Array(n * 4);
      if (
        ja &&
        wa &&
        !(prim.getAttribute('JOINTS_1') && prim.getAttribute('WEIGHTS_1')) &&
        (jarr instanceof Uint8Array || jarr instanceof Uint16Array) &&
        !ja.getNormalized() &&
        warr instanceof Float32Array &&
        ja.getElementSize() === 4 &&
        wa.getElementSize() === 4 &&
        jarr.length === n * 4 &&
        warr.length === n * 4
      ) {
        // The usual single set of 4: readInfluences + quantization fused (same codes).
        quantized = quantizeInfluences4(jarr, warr, boneOfJoint, n, count, bones, values);
      } else {
        // Any other layout (the stage left at most 4 non-zero influences per vertex).
        const inf = readInfluences(prim, 4);
        if (inf) {
          quantized = 0;
          for (let v = 0; v < n; v++) {
            let k = 0;
            for (let i = 0; i < 4; i++) {
              const w = inf.weights[v * 4 + i];
              const code = encodeWeightU16(w);
              if (code === 0) continue;
              const b = boneOfJoint[inf.joints[v * 4 + i]] ?? -1;
              if (b < 0) continue;
              bones[v * 4 + k] = b;
              values[v * 4 + k] = code;
              k++;
              if (w > 0) quantized++;
            }
            count[v] = k;
          }
        }
      }
      if (quantized >= 0) {
        warnings.warn(
          'VALUE_QUANTIZED',
          `skin weights quantized to u16 (error ≤ ${(1 / 131070).toExponential(2)})`,
          quantized ? 1 : 0,
        );
        infl = { count, bones, values };
      }
    }
  }
  let coordAttr = intArray(prim, ATTR_COORD, n);
  if (coordAttr && !coordsConsistent(coordAttr, pos, infl, n)) {
    // Edited since import: vertices sharing a coordinate vertex no longer agree. Weld afresh.
    warnings.warn(
      'COORDINATES_REBUILT',
      `${label}: ${ATTR_COORD} no longer matches the positions/weights; coordinate vertices were rebuilt`,
    );
    coordAttr = null;
  }
  let numCoord: number;
  const coordOf = new Uint32Array(n);
  if (coordAttr) {
    const max = copyIndices(coordAttr, n, coordOf);
    // The stored count restores coordinate vertices no triangle uses, but only for an unchanged mesh.
    const unchanged = triAttr !== null || n === ex.numTriVerts;
    numCoord =
      unchanged && typeof ex.numCoordVerts === 'number' && ex.numCoordVerts > max
        ? ex.numCoordVerts
        : max + 1;
  } else {
    // De-duplicate positions (with their influences) into coordinate vertices, numbered in
    // first-use order.
    numCoord = weldCoordinates(pos, infl, triOf, coordOf, n);
  }
  const firstOfCoord = new Int32Array(numCoord).fill(-1);
  firstVertexOf(coordOf, n, firstOfCoord, UNUSED);
  const coordPos = scatterVec3(pos, firstOfCoord, new Float32Array(numCoord * 3));
  // Tangent frames per triangle vertex.
  let tangents: Int16Array;
  const tbn = intArray(prim, ATTR_TBN, n);
  const perTriSlots = new Int32Array(numTri).fill(-1);
  lastVertexOf(triOf, n, perTriSlots, UNUSED);
  const useTbn = tbn !== null && tbn.length === n * 4 && (!nrm || tbnMatchesNormals(tbn, nrm, n));
  if (tbn && !useTbn) {
    warnings.warn(
      'TANGENT_FRAMES_REBUILT',
      `${label}: ${ATTR_TBN} no longer matches NORMAL; tangent frames were recomputed`,
    );
  }
  if (tbn && useTbn) {
    tangents = scatterI16x4(tbn, perTriSlots, new Int16Array(numTri * 4));
  } else {
    // glTF-space positions for generation (the frame is converted after).
    // glTF-space positions: the accessor's own unless baked (the axis swap is bit-exact).
    let gpos = srcPos;
    if (moved) {
      gpos = new Float32Array(pos);
      convertVec3(UNIGINE_TO_GLTF, gpos);
    }
    let normals = nrm;
    if (!normals) {
      normals = generateNormals(gpos, idx);
      warnings.warn('NORMALS_GENERATED', 'primitives without normals got smooth generated normals');
    }
    let tangentsIn = tan;
    if (!tangentsIn) {
      tangentsIn = generateTangents(gpos, normals, uv0, idx);
      warnings.warn(
        'TANGENTS_GENERATED',
        'primitives without tangents got tangent frames generated from UV set 0 (or from the normals alone without UVs)',
      );
    }
    const fn = new Float32Array(normals);
    const ft = new Float32Array(tangentsIn);
    convertVec3(GLTF_TO_UNIGINE, fn);
    convertVec3(GLTF_TO_UNIGINE, ft, 4);
    const all = encodeTangentFrames(fn, ft, n);
    tangents = scatterI16x4(all, perTriSlots, new Int16Array(numTri * 4));
  }
  const uvOut0 = uv0 ? scatterF32(uv0, perTriSlots, 2, new Float32Array(numTri * 2)) : new Float32Array(0);
  const uvOut1 = uv1 ? scatterF32(uv1, perTriSlots, 2, new Float32Array(numTri * 2)) : new Float32Array(0);
  let colors: Uint8Array = new Uint8Array(0);
  const colAcc = prim.getAttribute('COLOR_0');
  if (colAcc && colAcc.getCount() === n) {
    colors = scatterColors(
      accessorFloats(colAcc),
      colAcc.getElementSize(),
      perTriSlots,
      new Uint8Array(numTri * 4),
    );
    if (colAcc.getComponentType() !== 5121)
      warnings.warn('VALUE_QUANTIZED', 'vertex colours quantized to 8 bits');
  }
  // Weights per coordinate vertex.
  let weightCounts: Uint8Array = new Uint8Array(0);
  let weightStarts: Uint32Array = new Uint32Array(1);
  let weightBones: Int16Array = new Int16Array(0);
  let weightValues: Uint16Array = new Uint16Array(0);
  if (infl) {
    const w = packWeights(infl.count, infl.bones, infl.values, firstOfCoord);
    weightCounts = w.weightCounts;
    weightStarts = w.weightStarts;
    weightBones = w.weightBones;
    weightValues = w.weightValues;
  }
  // Morph targets.
  const targets: Float32Array[] = [coordPos];
  const names = Array.isArray(ex.targetNames) ? (ex.targetNames as string[]) : [''];
  const meshNames = (
    (prim
      .listParents()
      .find((p) => p.propertyType === 'Mesh')
      ?.getExtras()?.targetNames as string[]) ?? []
  ).slice();
  const gTargets = prim.listTargets();
  const realCount = Array.isArray(ex.targetNames)
    ? Math.min(gTargets.length, names.length - 1)
    : gTargets.length;
  const targetNames = [names[0] ?? ''];
  for (let t = 0; t < realCount; t++) {
    const acc = gTargets[t].getAttribute('POSITION');
    if (!acc || acc.getCount() !== n || acc.getType() !== 'VEC3') {
      warnings.warn(
        'MORPH_TARGET_DROPPED',
        `${label}: morph target ${t} has no POSITION for every vertex; dropped`,
      );
      continue;
    }
    if (gTargets[t].listSemantics().some((s) => s !== 'POSITION'))
      warnings.warn(
        'ATTRIBUTE_DROPPED',
        `${label}: morph target normals/tangents have no place in a UNIGINE mesh; dropped`,
      );
    const d = new Float32Array(accessorFloats(acc));
    convertVec3(GLTF_TO_UNIGINE, d);
    const tp = new Float32Array(numCoord * 3);
    for (let c = 0; c < numCoord; c++) {
      const v = firstOfCoord[c];
      if (v >= 0)
        for (let k = 0; k < 3; k++) {
          const b = coordPos[c * 3 + k];
          const x = d[v * 3 + k];
          // A zero delta on a zero base carries the target's zero sign (see import).
          tp[c * 3 + k] = x === 0 && b === 0 ? x : b + x;
        }
    }
    targets.push(tp);
    targetNames.push(names[t + 1] ?? gTargets[t].getName() ?? meshNames[t] ?? `target_${t}`);
  }
  const coordIndices = new Uint32Array(idx.length);
  const triIndices = new Uint32Array(idx.length);
  cornerIndices(idx, coordOf, triOf, coordIndices, triIndices);
  const name =
    typeof ex.surface === 'string' ? ex.surface : prim.getMaterial()?.getName() || input.defaultName;
  return {
    name,
    bounds: chooseBounds(computeBounds(coordPos), ex.bounds),
    targetNames,
    targets,
    tangents,
    weightCounts,
    weightStarts,
    weightBones,
    weightValues,
    uv0: uvOut0,
    uv1: uvOut1,
    colors,
    coordIndices,
    triIndices,
  };
}

interface Track {
  node: Node;
  t?: SamplerData;
  r?: SamplerData;
  s?: SamplerData;
}

/**
 * Most frame entries (frames × animated bones) one animation block may hold: an10 and the ms11
 * float variant store every frame of every animated bone (1–33 bytes each), so a clip needing
 * more than this (e.g. 300 bones for 15 minutes at 30 fps) would be an absurd file. Export
 * refuses it with `ExportError ANIMATION_TOO_LONG` (lower `fps` or shorten the clip).
 */
export const MAX_BLOCK_ENTRIES = 2 ** 23;

/**
 * Values of a sampler at frames `0 … frames−1` (time `f / fps`) into `out` (`frames × size`).
 * When every key lies on a frame (within float32 rounding of `f / fps`), keys are copied as they
 * are, frames between two equal LINEAR keys (or after a STEP key) repeat the key, and only frames
 * between two different keys are interpolated — one pass over keys and frames. Returns true when
 * the track had to be resampled (keys off the frames, or CUBICSPLINE between keys).
 */
export function sampleFrames(s: SamplerData, frames: number, fps: number, out: Float64Array): boolean {
  const { times, values, size } = s;
  const n = times.length;
  const cubic = s.interpolation === 'CUBICSPLINE';
  const stride = cubic ? size * 3 : size;
  const off = cubic ? size : 0;
  const tmp = new Float64Array(size);
  if (!keysOnFrames(times, fps)) {
    for (let f = 0; f < frames; f++) {
      sampleAt(s, f / fps, tmp);
      for (let c = 0; c < size; c++) out[f * size + c] = tmp[c];
    }
    return true;
  }
  // Frame of each key (the keys sit on increasing frames).
  const keyFrame = new Float64Array(n);
  for (let k = 0; k < n; k++) keyFrame[k] = Math.round(times[k] * fps);
  let resampled = false;
  const copy = (k: number, from: number, to: number) => {
    const a = k * stride + off;
    for (let f = from; f < to; f++) for (let c = 0; c < size; c++) out[f * size + c] = values[a + c];
  };
  // Before the first key and from the last key on: clamped to those keys.
  const first = Math.min(frames, keyFrame[0]);
  copy(0, 0, first);
  for (let k = 0; k + 1 < n && keyFrame[k] < frames; k++) {
    const from = keyFrame[k];
    const to = Math.min(frames, keyFrame[k + 1]);
    let same = s.interpolation === 'STEP';
    if (!same && !cubic) {
      // Equal neighbours: the line between them is the key itself.
      const a = k * stride + off;
      const b = (k + 1) * stride + off;
      same = true;
      for (let c = 0; c < size && same; c++) if (!Object.is(values[a + c], values[b + c])) same = false;
    }
    if (same || to - from === 1) {
      copy(k, from, to);
      continue;
    }
    copy(k, from, from + 1);
    if (cubic) resampled = true;
    for (let f = from + 1; f < to; f++) {
      sampleAt(s, f / fps, tmp);
      for (let c = 0; c < size; c++) out[f * size + c] = tmp[c];
    }
  }
  copy(n - 1, Math.max(first, keyFrame[n - 1]), frames);
  return resampled;
}

/** True when a track is absent or LINEAR/STEP with every key equal (its value at any time). */
function constantTrack(s: SamplerData | undefined): boolean {
  if (!s?.times.length) return true;
  if (s.interpolation === 'CUBICSPLINE') return false;
  const { values, size } = s;
  const n = Math.min(values.length, s.times.length * size);
  for (let i = size; i < n; i++) if (!Object.is(values[i], values[i % size])) return false;
  return true;
}

interface BlockResult {
  block: AnimationBlock;
  maxPosError: number;
  maxRotError: number;
}

/** Hex digit value of a char code (the caller has checked the string). */
function hexValue(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}

/**
 * Frames `0 … frames−1` of one bone (tracks or rest pose, through the parent fix), converted to
 * file axes, into T/R/S; rotations an an10 reader would normalize are written normalized (zero or
 * NaN ones as the identity). Returns how many of its tracks had to be resampled.
 */
function sampleBoneFrames(
  tr: Track | null | undefined,
  r0: number[],
  fix: M4 | null,
  frames: number,
  fps: number,
  T: Float64Array,
  R: Float64Array,
  S: Float64Array,
  m: Float64Array,
): number {
  // Rest values are in file axes; channel values in glTF axes: bring rest to glTF first.
  const restT = Float64Array.of(r0[0], r0[1], r0[2]);
  const restR = Float64Array.of(r0[3], r0[4], r0[5], r0[6]);
  const restS = Float64Array.of(r0[7], r0[8], r0[9]);
  convertVec3(UNIGINE_TO_GLTF, restT);
  convertQuaternions(UNIGINE_TO_GLTF, restR);
  convertScale(UNIGINE_TO_GLTF, restS);
  let resampled = 0;
  if (tr?.t?.times.length) resampled += sampleFrames(tr.t, frames, fps, T) ? 1 : 0;
  else repeatValue(restT, 3, frames, T);
  if (tr?.r?.times.length) resampled += sampleFrames(tr.r, frames, fps, R) ? 1 : 0;
  else repeatValue(restR, 4, frames, R);
  if (tr?.s?.times.length) resampled += sampleFrames(tr.s, frames, fps, S) ? 1 : 0;
  else repeatValue(restS, 3, frames, S);
  if (fix) {
    for (let f = 0; f < frames; f++) {
      const t = [T[f * 3], T[f * 3 + 1], T[f * 3 + 2]];
      const r = [R[f * 4], R[f * 4 + 1], R[f * 4 + 2], R[f * 4 + 3]];
      const sc = [S[f * 3], S[f * 3 + 1], S[f * 3 + 2]];
      composeTRS(t, r, sc, m);
      mat4.multiply(asMat(m), asMat(fix), asMat(m));
      const d = decompose(m);
      T.set(d.t, f * 3);
      R.set(d.r, f * 4);
      S.set(d.s, f * 3);
    }
  }
  // glTF → file axes, in place, on the per-bone f64 tracks
  convertVec3(GLTF_TO_UNIGINE, T.subarray(0, frames * 3));
  convertQuaternions(GLTF_TO_UNIGINE, R.subarray(0, frames * 4));
  convertScale(GLTF_TO_UNIGINE, S.subarray(0, frames * 3));
  normalizeRotations(R, frames);
  return resampled;
}

/** `out[f] = value` for f < frames (items of `size`). */
function repeatValue(value: Float64Array, size: number, frames: number, out: Float64Array): void {
  for (let f = 0; f < frames; f++) for (let k = 0; k < size; k++) out[f * size + k] = value[k];
}

/** Rotations whose length is off by more than 1e-3 normalized (zero/NaN ones: the identity). */
function normalizeRotations(R: Float64Array, frames: number): void {
  for (let f = 0; f < frames; f++) {
    const q = f * 4;
    const l2 = R[q] * R[q] + R[q + 1] * R[q + 1] + R[q + 2] * R[q + 2] + R[q + 3] * R[q + 3];
    if (Math.abs(Math.sqrt(l2) - 1) <= 1e-3) continue;
    if (!(l2 > 1e-12) || !Number.isFinite(l2)) {
      R[q] = 0;
      R[q + 1] = 0;
      R[q + 2] = 0;
      R[q + 3] = 1;
    } else {
      const l = Math.sqrt(l2);
      for (let c = 0; c < 4; c++) R[q + c] /= l;
    }
  }
}

/** Per-axis ranges of positions (lo/hi 0-2) and scales (3-5) over n frames; true when a scale ≠ 1. */
function growRanges(
  T: Float64Array,
  S: Float64Array,
  n: number,
  lo: Float64Array,
  hi: Float64Array,
): boolean {
  let differs = false;
  for (let f = 0; f < n; f++) {
    for (let c = 0; c < 3; c++) {
      const p = T[f * 3 + c];
      const v = S[f * 3 + c];
      lo[c] = Math.min(lo[c], p);
      hi[c] = Math.max(hi[c], p);
      lo[3 + c] = Math.min(lo[3 + c], v);
      hi[3 + c] = Math.max(hi[3 + c], v);
      if (Math.abs(v - 1) > 1e-6) differs = true;
    }
  }
  return differs;
}

/**
 * Bone b's frames 0 … n−1 (T/R/S, file axes) → codes → flags into the block arrays. Unflagged
 * components stay 0 (the file model mirrors the bytes). `code`/`last` hold this frame's and the
 * previous stored frame's values (pos 0-2, rot 3-6, scale 7-9); `err` grows to the worst
 * position/scale (0) and rotation (1) error.
 */
function encodeBoneFrames(
  b: number,
  nb: number,
  n: number,
  exact: boolean,
  quantized: boolean,
  mask: number,
  T: Float64Array,
  R: Float64Array,
  S: Float64Array,
  rawPos: (Uint16Array | null)[],
  rawScale: (Uint16Array | null)[],
  bx: Float32Array,
  keptFlags: string | null,
  code: Float64Array,
  last: Float64Array,
  flags: Uint8Array,
  positions: Float32Array | Uint16Array,
  rotations: Int16Array,
  scales: Float32Array | Uint16Array,
  err: Float64Array,
): void {
  let maxPosError = err[0];
  let maxRotError = err[1];
  for (let f = 0; f < n; f++) {
    const e = f * nb + b;
    if (exact && f > 0) {
      let same = true;
      for (let c = 0; c < 3 && same; c++)
        if (T[f * 3 + c] !== T[f * 3 - 3 + c] || S[f * 3 + c] !== S[f * 3 - 3 + c]) same = false;
      for (let c = 0; c < 4 && same; c++) if (R[f * 4 + c] !== R[f * 4 - 4 + c]) same = false;
      if (same) continue;
    }
    for (let c = 0; c < 3; c++) {
      const p = T[f * 3 + c];
      const v = S[f * 3 + c];
      if (quantized) {
        const rp = rawPos[c];
        const rs = rawScale[c];
        const pq = rp ? rp[e] : encodeRangeU16(Math.fround(p), bx[c], bx[3 + c]);
        const sq = rs ? rs[e] : encodeRangeU16(Math.fround(v), bx[6 + c], bx[9 + c]);
        code[c] = pq;
        code[7 + c] = sq;
        if (mask & (1 << c))
          maxPosError = Math.max(maxPosError, Math.abs(decodeRangeU16(pq, bx[c], bx[3 + c]) - p));
        if (mask & (16 << c))
          maxPosError = Math.max(maxPosError, Math.abs(decodeRangeU16(sq, bx[6 + c], bx[9 + c]) - v));
      } else {
        code[c] = Math.fround(p);
        code[7 + c] = Math.fround(v);
      }
    }
    for (let c = 0; c < 4; c++) {
      const x = R[f * 4 + c];
      const q = snorm16(x);
      code[3 + c] = q;
      maxRotError = Math.max(maxRotError, Math.abs(decodeSnorm16(q) - x));
    }
    let fl: number;
    if (keptFlags)
      fl = (hexValue(keptFlags.charCodeAt(e * 2)) << 4) | hexValue(keptFlags.charCodeAt(e * 2 + 1));
    else if (f === 0) fl = mask;
    else {
      fl = 0;
      for (let c = 0; c < 3; c++) {
        if (code[c] !== last[c]) fl |= 1 << c;
        if (code[7 + c] !== last[7 + c]) fl |= 16 << c;
      }
      for (let c = 3; c < 7; c++) if (code[c] !== last[c]) fl |= FLAG_ROT;
      fl &= mask;
    }
    flags[e] = fl;
    for (let c = 0; c < 3; c++) {
      if (fl & (1 << c)) positions[e * 3 + c] = code[c];
      if (fl & (16 << c)) scales[e * 3 + c] = code[7 + c];
    }
    if (fl & FLAG_ROT) for (let c = 0; c < 4; c++) rotations[e * 4 + c] = code[3 + c];
    last.set(code);
  }
  err[0] = maxPosError;
  err[1] = maxRotError;
}

/**
 * Builds an animated-bone block from glTF tracks. `quantized` selects the an10 variant (u16 in
 * range boxes); the float variant is the one embedded in ms11 meshes. Works bone by bone on
 * per-bone tracks (time and memory: the block itself plus one bone's frames), sampling twice
 * when range boxes have to be measured first.
 */
function buildBlock(
  tracks: (Track | null)[],
  boneIdx: number[],
  rest: number[][],
  parentFix: (M4 | null)[],
  frameCount: number,
  fps: number,
  quantized: boolean,
  ex: Partial<UnigineAnimationExtras>,
  warnResampled: () => void,
): BlockResult {
  const frames = frameCount;
  const nb = boneIdx.length;
  const T = new Float64Array(frames * 3);
  const R = new Float64Array(frames * 4);
  const S = new Float64Array(frames * 3);
  const m = new Float64Array(16);
  // Bones whose every track holds one value (or none: the rest pose): every frame is frame 0
  // (a parent fix maps the same value to the same value).
  const still = new Uint8Array(nb);
  for (let b = 0; b < nb; b++)
    still[b] =
      constantTrack(tracks[b]?.t) && constantTrack(tracks[b]?.r) && constantTrack(tracks[b]?.s) ? 1 : 0;
  /** Bone `b`'s frames, file axes, into T/R/S (only frame 0 for a constant bone). */
  const sampleBone = (b: number, warn: boolean, full: boolean): void => {
    const n = still[b] === 1 && !full ? Math.min(1, frameCount) : frameCount;
    const resampled = sampleBoneFrames(tracks[b], rest[b], parentFix[b], n, fps, T, R, S, m);
    if (warn) for (let k = 0; k < resampled; k++) warnResampled();
  };
  let hasScale = false;
  for (const tr of tracks) if (tr?.s) hasScale = true;
  const explicitMask = typeof ex.componentMask === 'number';
  // Pass 1 (when needed): per-axis ranges of positions and scales, and whether scales differ from 1.
  const lo = new Float64Array(6).fill(Number.POSITIVE_INFINITY);
  const hi = new Float64Array(6).fill(Number.NEGATIVE_INFINITY);
  let differs = false;
  const pass1 = quantized || (!explicitMask && hasScale);
  for (let b = 0; b < nb && pass1; b++) {
    sampleBone(b, true, false);
    const n = still[b] === 1 ? Math.min(1, frames) : frames;
    if (growRanges(T, S, n, lo, hi)) differs = true;
  }
  let mask: number;
  if (explicitMask) mask = (ex.componentMask as number) & 0x7f;
  else {
    mask = FLAG_POS | FLAG_ROT;
    if (hasScale && differs) mask |= FLAG_SCALE;
  }
  const entries = frames * nb;
  const flags = new Uint8Array(entries);
  const positions = quantized ? new Uint16Array(entries * 3) : new Float32Array(entries * 3);
  const rotations = new Int16Array(entries * 4);
  const scales = quantized ? new Uint16Array(entries * 3) : new Float32Array(entries * 3);
  let boxes: Float32Array | null = null;
  let maxPosError = 0;
  let maxRotError = 0;
  if (quantized) {
    const bx = new Float32Array(12);
    boxes = bx;
    const stored = unpackF32(ex.boxes, 12);
    const box = (bit: number, at: number, range: number) => {
      for (let c = 0; c < 3; c++) {
        if (!(mask & (bit << c))) {
          bx[at + c] = stored ? stored[at + c] : EMPTY_BOX[c];
          bx[at + 3 + c] = stored ? stored[at + 3 + c] : EMPTY_BOX[3 + c];
          continue;
        }
        let l = entries ? lo[range + c] : Number.POSITIVE_INFINITY;
        let h = entries ? hi[range + c] : Number.NEGATIVE_INFINITY;
        if (!Number.isFinite(l)) {
          if (stored) {
            bx[at + c] = stored[at + c];
            bx[at + 3 + c] = stored[at + 3 + c];
            continue;
          }
          l = 0;
          h = 0;
        }
        if (stored) {
          const so = stored[at + c];
          const ss = stored[at + 3 + c];
          const slack = Math.abs(ss) / 65535 + 1e-6 * Math.max(1, Math.abs(so));
          if (l >= so - slack && h <= so + ss + slack) {
            bx[at + c] = so;
            bx[at + 3 + c] = ss;
            continue;
          }
        }
        bx[at + c] = Math.fround(l);
        bx[at + 3 + c] = Math.fround(h - Math.fround(l));
        // Make sure the top value still fits after float32 rounding of the box.
        if (bx[at + c] + bx[at + 3 + c] < h) bx[at + 3 + c] = Math.fround(bx[at + 3 + c] * (1 + 2 ** -20));
      }
    };
    box(1, 0, 0);
    box(16, 6, 3);
  }
  const raw = ex.rawCodes ?? {};
  // Stored as u16 (the typed array's coercion, so the flags compare what is written).
  const rawList = (key: string): Uint16Array | null =>
    Array.isArray(raw[key]) && raw[key].length === entries ? new Uint16Array(raw[key]) : null;
  const rawPos = [0, 1, 2].map((c) => rawList(`pos${c}`));
  const rawScale = [0, 1, 2].map((c) => rawList(`scale${c}`));
  // Flags: frame 0 stores every component of the mask; later frames only what changed
  // (unless the source file did otherwise and its flags were kept).
  const keptFlags =
    typeof ex.flags === 'string' && ex.flags.length === entries * 2 && /^[0-9a-f]*$/.test(ex.flags)
      ? ex.flags
      : null;
  const bx = boxes ?? new Float32Array(12);
  const code = new Float64Array(10); // this frame's stored values: pos 0-2, rot 3-6, scale 7-9
  const last = new Float64Array(10); // the previous frame's
  // Pass 2: bone by bone, values → codes → flags; unflagged components stay 0 (the file model
  // mirrors the bytes).
  const exact = !keptFlags && !rawPos.some((r) => r) && !rawScale.some((r) => r);
  const err = new Float64Array(2); // worst position/scale and rotation error
  for (let b = 0; b < nb; b++) {
    sampleBone(b, !pass1, !exact);
    // Frames equal to the previous one store nothing (flags 0): a constant bone is done after
    // frame 0, and repeated frames are skipped (values equal → codes equal).
    const n = exact && still[b] === 1 ? Math.min(1, frames) : frames;
    encodeBoneFrames(
      b,
      nb,
      n,
      exact,
      quantized,
      mask,
      T,
      R,
      S,
      rawPos,
      rawScale,
      bx,
      keptFlags,
      code,
      last,
      flags,
      positions,
      rotations,
      scales,
      err,
    );
  }
  maxPosError = err[0];
  maxRotError = err[1];
  return {
    block: {
      bones: Int16Array.from(boneIdx),
      boxes,
      componentMask: mask,
      numFrames: frames,
      flags,
      positions,
      rotations,
      scales,
    },
    maxPosError,
    maxRotError,
  };
}

function tracksOf(anim: Animation, warnings: WarningCollector): Map<Node, Track> {
  const map = new Map<Node, Track>();
  for (const ch of anim.listChannels()) {
    const node = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!node || !sampler) continue;
    if (path === 'weights') {
      warnings.warn(
        'ANIMATION_DROPPED',
        `animation "${anim.getName()}": morph-weight tracks have no place in UNIGINE an10; dropped`,
      );
      continue;
    }
    const tr = map.get(node) ?? { node };
    if (path === 'translation') tr.t = readSampler(sampler, false, 3);
    else if (path === 'rotation') tr.r = readSampler(sampler, true, 4);
    else if (path === 'scale') tr.s = readSampler(sampler, false, 3);
    map.set(node, tr);
  }
  return map;
}

/** True when every key time sits on an increasing frame `f / fps` (within float32 rounding). */
export function keysOnFrames(times: ArrayLike<number>, fps: number): boolean {
  let prev = -1;
  for (let k = 0; k < times.length; k++) {
    const t = times[k];
    const f = Math.round(t * fps);
    if (!(Math.abs(t - f / fps) <= 1e-5 + Math.abs(t) * 2.4e-7) || f <= prev || f < 0) return false;
    prev = f;
  }
  return true;
}

/**
 * The animation limits to give the shared stage for `document`. UNIGINE stores every frame, so
 * LINEAR/STEP keys that sit on frames (any subset of them, as our importer writes them) are
 * filled in exactly by the map layer and need no step (`sampling: 'any'`); otherwise the stage
 * samples onto the frame grid at the clips' one rate. Clips with different rates (imported
 * extras) cannot share the stage's one grid: `null`, and `sampleFrames` samples such tracks.
 */
function animationLimits(document: Document, fps: number): AnimationLimits | null {
  const base = UNIGINE_LIMITS.animation!;
  const rates = new Set<number>();
  let onFrames = true;
  for (const anim of document.getRoot().listAnimations()) {
    const ex = (unigineExtras(anim) ?? {}) as Partial<UnigineAnimationExtras>;
    const rate = typeof ex.fps === 'number' && ex.fps > 0 ? ex.fps : fps;
    rates.add(rate);
    for (const s of anim.listSamplers()) {
      const times = s.getInput()?.getArray();
      const interpolation = s.getInterpolation() ?? 'LINEAR';
      if (!base.interpolations.includes(interpolation) || (times && !keysOnFrames(times, rate)))
        onFrames = false;
    }
  }
  if (onFrames) return { ...base, sampling: 'any' };
  if (rates.size > 1) return null;
  const rate = rates.size ? [...rates][0] : fps;
  // The stage would sample every frame of every channel: refuse an absurd clip before it does.
  for (const anim of document.getRoot().listAnimations()) {
    const frames = Math.max(1, Math.round(animDuration(anim) * rate) + 1);
    const nodes = new Set(anim.listChannels().map((c) => c.getTargetNode())).size;
    if (!Number.isFinite(frames) || frames * nodes > MAX_BLOCK_ENTRIES)
      throw tooLong(anim, frames, nodes, rate);
  }
  return { ...base, fps: rate };
}

function tooLong(anim: Animation, frames: number, bones: number, fps: number): ExportError {
  return new ExportError(
    'ANIMATION_TOO_LONG',
    `animation "${anim.getName()}" would need ${frames} frames × ${bones} animated bones at ${fps} fps; UNIGINE stores every frame of every animated bone, and more than ${MAX_BLOCK_ENTRIES} frame entries per animation would be an absurd file (shorten the clip or export with a lower fps)`,
  );
}

function animDuration(anim: Animation): number {
  let d = 0;
  for (const s of anim.listSamplers()) {
    const input = s.getInput();
    if (input) d = Math.max(d, input.getMax([0])[0] ?? 0);
  }
  return d;
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
  const prepared = await prepare(document, { ...UNIGINE_LIMITS, animation }, { warnings });
  const result = mapUnigine(prepared.document, options, fps, warnings);
  // The stage maps a clone when it changed something: name the caller's own materials.
  if (prepared.changed) {
    const own = document.getRoot().listMaterials();
    const index = new Map(
      prepared.document
        .getRoot()
        .listMaterials()
        .map((m, i) => [m, i]),
    );
    result.surfaceMaterials = result.surfaceMaterials.map((m) => (m ? own[index.get(m)!] : null));
  }
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

  // Surfaces from every mesh instance of the scene(s).
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
  if (root.listCameras().length)
    warnings.warn(
      'CAMERA_DROPPED',
      'cameras have no place in a UNIGINE mesh; dropped',
      root.listCameras().length,
    );
  if (root.listTextures().length && !options.materials)
    warnings.warn(
      'TEXTURE_DROPPED',
      'textures and materials are not stored in .mesh files (surfaces keep the material names)',
      root.listTextures().length,
    );
  const surfaces: MeshSurface[] = [];
  const surfaceMaterials: (Material | null)[] = [];
  for (const input of inputs) {
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

  // Animations: embedded ones (from a mesh) and .anim files.
  const meshAnims: { anim: Animation; ex: Partial<UnigineAnimationExtras> }[] = [];
  const fileGroups = new Map<string, { anim: Animation; ex: Partial<UnigineAnimationExtras> }[]>();
  const meshStem = rx.mesh?.file ? rx.mesh.file.replace(/\.[^.]*$/, '') : null;
  for (const anim of root.listAnimations()) {
    const ex = (unigineExtras(anim) ?? {}) as Partial<UnigineAnimationExtras>;
    if (ex.source === 'mesh' && surfaces.length) {
      meshAnims.push({ anim, ex });
      continue;
    }
    let file: string;
    if (ex.source === 'anim' && typeof ex.file === 'string') {
      file = ex.file;
      if (meshStem && file.toLowerCase().startsWith(meshStem.toLowerCase()))
        file = name + file.slice(meshStem.length);
      else if (!meshStem && (rx.animFiles?.length ?? 0) === 1) file = `${name}.anim`;
    } else {
      file = `${name}_${sanitize(anim.getName() || `anim${root.listAnimations().indexOf(anim)}`)}.anim`;
    }
    const g = fileGroups.get(file) ?? [];
    g.push({ anim, ex });
    fileGroups.set(file, g);
  }
  let maxPos = 0;
  let maxRot = 0;
  let lossy = false;
  let resampled = 0;
  const warnResampled = () => {
    resampled++;
  };
  const bindOfName = (n: string): number[] | null => {
    const node = nodeByName.get(n);
    if (!node) return null;
    const i = skel.index.get(node);
    if (i !== undefined) return skel.bind[i];
    return nodeBind(node);
  };
  const makeBlock = (
    anim: Animation,
    ex: Partial<UnigineAnimationExtras>,
    bones: UnigineBone[],
    rest: number[][],
    quantized: boolean,
  ): AnimationBlock | null => {
    const tracks = tracksOf(anim, warnings);
    const foreign = !unigineExtras(anim);
    // The skeleton's own bones map by node; bone lists from extras map by name.
    const nodeOfBone = (i: number): Node | undefined =>
      bones === skel.bones ? skel.nodes[i] : nodeByName.get(bones[i].name);
    const boneOfName = new Map<string, number>();
    bones.forEach((b, i) => {
      if (!boneOfName.has(b.name)) boneOfName.set(b.name, i);
    });
    let boneIdx: number[];
    if (Array.isArray(ex.bones) && ex.bones.every((b) => boneOfName.has(b)))
      boneIdx = ex.bones.map((b) => boneOfName.get(b) as number);
    else {
      boneIdx = [];
      for (const [node] of tracks) {
        const i =
          bones === skel.bones
            ? skel.index.get(node)
            : nodeByName.get(node.getName()) === node
              ? boneOfName.get(node.getName())
              : undefined;
        if (i === undefined) {
          warnings.warn(
            'TRACK_DROPPED',
            `animation "${anim.getName()}": tracks of node "${node.getName()}", which is not a bone, were dropped`,
          );
          continue;
        }
        boneIdx.push(i);
      }
      // Bones without tracks play their bind pose in UNIGINE but their node TRS in glTF: when those
      // differ, the bone is animated with its (constant) node TRS too.
      const listed = new Set(boneIdx);
      bones.forEach((_, i) => {
        const node = nodeOfBone(i);
        if (listed.has(i) || !node) return;
        const now = nodeBind(node);
        if (now.some((v, k) => Math.abs(v - rest[i][k]) > 1e-6 * Math.max(1, Math.abs(v)))) boneIdx.push(i);
      });
      boneIdx.sort((a, b) => a - b);
    }
    if (!boneIdx.length && !Array.isArray(ex.bones)) {
      warnings.warn('ANIMATION_DROPPED', `animation "${anim.getName()}" animates no bone; dropped`);
      return null;
    }
    const exFps = typeof ex.fps === 'number' && ex.fps > 0 ? ex.fps : fps;
    const frames =
      typeof ex.numFrames === 'number' && ex.numFrames >= 0
        ? ex.numFrames
        : Math.max(1, Math.round(animDuration(anim) * exFps) + 1);
    if (!Number.isFinite(frames) || frames * boneIdx.length > MAX_BLOCK_ENTRIES)
      throw tooLong(anim, frames, boneIdx.length, exFps);
    const trackList = boneIdx.map((i) => {
      const node = nodeOfBone(i);
      return node ? (tracks.get(node) ?? null) : null;
    });
    const fixes = boneIdx.map((i) => {
      const node = nodeOfBone(i);
      const si = node ? skel.index.get(node) : undefined;
      return si !== undefined && !unigineExtras(anim) ? skel.parentFix[si] : null;
    });
    // Components without a track: glTF shows the node's own TRS, which for documents from other
    // tools need not be the bind pose (our own documents have node TRS = bind pose).
    const fillRest = boneIdx.map((i) => {
      const node = nodeOfBone(i);
      return foreign && node ? nodeBind(node) : rest[i];
    });
    const res = buildBlock(trackList, boneIdx, fillRest, fixes, frames, exFps, quantized, ex, warnResampled);
    if (!unigineExtras(anim) || ex.normalized) {
      lossy = true;
      maxPos = Math.max(maxPos, res.maxPosError);
      maxRot = Math.max(maxRot, res.maxRotError);
    }
    return res.block;
  };

  let mesh: MeshFile | null = null;
  const files: FileSet = new Map();
  const encoding = (rx.mesh?.encoding === 'latin1' ? 'latin1' : 'utf8') as TextEncoding;
  if (surfaces.length) {
    const bindPose = new Float32Array(skel.bones.length * TRS_FLOATS);
    skel.bind.forEach((b, i) => {
      bindPose.set(b, i * TRS_FLOATS);
    });
    const blocks: AnimationBlock[] = [];
    const animationNames: string[] = [];
    for (const { anim, ex } of meshAnims) {
      const block = makeBlock(anim, ex, skel.bones, skel.bind, false);
      if (block) {
        blocks.push(block);
        animationNames.push(typeof ex.name === 'string' ? ex.name : anim.getName());
      }
    }
    const computed = unionBounds(surfaces.map((s) => s.bounds));
    mesh = {
      magic: 'ms11',
      encoding,
      bounds: chooseBounds(computed, rx.mesh?.bounds),
      bones: skel.bones,
      animationNames,
      surfaces,
      bindPose,
      animations: blocks,
    };
    assertFiniteBindPose(bindPose, skel.bones, `${name}.mesh`);
    files.set(`${name}.mesh`, writeMesh(mesh));
  }
  const anims: { file: string; anim: AnimFile }[] = [];
  for (const [file, group] of fileGroups) {
    const first = group[0].ex;
    const header: AnimFileExtras | undefined = rx.animFiles?.find((f) => f.file === first.file);
    let bones: UnigineBone[];
    if (header && Array.isArray(header.bones))
      bones = header.bones.map(([n, p]) => ({ name: String(n), parent: Number(p) }));
    else bones = skel.bones;
    if (!bones.length) {
      warnings.warn(
        'ANIMATION_DROPPED',
        `animations of ${file} have no skeleton (the glTF has no skin); dropped`,
        group.length,
      );
      continue;
    }
    const rest: number[][] = bones.map(
      (b, i) => overrideOf(header, i) ?? bindOfName(b.name) ?? [0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    );
    const ordered = group.slice().sort((a, b) => (a.ex.index ?? 0) - (b.ex.index ?? 0));
    const blocks: AnimationBlock[] = [];
    const animationNames: string[] = [];
    for (const { anim, ex } of ordered) {
      const block = makeBlock(anim, ex, bones, rest, true);
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
    const animFile: AnimFile = {
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
  // Without a mesh, a single .anim is the main file and is named NAME.anim (as the branch above
  // names a re-imported standalone .anim), so that export → import → export keeps the name. This
  // looks at the files actually written: groups dropped above (no skeleton, no animated bone)
  // must not keep the survivor at NAME_<animation>.anim.
  if (!mesh && anims.length === 1) anims[0].file = `${name}.anim`;
  for (const { file, anim } of anims) files.set(file, writeAnim(anim));
  if (resampled)
    warnings.warn(
      'ANIMATION_RESAMPLED',
      `animation tracks whose keys do not fall on ${fps} fps frames were resampled`,
      resampled,
    );
  if (lossy) {
    warnings.warn(
      'VALUE_QUANTIZED',
      `animations quantized to an10 (u16 positions/scales in range boxes, i16 rotations): worst error ${maxPos.toExponential(2)} units, ${maxRot.toExponential(2)} per quaternion component`,
    );
  }
  if (!files.size)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no triangle meshes and no skeletal animations to write as UNIGINE .mesh/.anim',
    );
  return { files, warnings: warnings.list(), mesh, anims, surfaceMaterials };
}
