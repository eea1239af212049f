/**
 * Export of one prepared glTF primitive as a `.mesh` surface: indices, positions, tangent frames,
 * UVs, colours, weights and morph targets.
 */
import { ExportError, type WarningCollector, accessorFloats, convertVec3 } from '@gltf-legacy/core';
import type { Node, Primitive, Skin } from '@gltf-transform/core';
import { mat4, vec3 } from 'gl-matrix';
import { GLTF_TO_UNIGINE, UNIGINE_TO_GLTF } from '../axes.js';
import { ATTR_COORD, ATTR_TBN, ATTR_TRI, type UnigineSurfaceExtras } from '../extras.js';
import { CHUNK } from '../kernels.js';
import { morphTargets } from './morphs.js';
import { type Influences, surfaceInfluences } from './influences.js';
import {
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
import type { MeshSurface } from '../mesh.js';
import { UNUSED, asMat, isIdentity, unigineExtras, worldMatrix } from './common.js';
import type { Skeleton } from './skeleton.js';
import { chooseBounds, computeBounds } from './bounds.js';
import { encodeTangentFrames, generateNormals, generateTangents, tbnMatchesNormals } from './tangents.js';
import { coordsConsistent, intArray, weldCoordinates } from './coordinates.js';

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

export interface SurfaceInput {
  prim: Primitive;
  node: Node;
  skin: Skin | null;
  label: string;
  defaultName: string;
}

/** Positions, normals, tangents and indices as the surface stores them (model space). */
interface Geometry {
  /** The accessor's own positions (glTF axes; read only). */
  srcPos: Float32Array;
  /** Positions in file axes (model space). */
  pos: Float32Array;
  nrm: Float32Array | null;
  tan: Float32Array | null;
  idx: Uint32Array;
  /** True when a node transform was applied (`srcPos` no longer gives the model-space positions). */
  moved: boolean;
}

/**
 * Step 1: positions, normals and tangents in model space. The shared stage bakes static meshes'
 * node transforms; a static mesh on an animated node (which the stage leaves in place) is placed
 * at its rest transform here, its winding flipped when that transform mirrors.
 */
function modelSpaceGeometry(
  prim: Primitive,
  node: Node,
  skinned: boolean,
  n: number,
  idx: Uint32Array,
): Geometry {
  const srcPos = accessorFloats(prim.getAttribute('POSITION')!);
  const pos = new Float32Array(srcPos);
  const nrmAcc = prim.getAttribute('NORMAL');
  const tanAcc = prim.getAttribute('TANGENT');
  let nrm: Float32Array | null = nrmAcc ? accessorFloats(nrmAcc) : null;
  let tan: Float32Array | null = tanAcc ? accessorFloats(tanAcc) : null;
  if (nrm && nrm.length !== n * 3) nrm = null;
  if (tan && tan.length !== n * 4) tan = null;
  let moved = false;
  const w = skinned ? null : worldMatrix(node);
  if (w && !isIdentity(w)) {
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
    transformDirections(nrm, 3, nm, n);
    transformDirections(tan, 4, asMat(w), n);
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
  convertVec3(GLTF_TO_UNIGINE, pos);
  return { srcPos, pos, nrm, tan, idx, moved };
}

/** Directions `a` (xyz of items of `stride`) through `m`, normalized, in place. */
function transformDirections(a: Float32Array | null, stride: number, m: mat4, n: number): void {
  if (!a) return;
  const tmp = vec3.create();
  for (let v = 0; v < n; v++) {
    vec3.set(tmp, a[v * stride], a[v * stride + 1], a[v * stride + 2]);
    vec3.transformMat4(tmp, tmp, m);
    vec3.sub(tmp, tmp, vec3.transformMat4(vec3.create(), [0, 0, 0], m));
    vec3.normalize(tmp, tmp);
    a[v * stride] = tmp[0];
    a[v * stride + 1] = tmp[1];
    a[v * stride + 2] = tmp[2];
  }
}

/**
 * Step 2: the triangle vertex (attribute vertex) of each glTF vertex — the imported pairing, or
 * one per glTF vertex the indices use (unused vertices are dropped).
 */
function triangleVertices(
  prim: Primitive,
  ex: Partial<UnigineSurfaceExtras>,
  idx: Uint32Array,
  n: number,
  warnings: WarningCollector,
): { triAttr: ArrayLike<number> | null; triOf: Uint32Array; numTri: number } {
  const triAttr = intArray(prim, ATTR_TRI, n);
  if (triAttr) {
    const triOf = new Uint32Array(triAttr);
    const max = maxIndex(triOf, triOf.length);
    const numTri = typeof ex.numTriVerts === 'number' && ex.numTriVerts > max ? ex.numTriVerts : max + 1;
    return { triAttr, triOf, numTri };
  }
  const triOf = new Uint32Array(n);
  const numTri = numberUsed(idx, n, triOf, UNUSED);
  warnings.warn('UNUSED_VERTICES_DROPPED', 'vertices no triangle uses were dropped', n - numTri);
  return { triAttr, triOf, numTri };
}

/**
 * Step 4: the coordinate vertex (position + influences) of each glTF vertex — the imported
 * pairing while it still matches, else welded afresh in first-use order.
 */
function coordinateVertices(
  prim: Primitive,
  input: SurfaceInput,
  ex: Partial<UnigineSurfaceExtras>,
  g: Geometry,
  infl: Influences | null,
  tri: { triAttr: ArrayLike<number> | null; triOf: Uint32Array },
  n: number,
  warnings: WarningCollector,
): { coordOf: Uint32Array; numCoord: number } {
  let coordAttr = intArray(prim, ATTR_COORD, n);
  if (coordAttr && !coordsConsistent(coordAttr, g.pos, infl, n)) {
    // Edited since import: vertices sharing a coordinate vertex no longer agree. Weld afresh.
    warnings.warn(
      'COORDINATES_REBUILT',
      `${input.label}: ${ATTR_COORD} no longer matches the positions/weights; coordinate vertices were rebuilt`,
    );
    coordAttr = null;
  }
  const coordOf = new Uint32Array(n);
  if (!coordAttr) return { coordOf, numCoord: weldCoordinates(g.pos, infl, tri.triOf, coordOf, n) };
  const max = copyIndices(coordAttr, n, coordOf);
  // The stored count restores coordinate vertices no triangle uses, but only for an unchanged mesh.
  const unchanged = tri.triAttr !== null || n === ex.numTriVerts;
  const numCoord =
    unchanged && typeof ex.numCoordVerts === 'number' && ex.numCoordVerts > max ? ex.numCoordVerts : max + 1;
  return { coordOf, numCoord };
}

/**
 * Step 5: tangent frames per triangle vertex — the imported i16 quaternions while they match
 * NORMAL, else encoded from NORMAL/TANGENT (generated when missing).
 */
function tangentFrames(
  prim: Primitive,
  label: string,
  g: Geometry,
  uv0: Float32Array | null,
  perTriSlots: Int32Array,
  numTri: number,
  n: number,
  warnings: WarningCollector,
): Int16Array {
  const tbn = intArray(prim, ATTR_TBN, n);
  const useTbn = tbn !== null && tbn.length === n * 4 && (!g.nrm || tbnMatchesNormals(tbn, g.nrm, n));
  if (tbn && useTbn) return scatterI16x4(tbn, perTriSlots, new Int16Array(numTri * 4));
  if (tbn)
    warnings.warn(
      'TANGENT_FRAMES_REBUILT',
      `${label}: ${ATTR_TBN} no longer matches NORMAL; tangent frames were recomputed`,
    );
  // glTF-space positions for generation (the frame is converted after): the accessor's own
  // unless baked (the axis swap is bit-exact).
  let gpos = g.srcPos;
  if (g.moved) {
    gpos = new Float32Array(g.pos);
    convertVec3(UNIGINE_TO_GLTF, gpos);
  }
  let normals = g.nrm;
  if (!normals) {
    normals = generateNormals(gpos, g.idx);
    warnings.warn('NORMALS_GENERATED', 'primitives without normals got smooth generated normals');
  }
  let tangentsIn = g.tan;
  if (!tangentsIn) {
    tangentsIn = generateTangents(gpos, normals, uv0, g.idx);
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
  return scatterI16x4(all, perTriSlots, new Int16Array(numTri * 4));
}

/** Step 6: vertex colours per triangle vertex (u8 RGBA), or none. */
function surfaceColors(
  prim: Primitive,
  perTriSlots: Int32Array,
  numTri: number,
  n: number,
  warnings: WarningCollector,
): Uint8Array {
  const colAcc = prim.getAttribute('COLOR_0');
  if (!colAcc || colAcc.getCount() !== n) return new Uint8Array(0);
  const colors = scatterColors(
    accessorFloats(colAcc),
    colAcc.getElementSize(),
    perTriSlots,
    new Uint8Array(numTri * 4),
  );
  if (colAcc.getComponentType() !== 5121)
    warnings.warn('VALUE_QUANTIZED', 'vertex colours quantized to 8 bits');
  return colors;
}

/**
 * The indices after the last whole triangle that import kept in extras (`INDICES_NOT_TRIANGLES`),
 * when they are still 1–2 pairs of vertices of this surface; else none.
 */
function extraIndices(
  ex: Partial<UnigineSurfaceExtras>,
  numCoord: number,
  numTri: number,
): [number[], number[]] {
  const x = ex.extraIndices;
  if (!Array.isArray(x) || x.length !== 2 || !Array.isArray(x[0]) || !Array.isArray(x[1])) return [[], []];
  const [c, t] = x;
  const ok = (a: unknown[], n: number) =>
    a.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < n);
  if (c.length !== t.length || c.length < 1 || c.length > 2 || !ok(c, numCoord) || !ok(t, numTri))
    return [[], []];
  return [c, t];
}

/**
 * One prepared glTF primitive → a `.mesh` surface (null: left out, with a warning). Imported
 * surfaces come back exactly from their extras and raw attributes; others are welded, their
 * tangent frames computed and weights quantized.
 *
 * ```ts
 * const surface = buildSurface({ prim, node, skin, label: 'mesh "body" primitive 0', defaultName: 'body' }, skel, warnings);
 * ```
 */
export function buildSurface(
  input: SurfaceInput,
  skel: Skeleton,
  warnings: WarningCollector,
): MeshSurface | null {
  const { prim, node, skin, label } = input;
  // The shared stage dropped primitives without POSITION and those the format cannot draw.
  const posAcc = prim.getAttribute('POSITION')!;
  if (posAcc.getType() !== 'VEC3') {
    // Invalid glTF (a mutated accessor type): its array is not n × 3 floats.
    warnings.warn('PRIMITIVE_DROPPED', `${label}: POSITION is ${posAcc.getType()}, not VEC3; left out`);
    return null;
  }
  const n = posAcc.getCount();
  const g = modelSpaceGeometry(prim, node, !!skin, n, primitiveIndices(prim, n, label));
  const ex = (unigineExtras(prim) ?? {}) as Partial<UnigineSurfaceExtras>;
  const uv0Acc = prim.getAttribute('TEXCOORD_0');
  const uv0 = uv0Acc && uv0Acc.getCount() === n ? accessorFloats(uv0Acc) : null;
  const uv1Acc = prim.getAttribute('TEXCOORD_1');
  const uv1 = uv1Acc && uv1Acc.getCount() === n ? accessorFloats(uv1Acc) : null;
  for (const sem of prim.listSemantics()) {
    if (/^(TEXCOORD_[2-9]|COLOR_[1-9]|JOINTS_[1-9]|WEIGHTS_[1-9])/.test(sem)) {
      warnings.warn('ATTRIBUTE_DROPPED', `${label}: ${sem} has no place in a UNIGINE mesh; dropped`);
    }
  }
  const tri = triangleVertices(prim, ex, g.idx, n, warnings);
  const numTri = tri.numTri;
  const infl = skin && skel.nodes.length ? surfaceInfluences(prim, skin, skel, n, warnings) : null;
  const { coordOf, numCoord } = coordinateVertices(prim, input, ex, g, infl, tri, n, warnings);
  const firstOfCoord = new Int32Array(numCoord).fill(-1);
  firstVertexOf(coordOf, n, firstOfCoord, UNUSED);
  const coordPos = scatterVec3(g.pos, firstOfCoord, new Float32Array(numCoord * 3));
  const perTriSlots = new Int32Array(numTri).fill(-1);
  lastVertexOf(tri.triOf, n, perTriSlots, UNUSED);
  const tangents = tangentFrames(prim, label, g, uv0, perTriSlots, numTri, n, warnings);
  const uvOut0 = uv0 ? scatterF32(uv0, perTriSlots, 2, new Float32Array(numTri * 2)) : new Float32Array(0);
  const uvOut1 = uv1 ? scatterF32(uv1, perTriSlots, 2, new Float32Array(numTri * 2)) : new Float32Array(0);
  const colors = surfaceColors(prim, perTriSlots, numTri, n, warnings);
  // Weights per coordinate vertex.
  const w = infl
    ? packWeights(infl.count, infl.bones, infl.values, firstOfCoord)
    : {
        weightCounts: new Uint8Array(0),
        weightStarts: new Uint32Array(1),
        weightBones: new Int16Array(0),
        weightValues: new Uint16Array(0),
      };
  const { targets, targetNames } = morphTargets(
    prim,
    label,
    ex,
    coordPos,
    firstOfCoord,
    numCoord,
    n,
    warnings,
  );
  const [xc, xt] = extraIndices(ex, numCoord, numTri);
  const coordIndices = new Uint32Array(g.idx.length + xc.length);
  const triIndices = new Uint32Array(g.idx.length + xt.length);
  cornerIndices(g.idx, coordOf, tri.triOf, coordIndices, triIndices);
  coordIndices.set(xc, g.idx.length);
  triIndices.set(xt, g.idx.length);
  const name =
    typeof ex.surface === 'string' ? ex.surface : prim.getMaterial()?.getName() || input.defaultName;
  return {
    name,
    bounds: chooseBounds(computeBounds(coordPos), ex.bounds),
    targetNames,
    targets,
    tangents,
    weightCounts: w.weightCounts,
    weightStarts: w.weightStarts,
    weightBones: w.weightBones,
    weightValues: w.weightValues,
    uv0: uvOut0,
    uv1: uvOut1,
    colors,
    coordIndices,
    triIndices,
  };
}
