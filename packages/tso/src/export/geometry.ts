/**
 * The mesh of the export: every triangle primitive's vertices moved into the space of their
 * strongest joint (a second joint becomes a blend vertex), then written from extras or assembled.
 */
import { ExportError, type WarningCollector, accessorFloats } from '@gltf-legacy/core';
import { decodeQ15, encodeQ15 } from '@gltf-legacy/quantize';
import type { Mesh, Node, Primitive } from '@gltf-transform/core';
import { mat4 } from 'gl-matrix';
import { BLEND_ATTRIBUTES, type MeshExtras, RAW_POSITION_ATTRIBUTE } from '../extras.js';
import type { TsoMesh } from '../mesh.js';
import { inv, isIdentity, mat, mul, transformDir, transformPoint } from '../space.js';

import { type BoneInfo, nodeWorld } from './common.js';
import { assemble, flip } from './bindings.js';
import { twoInfluences } from './influences.js';
import { restoreFromExtras } from './mesh-extras.js';
import type { TSO_EXPORT_DEFAULTS } from './options.js';

/**
 * Whole vertices of a primitive: a (corrupt) POSITION accessor whose data is not a whole number
 * of VEC3 reports a fractional count; the partial vertex does not exist.
 */
export function vertexCount(prim: Primitive): number {
  return Math.floor(prim.getAttribute('POSITION')?.getCount() ?? 0);
}

/** A primitive the mesh can hold: a triangle list (after the shared stage) with at least one vertex. */
export function storable(prim: Primitive): boolean {
  return prim.getMode() === 4 && vertexCount(prim) > 0;
}

/** Whether `readInfluences` finds a JOINTS_0/WEIGHTS_0 pair (else the primitive is rigid). */
export function hasInfluences(prim: Primitive): boolean {
  return !!prim.getAttribute('JOINTS_0') && !!prim.getAttribute('WEIGHTS_0');
}

/** The triangle list of a prepared primitive (mode TRIANGLES; the stage converted strips and fans). */
export function triangles(prim: Primitive): Uint32Array | null {
  if (prim.getMode() !== 4) return null;
  const count = vertexCount(prim);
  const idxAcc = prim.getIndices();
  let idx: Uint32Array;
  if (idxAcc) idx = new Uint32Array(idxAcc.getArray() ?? []);
  else {
    idx = new Uint32Array(count);
    for (let i = 0; i < count; i++) idx[i] = i;
  }
  return idx.subarray(0, idx.length - (idx.length % 3));
}

/** Every exported vertex, struct-of-arrays (glTF space, already in bone space). */
export interface Verts {
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

export function exportMesh(
  prims: { node: Node; mesh: Mesh; prim: Primitive }[],
  bones: BoneInfo[],
  boneIndex: Map<Node, number>,
  boneInv: Float64Array[],
  o: typeof TSO_EXPORT_DEFAULTS,
  warnings: WarningCollector,
): TsoMesh {
  const { parts, total, triTotal } = meshParts(prims, warnings);
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
    const inf = node.getSkin() ? twoInfluences(prim) : null;
    const { jointMats, jointBones, ident, normalMats } = jointMatrices(
      node,
      inf !== null,
      bones,
      boneIndex,
      boneInv,
    );
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
  const fromExtras = extras && restoreFromExtras(extras, prims[0].mesh, prims[0].prim, vs, bones, rawNormals);
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
  assertFinite(out);
  return out;
}

/** A primitive to write: its triangles and whole vertex count. */
interface MeshPart {
  node: Node;
  prim: Primitive;
  tri: Uint32Array;
  count: number;
}

/**
 * Pass 1 of {@link exportMesh}: the triangle primitives and their totals; attributes TSO cannot
 * hold are `ATTRIBUTE_DROPPED`, an index past the vertices is `INDEX_OUT_OF_RANGE`.
 */
function meshParts(
  prims: { node: Node; mesh: Mesh; prim: Primitive }[],
  warnings: WarningCollector,
): { parts: MeshPart[]; total: number; triTotal: number } {
  const parts: MeshPart[] = [];
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
  return { parts, total, triTotal };
}

/** Per-joint matrices of one primitive: glTF mesh space to each joint's TSO bone space. */
interface JointMatrices {
  jointMats: Float64Array[];
  jointBones: number[];
  ident: boolean[];
  normalMats: Float64Array[];
}

/**
 * B⁻¹ · W_joint · IBM for every joint of the node's skin (`skinned`), else the node's own bone;
 * normals through the inverse transpose.
 */
function jointMatrices(
  node: Node,
  skinned: boolean,
  bones: BoneInfo[],
  boneIndex: Map<Node, number>,
  boneInv: Float64Array[],
): JointMatrices {
  // Per-joint matrix from glTF mesh space to TSO bone space: B⁻¹ · W_joint · IBM.
  const skin = node.getSkin();
  let jointMats: Float64Array[];
  let jointBones: number[];
  if (skin && skinned) {
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
  return { jointMats, jointBones, ident, normalMats };
}

/**
 * Our import rejects non-finite vertices (NaN bits cannot survive the mirror, and an infinite
 * coordinate turns into NaN through a rotated bone): refuse them here, so whatever export
 * writes imports again. They come from NaN/±∞ in the glTF (invalid) or from positions beyond
 * the float32 range once moved into bone space.
 */
function assertFinite(out: TsoMesh): void {
  for (const a of [out.realVertices, out.blendVertices])
    for (let i = 0; i < a.length; i++)
      if (a[i] - a[i] !== 0)
        throw new ExportError(
          'NAN_VERTEX',
          `vertex ${Math.floor(i / 6)}: a position or normal is ${a[i]} in bone space (NaN or ±∞ in the glTF, or beyond float32 range); TSO meshes cannot hold it`,
        );
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
