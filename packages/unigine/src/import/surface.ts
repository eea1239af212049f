/**
 * Import of one `.mesh` surface as a glTF primitive: coordinate and triangle vertices paired
 * into glTF vertices, tangent frames, weights, morph targets, and the raw values export needs.
 */
import { FormatError, convertVec3 } from '@gltf-legacy/core';
import type { Primitive } from '@gltf-transform/core';
import { UNIGINE_TO_GLTF } from '../axes.js';
import {
  coordOfTriVerts,
  decodeTangentQuats,
  gatherF32,
  gatherU8,
  gatherVec3,
  morphDeltas,
  vertexInfluences,
} from './kernels.js';
import type { MeshSurface } from '../mesh.js';
import {
  ATTR_COORD,
  ATTR_TBN,
  ATTR_TRI,
  ATTR_WBONES,
  ATTR_WCOUNT,
  ATTR_WVALUES,
  type UnigineSurfaceExtras,
} from '../extras.js';
import { type Ctx, accessor, f32 } from './context.js';

/** glTF vertices as (coordinate, triangle) vertex pairs, and the triangle list over them. */
interface VertexPairs {
  vTri: Uint32Array;
  vCoord: Uint32Array;
  indices: Uint32Array;
  /** True when glTF vertex k is triangle vertex k (no `_UNIGINE_TRI` needed). */
  simple: boolean;
}

/**
 * Step 1: the index counts checked (`INDEX_COUNT_MISMATCH`; a count not a multiple of 3 is the
 * tolerated `INDICES_NOT_TRIANGLES` quirk unless strict); returns how many indices are extra.
 */
function checkIndexCounts(ctx: Ctx, s: MeshSurface, si: number): number {
  const ni = s.triIndices.length;
  if (s.coordIndices.length !== ni) {
    throw new FormatError(
      `surface "${s.name}" has ${s.coordIndices.length} coordinate indices but ${ni} triangle indices`,
      { code: 'INDEX_COUNT_MISMATCH', field: `surfaces[${si}]` },
    );
  }
  const extra = ni % 3;
  if (extra && ctx.strict)
    throw new FormatError(`surface "${s.name}" has ${ni} indices, not a multiple of 3`, {
      code: 'INDICES_NOT_TRIANGLES',
      field: `surfaces[${si}].triIndices`,
    });
  if (extra)
    ctx.warnings.warn(
      'INDICES_NOT_TRIANGLES',
      `surface "${s.name}" (surfaces[${si}]) has ${ni} indices, not a multiple of 3; the last ${extra} are no triangle and are kept in extras`,
      extra,
    );
  return extra;
}

/**
 * Step 2: glTF vertices. Normally each triangle vertex has one coordinate vertex and glTF vertex
 * k is triangle vertex k; otherwise each distinct (coordinate, triangle) pair is a vertex
 * (`VERTICES_SPLIT`).
 */
function vertexPairs(ctx: Ctx, s: MeshSurface, nt: number, whole: number): VertexPairs {
  const coordOf = coordOfTriVerts(s.triIndices, s.coordIndices, nt);
  if (coordOf) {
    const vTri = new Uint32Array(nt);
    for (let t = 0; t < nt; t++) vTri[t] = t;
    const vCoord = new Uint32Array(coordOf.buffer, coordOf.byteOffset, nt);
    return { vTri, vCoord, indices: s.triIndices.slice(0, whole), simple: true };
  }
  const map = new Map<string, number>();
  const tri: number[] = [];
  const crd: number[] = [];
  const indices = new Uint32Array(whole);
  for (let i = 0; i < indices.length; i++) {
    const key = `${s.coordIndices[i]},${s.triIndices[i]}`;
    let v = map.get(key);
    if (v === undefined) {
      v = tri.length;
      map.set(key, v);
      tri.push(s.triIndices[i]);
      crd.push(s.coordIndices[i]);
    }
    indices[i] = v;
  }
  if (map.size !== nt)
    ctx.warnings.warn(
      'VERTICES_SPLIT',
      `surface "${s.name}": triangle vertices shared by several positions were split (or unused ones dropped)`,
    );
  return { vTri: new Uint32Array(tri), vCoord: new Uint32Array(crd), indices, simple: false };
}

/** Step 3: per-triangle-vertex attributes — tangent frames (NORMAL, TANGENT, raw codes), UVs, colours. */
function triangleAttributes(ctx: Ctx, prim: Primitive, s: MeshSurface, v: VertexPairs, nt: number): void {
  const { doc, buffer, warnings } = ctx;
  const n = v.vTri.length;
  if (nt > 0) {
    const nrm = new Float32Array(n * 3);
    const tan = new Float32Array(n * 4);
    const tbn = new Int16Array(n * 4);
    decodeTangentQuats(s.tangents, v.vTri, n, nrm, tan, tbn);
    convertVec3(UNIGINE_TO_GLTF, nrm);
    convertVec3(UNIGINE_TO_GLTF, tan, 4);
    prim.setAttribute('NORMAL', accessor(doc, buffer, 'VEC3', nrm));
    prim.setAttribute('TANGENT', accessor(doc, buffer, 'VEC4', tan));
    prim.setAttribute(ATTR_TBN, accessor(doc, buffer, 'VEC4', tbn));
  }
  const fits = (count: number, what: string): boolean => {
    if (count === 0) return false;
    if (count !== nt) {
      warnings.warn(
        'ATTRIBUTE_DROPPED',
        `surface "${s.name}": ${what} has ${count} entries for ${nt} triangle vertices; dropped`,
      );
      return false;
    }
    return true;
  };
  if (fits(s.uv0.length / 2, 'UV set 0'))
    prim.setAttribute('TEXCOORD_0', accessor(doc, buffer, 'VEC2', gatherF32(s.uv0, v.vTri, n, 2)));
  if (fits(s.uv1.length / 2, 'UV set 1'))
    prim.setAttribute('TEXCOORD_1', accessor(doc, buffer, 'VEC2', gatherF32(s.uv1, v.vTri, n, 2)));
  if (fits(s.colors.length / 4, 'colours'))
    prim.setAttribute('COLOR_0', accessor(doc, buffer, 'VEC4', gatherU8(s.colors, v.vTri, n, 4), true));
}

/** Step 4: skin weights per coordinate vertex → JOINTS_0/WEIGHTS_0 (+ the raw records when ≤ 4). */
function skinWeights(
  ctx: Ctx,
  prim: Primitive,
  s: MeshSurface,
  v: VertexPairs,
  nc: number,
  boneCount: number,
): void {
  const { doc, buffer, warnings } = ctx;
  const nw = s.weightCounts.length;
  if (nw === 0 || boneCount === 0) return;
  if (nw !== nc) {
    warnings.warn(
      'ATTRIBUTE_DROPPED',
      `surface "${s.name}": ${nw} weight records for ${nc} coordinate vertices; weights dropped`,
    );
    return;
  }
  const n = v.vTri.length;
  const inf = vertexInfluences(
    s.weightCounts,
    s.weightStarts,
    s.weightBones,
    s.weightValues,
    v.vCoord,
    n,
    boneCount,
  );
  warnings.warn(
    'WEIGHTS_TRUNCATED',
    `surface "${s.name}": vertices with more than 4 influences kept the 4 largest`,
    inf.truncated,
  );
  warnings.warn('BAD_BONE_INDEX', `surface "${s.name}": influences naming no bone were ignored`, inf.badBone);
  prim.setAttribute('JOINTS_0', accessor(doc, buffer, 'VEC4', inf.joints));
  prim.setAttribute('WEIGHTS_0', accessor(doc, buffer, 'VEC4', inf.weights));
  if (inf.raw) {
    prim.setAttribute(ATTR_WCOUNT, accessor(doc, buffer, 'SCALAR', inf.wc));
    prim.setAttribute(ATTR_WBONES, accessor(doc, buffer, 'VEC4', inf.wb));
    prim.setAttribute(ATTR_WVALUES, accessor(doc, buffer, 'VEC4', inf.wv));
  }
}

/** Step 5: morph targets 1… (target 0 is the base shape) as POSITION deltas. */
function morphTargets(ctx: Ctx, prim: Primitive, s: MeshSurface, v: VertexPairs, nc: number): void {
  const { doc, buffer, warnings } = ctx;
  const base = s.targets[0];
  for (let t = 1; t < s.targets.length; t++) {
    const tp = s.targets[t];
    if (tp.length !== base.length) {
      warnings.warn(
        'MORPH_TARGET_DROPPED',
        `surface "${s.name}": morph target "${s.targetNames[t]}" has ${tp.length / 3} vertices, not ${nc}; dropped`,
      );
      continue;
    }
    const d = morphDeltas(tp, base, v.vCoord, v.vTri.length);
    convertVec3(UNIGINE_TO_GLTF, d);
    prim.addTarget(
      doc.createPrimitiveTarget(s.targetNames[t]).setAttribute('POSITION', accessor(doc, buffer, 'VEC3', d)),
    );
  }
}

/**
 * One `.mesh` surface → a glTF primitive with a material named after the surface, and the raw
 * values export needs (`_UNIGINE_*` attributes, `extras.unigine`).
 *
 * ```ts
 * const prim = buildPrimitive(ctx, mesh.surfaces[0], 0, mesh.bones.length);
 * ```
 */
export function buildPrimitive(ctx: Ctx, s: MeshSurface, si: number, boneCount: number): Primitive {
  const { doc, buffer } = ctx;
  const nc = s.targets[0].length / 3;
  const nt = s.tangents.length / 4;
  const ni = s.triIndices.length;
  const extra = checkIndexCounts(ctx, s, si);
  const v = vertexPairs(ctx, s, nt, ni - extra);
  const n = v.vTri.length;
  const pos = gatherVec3(s.targets[0], v.vCoord, n);
  convertVec3(UNIGINE_TO_GLTF, pos);
  const prim = doc.createPrimitive().setAttribute('POSITION', accessor(doc, buffer, 'VEC3', pos));
  triangleAttributes(ctx, prim, s, v, nt);
  // glTF forbids UNSIGNED_INT attributes: u16 when it fits, else float (exact below 2^24).
  const indexAttr = (a: Uint32Array, count: number) =>
    count <= 65536 ? new Uint16Array(a) : new Float32Array(a);
  prim.setAttribute(ATTR_COORD, accessor(doc, buffer, 'SCALAR', indexAttr(v.vCoord, nc)));
  if (!v.simple) prim.setAttribute(ATTR_TRI, accessor(doc, buffer, 'SCALAR', indexAttr(v.vTri, nt)));
  skinWeights(ctx, prim, s, v, nc, boneCount);
  morphTargets(ctx, prim, s, v, nc);
  prim.setIndices(accessor(doc, buffer, 'SCALAR', n < 65536 ? new Uint16Array(v.indices) : v.indices));
  prim.setMaterial(doc.createMaterial(s.name).setMetallicFactor(0).setRoughnessFactor(0.8));
  const extras: UnigineSurfaceExtras = {
    surface: s.name,
    bounds: f32(s.bounds),
    targetNames: s.targetNames,
    numCoordVerts: nc,
    numTriVerts: nt,
  };
  if (extra)
    extras.extraIndices = [
      Array.from(s.coordIndices.subarray(ni - extra)),
      Array.from(s.triIndices.subarray(ni - extra)),
    ];
  prim.setExtras({ unigine: extras });
  return prim;
}
