/**
 * Export of one prepared glTF primitive as a `.mesh` surface: indices, positions, tangent frames,
 * UVs, colours, weights and morph targets.
 */
import {
  ExportError,
  type WarningCollector,
  accessorFloats,
  convertVec3,
  readInfluences,
} from '@gltf-legacy/core';
import { encodeWeightU16 } from '@gltf-legacy/quantize';
import type { Node, Primitive, Skin } from '@gltf-transform/core';
import { mat4, vec3 } from 'gl-matrix';
import { GLTF_TO_UNIGINE, UNIGINE_TO_GLTF } from '../axes.js';
import {
  ATTR_COORD,
  ATTR_TBN,
  ATTR_TRI,
  ATTR_WBONES,
  ATTR_WCOUNT,
  ATTR_WVALUES,
  type UnigineSurfaceExtras,
} from '../extras.js';
import { CHUNK } from '../kernels.js';
import {
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
