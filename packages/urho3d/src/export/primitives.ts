/**
 * glTF primitive → `VPrim`: attributes in Urho space (mirrored, node transforms baked for static
 * meshes), bone influences as bone numbers, indices in Urho winding and morph targets. The
 * shared export stage has already triangulated strips/fans, limited influences to 4 and
 * dequantized; what is left here is Urho-specific (the mirror, line loops as line strips, rigid
 * binding below a bone, repeated bones merged).
 */
import {
  type AxisMap,
  ExportError,
  accessorFloats,
  readInfluences,
  type WarningCollector,
} from '@gltf-legacy/core';
import type { Accessor, Primitive, Skin } from '@gltf-transform/core';
import { mat3, type mat4, vec3 } from 'gl-matrix';
import { PrimitiveType } from '../mdl.js';
import { flipTriangles, keepZeroDeltas, mirrorVec3 } from '../space.js';
import type { AttrValues, VPrim } from './common.js';

/** What {@link makeVPrim} needs from the export run. */
export interface PrimitiveContext {
  warnings: WarningCollector;
  /** Converted attribute values, once per accessor and key (shared vertex buffers stay shared). */
  cached(acc: Accessor, key: string, make: () => AttrValues): AttrValues;
  /** Morph target names in first-seen order (one Urho morph each). */
  targetKeys: string[];
  skinJointToBone(skin: Skin): Uint16Array;
  /** Urho3D ↔ glTF mirror (`space.ts`). */
  mirror: AxisMap;
}

/** A {@link PrimitiveContext} for one export run. */
export function primitiveContext(
  warnings: WarningCollector,
  skinJointToBone: (skin: Skin) => Uint16Array,
  mirror: AxisMap,
): PrimitiveContext {
  const convCache = new Map<Accessor, Map<string, AttrValues>>();
  return {
    warnings,
    targetKeys: [],
    skinJointToBone,
    mirror,
    cached(acc, key, make) {
      let m = convCache.get(acc);
      if (!m) convCache.set(acc, (m = new Map()));
      let v = m.get(key);
      if (!v) m.set(key, (v = make()));
      return v;
    },
  };
}

/**
 * An accessor whose array is not a whole number of elements (glTF-Transform gives such an
 * accessor, e.g. a count cut short by its buffer, a fractional `getCount()`) cannot be written:
 * ExportError `BAD_ACCESSOR` instead of a model with a fractional vertex or index count.
 */
export function wholeCount(acc: Accessor, what: string, meshName: string): void {
  const len = acc.getArray()?.length ?? 0;
  if (len % acc.getElementSize() !== 0)
    throw new ExportError(
      'BAD_ACCESSOR',
      `the ${what} accessor of a primitive of mesh "${meshName}" holds ${len} values, not a whole number of ${acc.getType()} elements (invalid glTF)`,
    );
}

const PRIM_TYPE_BY_MODE: Record<number, number> = {
  0: PrimitiveType.POINT_LIST,
  1: PrimitiveType.LINE_LIST,
  3: PrimitiveType.LINE_STRIP,
};

/**
 * One glTF primitive as a VPrim (null when nothing of it can be written), in steps: the bake of
 * a static mesh's node transform, attributes, influences, indices, morph targets.
 */
export function makeVPrim(
  ctx: PrimitiveContext,
  prim: Primitive,
  geometry: number,
  lod: number,
  skin: Skin | null,
  bake: Float32Array | null,
  targetNames: string[],
  meshName: string,
  rigidBone: number,
): VPrim | null {
  const pos = prim.getAttribute('POSITION');
  if (!pos) {
    ctx.warnings.warn('PRIMITIVE_DROPPED', 'a primitive without POSITION was dropped');
    return null;
  }
  const vertexCount = pos.getCount();
  wholeCount(pos, 'POSITION', meshName);
  if (pos.getType() !== 'VEC3')
    throw new ExportError(
      'BAD_ACCESSOR',
      `the POSITION accessor of a primitive of mesh "${meshName}" is ${pos.getType()}, not VEC3 (invalid glTF)`,
    );
  const b = bakeOf(bake);
  const attrs = primitiveAttributes(ctx, prim, vertexCount, b);
  const { joints, weights, rawBlend } = primitiveInfluences(ctx, prim, skin, vertexCount, rigidBone);
  attrs.delete('_URHO_BLENDINDICES');
  const idx = primitiveIndices(ctx, prim, vertexCount, meshName, b.flipDet);
  if (!idx) return null;
  return {
    geometry,
    lod,
    distance: 0,
    vbKey: `${pos.getName()}#${convKey(pos)}|${b.key}`,
    vertexCount,
    attrs,
    joints,
    weights,
    rawBlend,
    indices: idx.indices,
    primitiveType: idx.primitiveType,
    targets: primitiveTargets(ctx, prim, vertexCount, b, targetNames, meshName),
    material: prim.getMaterial(),
  };
}

/** A static mesh's node transform, with what normals and winding need of it. */
interface Bake {
  matrix: Float32Array | null;
  /** Cache key part: converted values are shared per accessor and bake. */
  key: string;
  normalMat: mat3 | null;
  linear: mat3 | null;
  /** The transform mirrors (negative determinant): the winding is already reversed. */
  flipDet: boolean;
}

function bakeOf(bake: Float32Array | null): Bake {
  // a singular bake (a node scaled by 0, legal glTF) has no normal matrix: normals stay as
  // they are rather than collapsing (gl-matrix returns null there)
  const normalMat = bake
    ? (mat3.normalFromMat4(mat3.create(), bake as unknown as mat4) ?? mat3.create())
    : null;
  const linear = bake ? mat3.fromMat4(mat3.create(), bake as unknown as mat4) : null;
  return {
    matrix: bake,
    key: bake ? Array.from(bake).join(',') : '',
    normalMat,
    linear,
    flipDet: linear ? mat3.determinant(linear) < 0 : false,
  };
}

/** The glTF type of the attributes Urho3D stores as vectors (anything else is invalid glTF). */
const VERTEX_TYPES: Record<string, string> = { POSITION: 'VEC3', NORMAL: 'VEC3', TANGENT: 'VEC4' };

/** Vertex attributes in Urho space (POSITION/NORMAL/TANGENT baked and mirrored; others as stored). */
function primitiveAttributes(
  ctx: PrimitiveContext,
  prim: Primitive,
  vertexCount: number,
  b: Bake,
): VPrim['attrs'] {
  const { warnings, cached } = ctx;
  const bake = b.matrix;
  const { normalMat, linear } = b;
  const bakeKey = b.key;
  const attrs: VPrim['attrs'] = new Map();
  for (const sem of prim.listSemantics()) {
    const acc = prim.getAttribute(sem)!;
    if (acc.getCount() !== vertexCount) continue;
    if (sem.startsWith('JOINTS_') || sem.startsWith('WEIGHTS_')) continue;
    const comps = acc.getElementSize();
    if (acc.getType() !== (VERTEX_TYPES[sem] ?? acc.getType())) {
      warnings.warn(
        'ATTRIBUTE_DROPPED',
        `attribute ${sem} is ${acc.getType()}, not ${VERTEX_TYPES[sem]}; dropped`,
      );
      continue;
    }
    if (sem === 'POSITION' || sem === 'NORMAL' || sem === 'TANGENT') {
      const values = cached(acc, `${sem}|${bakeKey}`, () => {
        const v = accessorFloats(acc).slice();
        const stride = comps;
        if (bake) {
          const t = vec3.create();
          for (let i = 0; i + 2 < v.length; i += stride) {
            vec3.set(t, v[i], v[i + 1], v[i + 2]);
            if (sem === 'POSITION') vec3.transformMat4(t, t, bake as unknown as mat4);
            else {
              vec3.transformMat3(t, t, sem === 'NORMAL' ? normalMat! : linear!);
              vec3.normalize(t, t);
            }
            v[i] = t[0];
            v[i + 1] = t[1];
            v[i + 2] = t[2];
          }
        }
        mirrorVec3(v, stride, ctx.mirror);
        return v;
      });
      attrs.set(sem, { values, comps, normalizedU8: false });
    } else if (sem.startsWith('COLOR_') || sem.startsWith('TEXCOORD_') || sem.startsWith('_URHO_')) {
      const raw = sem.startsWith('_URHO_');
      const arr = acc.getArray()!;
      const u8n = arr instanceof Uint8Array && acc.getNormalized() && comps === 4;
      const values = raw || u8n ? (arr as AttrValues) : accessorFloats(acc);
      attrs.set(sem, { values, comps, normalizedU8: u8n });
    } else {
      warnings.warn('ATTRIBUTE_DROPPED', `attribute ${sem} has no Urho3D vertex element; dropped`);
    }
  }
  return attrs;
}

/** Bone numbers and weights (4 per vertex): the skin's, or a rigid bind to `rigidBone`. */
function primitiveInfluences(
  ctx: PrimitiveContext,
  prim: Primitive,
  skin: Skin | null,
  vertexCount: number,
  rigidBone: number,
): { joints: Uint16Array | null; weights: Float32Array | null; rawBlend: Uint8Array | null } {
  const { warnings } = ctx;
  let joints: Uint16Array | null = null;
  let weights: Float32Array | null = null;
  let rawBlend: Uint8Array | null = null;
  if (skin && prim.getAttribute('JOINTS_0') && prim.getAttribute('WEIGHTS_0')) {
    const map = ctx.skinJointToBone(skin);
    const j0 = prim.getAttribute('JOINTS_0')!;
    const w0 = prim.getAttribute('WEIGHTS_0')!;
    if (!prim.getAttribute('JOINTS_1') && j0.getElementSize() === 4) {
      joints = mapJoints(j0.getArray()!, map);
      weights = accessorFloats(w0).slice();
    } else {
      const inf = readInfluences(prim, 4)!;
      if (inf.truncated) {
        warnings.warn(
          'WEIGHTS_TRUNCATED',
          'more than 4 bone influences on a vertex; kept the 4 largest and renormalized',
          inf.truncated,
        );
      }
      joints = new Uint16Array(inf.joints.length);
      for (let i = 0; i < joints.length; i++) joints[i] = map[inf.joints[i]] ?? 0;
      weights = inf.weights;
    }
    mergeRepeatedBones(joints!, weights!);
    const rb = prim.getAttribute('_URHO_BLENDINDICES');
    if (rb?.getArray() instanceof Uint8Array && rb.getCount() === vertexCount)
      rawBlend = rb.getArray() as Uint8Array;
  }
  if (!joints && rigidBone >= 0) {
    joints = new Uint16Array(vertexCount * 4);
    weights = new Float32Array(vertexCount * 4);
    for (let v = 0; v < vertexCount; v++) {
      joints[v * 4] = rigidBone;
      weights[v * 4] = 1;
    }
  }
  return { joints, weights, rawBlend };
}

/** A bone listed twice with weight on a vertex (or joints past the skin, mapped to bone 0): merged. */
function mergeRepeatedBones(jj: Uint16Array, ww: Float32Array): void {
  for (let v = 0; v + 3 < jj.length; v += 4) {
    for (let c = 1; c < 4; c++) {
      if (!(ww[v + c] > 0)) continue;
      for (let p = 0; p < c; p++) {
        if (jj[v + p] === jj[v + c] && ww[v + p] > 0) {
          ww[v + p] += ww[v + c];
          ww[v + c] = 0;
          jj[v + c] = 0;
          break;
        }
      }
    }
  }
}

/** Indices in Urho winding and the Urho primitive type; null (with a warning) when none is left. */
function primitiveIndices(
  ctx: PrimitiveContext,
  prim: Primitive,
  vertexCount: number,
  meshName: string,
  flipDet: boolean,
): { indices: Uint32Array; primitiveType: number } | null {
  const { warnings } = ctx;
  const mode = prim.getMode();
  const idxAcc = prim.getIndices();
  if (idxAcc) wholeCount(idxAcc, 'indices', meshName);
  const n = idxAcc ? idxAcc.getCount() : vertexCount;
  const src = idxAcc?.getArray();
  let idx = new Uint32Array(n);
  if (src) idx.set(src.length === n ? src : src.subarray(0, n));
  else for (let i = 0; i < n; i++) idx[i] = i;
  const bad = firstIndexAtOrAbove(idx, vertexCount);
  if (bad >= 0) {
    throw new ExportError(
      'BAD_INDEX',
      `a primitive of mesh "${meshName}" has index ${idx[bad]} past its ${vertexCount} vertices (invalid glTF)`,
    );
  }
  let primitiveType: number;
  if (mode === 5 || mode === 6) {
    // The shared stage (urhoLimits) makes strips and fans triangle lists before this map.
    warnings.warn('PRIMITIVE_DROPPED', 'a triangle strip / fan reached the map without prepare(); dropped');
    return null;
  }
  if (mode === 4) {
    if (!flipDet) flipTriangles(idx);
    primitiveType = PrimitiveType.TRIANGLE_LIST;
  } else if (mode === 2) {
    const loop = new Uint32Array(n + 1);
    loop.set(idx);
    loop[n] = idx[0];
    idx = loop;
    primitiveType = PrimitiveType.LINE_STRIP;
  } else primitiveType = PRIM_TYPE_BY_MODE[mode] ?? PrimitiveType.TRIANGLE_LIST;
  const per =
    primitiveType === PrimitiveType.TRIANGLE_LIST ? 3 : primitiveType === PrimitiveType.LINE_LIST ? 2 : 1;
  if (idx.length % per) {
    warnings.warn('INDICES_TRUNCATED', 'a primitive ended with an incomplete triangle / line; dropped it');
    idx = idx.slice(0, idx.length - (idx.length % per));
  }
  if (!idx.length) {
    warnings.warn(
      'PRIMITIVE_DROPPED',
      'a primitive without a single complete triangle / line / point was dropped',
    );
    return null;
  }
  return { indices: idx, primitiveType };
}

/** Morph targets in Urho space, named (target name, mesh `targetNames`, or `<mesh>_<i>`). */
function primitiveTargets(
  ctx: PrimitiveContext,
  prim: Primitive,
  vertexCount: number,
  b: Bake,
  targetNames: string[],
  meshName: string,
): VPrim['targets'] {
  const { cached, targetKeys } = ctx;
  const { normalMat, linear } = b;
  const bakeKey = b.key;
  const targets: VPrim['targets'] = [];
  prim.listTargets().forEach((t, ti) => {
    const key = t.getName() || targetNames[ti] || `${meshName}_${ti}`;
    if (!targetKeys.includes(key)) targetKeys.push(key);
    const conv = (sem: string): Float32Array | undefined => {
      const acc = t.getAttribute(sem);
      // morph deltas are VEC3 for all three (glTF); another type is invalid glTF: not a delta
      if (!acc || acc.getCount() !== vertexCount || acc.getType() !== 'VEC3') return undefined;
      return cached(acc, `target|${bakeKey}`, () => {
        const src = accessorFloats(acc);
        const v = src.slice();
        if (linear) {
          const tmp = vec3.create();
          for (let i = 0; i + 2 < v.length; i += 3) {
            vec3.set(tmp, v[i], v[i + 1], v[i + 2]);
            vec3.transformMat3(tmp, tmp, sem === 'NORMAL' ? normalMat! : linear);
            v.set(tmp, i);
          }
        }
        mirrorVec3(v, 3, ctx.mirror);
        keepZeroDeltas(v, src); // as the import wrote them (a sparse target's zeros are +0)
        return v;
      }) as Float32Array;
    };
    targets.push({ key, pos: conv('POSITION'), nrm: conv('NORMAL'), tan: conv('TANGENT') });
  });
  return targets;
}

/** First position whose index is not below `count` (NaN too), or -1. */
export function firstIndexAtOrAbove(idx: Uint32Array, count: number): number {
  for (let i = 0; i < idx.length; i++) if (!(idx[i] < count)) return i;
  return -1;
}

/** glTF JOINTS_0 values → bone numbers through `map` (joints past it → bone 0). */
export function mapJoints(ja: ArrayLike<number>, map: ArrayLike<number>): Uint16Array {
  const table = new Int32Array(map.length);
  for (let i = 0; i < map.length; i++) table[i] = map[i] ?? 0;
  const out = new Uint16Array(ja.length);
  const n = table.length;
  for (let i = 0; i < ja.length; i++) {
    const j = ja[i];
    out[i] = j < n ? table[j] : 0;
  }
  return out;
}

export function convKey(acc: Accessor): string {
  // Identity of an accessor within one export run.
  let id = accIds.get(acc);
  if (id === undefined) accIds.set(acc, (id = nextAccId++));
  return String(id);
}
const accIds = new WeakMap<Accessor, number>();
let nextAccId = 0;
