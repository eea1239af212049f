/**
 * Export, meshes: a node's glTF mesh and skin → a Grimrock mesh entity (one MeshData with a
 * segment per primitive, the vertex arrays packed by `arrays.ts`, bones from the skin).
 */
import { accessorFloats, ExportError, flipWinding, type WarningCollector } from '@gltf-legacy/core';
import type { Material, Mesh, Node, Primitive } from '@gltf-transform/core';
import {
  decodeFloat,
  decodeFloats,
  defaultLayout,
  elementCount,
  type Layout,
  packArrays,
  type PackStats,
} from '../arrays.js';
import { type EmptyMeshExtras, type GrimrockNodeExtras, gx, type MeshExtras } from '../extras.js';
import { gltfToMat4x3 } from '../mat.js';
import {
  type Bone,
  type MeshData,
  type MeshEntity,
  type Segment,
  VA_BITANGENT,
  VA_BONE_INDEX,
  VA_BONE_WEIGHT,
  VA_COLOR,
  VA_NORMAL,
  VA_POSITION,
  VA_TANGENT,
  VA_TEXCOORD0,
  VERTEX_ARRAY_COUNT,
  type VertexArray,
} from '../model.js';
import { positionReader, positionsOf, radius } from './bounds.js';

export function exportMeshEntity(
  node: Node,
  indexOf: Map<Node, number>,
  warnings: WarningCollector,
  nodeName: string,
  used: Set<Material | null>,
): MeshEntity | undefined {
  const ex = gx<GrimrockNodeExtras>(node)?.meshEntity;
  const mesh = node.getMesh();
  const emissiveColor = Float32Array.from(decodeFloats(ex?.emissiveColor, 3) ?? [0, 0, 0]);
  const castShadow = typeof ex?.castShadow === 'number' ? ex.castShadow : 1;
  if (!mesh) {
    const em = ex?.emptyMesh;
    if (!em) return undefined;
    return { mesh: emptyMeshData(em), bones: [], emissiveColor, castShadow };
  }
  const data = exportMesh(mesh, node, warnings, used);
  if (!data) return undefined;
  const bones: Bone[] = [];
  const skin = node.getSkin();
  if (skin && data.skinned) {
    const joints = skin.listJoints();
    const ibm = skin.getInverseBindMatrices();
    const m = ibm ? accessorFloats(ibm) : null;
    joints.forEach((j, i) => {
      const idx = indexOf.get(j);
      if (idx === undefined) {
        throw new ExportError(
          'JOINT_NOT_EXPORTED',
          `joint "${j.getName()}" of the skin of "${nodeName}" is not in the exported scene`,
        );
      }
      const g =
        m && m.length >= (i + 1) * 16
          ? m.subarray(i * 16, i * 16 + 16)
          : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      bones.push({ nodeIndex: idx, invRestMatrix: gltfToMat4x3(g) });
    });
  }
  return { mesh: data.mesh, bones, emissiveColor, castShadow };
}

export function emptyMeshData(em: EmptyMeshExtras): MeshData {
  const layouts = em.arrays ?? [];
  const b = em.bounds && {
    center: decodeFloats(em.bounds.center, 3),
    radius: decodeFloat(em.bounds.radius),
    min: decodeFloats(em.bounds.min, 3),
    max: decodeFloats(em.bounds.max, 3),
  };
  return {
    magic: 'MESH',
    version: em.version ?? 2,
    numVertices: em.numVertices ?? 0,
    arrays: Array.from({ length: VERTEX_ARRAY_COUNT }, (_, i) => {
      const l = layouts[i] ?? [0, 0, 0];
      return {
        dataType: l[0],
        dim: l[1],
        stride: (em.numVertices ?? 0) > 0 ? 0 : l[2],
        data: new Uint8Array(0),
      };
    }),
    indices: Int32Array.from(em.indices ?? []),
    segments: (em.segments ?? []).map((s) => ({ ...s })),
    boundCenter: Float32Array.from(b?.center ?? [0, 0, 0]),
    boundRadius: b?.radius ?? 0,
    boundMin: Float32Array.from(b?.min ?? [0, 0, 0]),
    boundMax: Float32Array.from(b?.max ?? [0, 0, 0]),
  };
}

const TRIANGLES = 4;

/**
 * Packs a glTF mesh (all triangle primitives) into one MeshData with a segment per primitive;
 * adds the material of each segment written to `used`.
 */
export function exportMesh(
  mesh: Mesh,
  node: Node,
  warnings: WarningCollector,
  used: Set<Material | null>,
): { mesh: MeshData; skinned: boolean } | null {
  const ex = gx<MeshExtras>(mesh);
  const prims = mesh.listPrimitives().filter((p) => {
    const mode = p.getMode();
    if (mode === TRIANGLES || mode === 5 || mode === 6) {
      if (!p.getAttribute('POSITION')) {
        warnings.warn(
          'PRIMITIVE_DROPPED',
          `a primitive of mesh "${mesh.getName()}" has no POSITION; dropped`,
        );
        return false;
      }
      return true;
    }
    warnings.warn(
      'PRIMITIVE_DROPPED',
      `mesh "${mesh.getName()}" has a points/lines primitive; Grimrock meshes are triangle lists, dropped`,
    );
    return false;
  });
  if (!prims.length) return null;
  const skinned =
    !!node.getSkin() && prims.some((p) => p.getAttribute('JOINTS_0') && p.getAttribute('WEIGHTS_0'));
  for (const p of prims) {
    if (p.listTargets().length)
      warnings.warn(
        'MORPH_TARGETS_DROPPED',
        `morph targets of mesh "${mesh.getName()}" dropped (Grimrock has none)`,
      );
    for (const sem of p.listSemantics()) {
      const known =
        /^(POSITION|NORMAL|TANGENT|COLOR_0|JOINTS_[0-9]+|WEIGHTS_[0-9]+)$/.test(sem) ||
        /^TEXCOORD_[0-7]$/.test(sem) ||
        sem.startsWith('_GRIMROCK_');
      if (!known) {
        warnings.warn(
          'ATTRIBUTE_DROPPED',
          `attribute ${sem} of mesh "${mesh.getName()}" has no Grimrock vertex array; dropped`,
        );
        continue;
      }
      // A corrupt accessor (count or bufferView not matching) can hold a partial element: the
      // vertex count would be fractional. Refuse it rather than guess which vertices it meant.
      const a = p.getAttribute(sem)!;
      const len = a.getArray()?.length ?? 0;
      if (len % a.getElementSize() !== 0)
        throw new ExportError(
          'BAD_ACCESSOR',
          `attribute ${sem} of mesh "${mesh.getName()}" holds ${len} values, not a whole number of ${a.getType()} elements (its count does not match its data)`,
        );
    }
  }
  // Layouts: as imported, else the defaults for what the primitives carry.
  let layouts: Layout[];
  if (Array.isArray(ex?.arrays) && ex.arrays.length === VERTEX_ARRAY_COUNT)
    layouts = ex.arrays.map((l) => [l[0], l[1], l[2]] as Layout);
  else {
    const has = (s: string) => prims.some((p) => !!p.getAttribute(s));
    layouts = Array.from({ length: VERTEX_ARRAY_COUNT }, () => [0, 0, 0] as Layout);
    const use = (slot: number) => {
      layouts[slot] = defaultLayout(slot);
    };
    use(VA_POSITION);
    if (has('NORMAL')) use(VA_NORMAL);
    if (has('TANGENT') && has('NORMAL')) {
      use(VA_TANGENT);
      use(VA_BITANGENT);
    }
    if (has('COLOR_0')) use(VA_COLOR);
    for (let k = 0; k < 8; k++) if (has(`TEXCOORD_${k}`)) use(VA_TEXCOORD0 + k);
    if (skinned) {
      use(VA_BONE_INDEX);
      use(VA_BONE_WEIGHT);
    }
  }
  // Vertex sets: primitives sharing all their attribute accessors share one set.
  const sameAttrs = (a: Primitive, b: Primitive) => {
    const sa = a.listSemantics();
    const sb = b.listSemantics();
    return sa.length === sb.length && sa.every((s) => a.getAttribute(s) === b.getAttribute(s));
  };
  const stats: PackStats = { truncated: 0, renormalized: 0 };
  const sets: { prim: Primitive; base: number; arrays: VertexArray[]; n: number }[] = [];
  const setOf = new Map<Primitive, { base: number }>();
  let numVertices = 0;
  for (const p of prims) {
    const shared = sets.find((s) => sameAttrs(s.prim, p));
    if (shared) {
      setOf.set(p, shared);
      continue;
    }
    const n = elementCount(p.getAttribute('POSITION'));
    const arrays = packArrays(p, layouts, skinned, ex?.nonFinite ?? {}, stats);
    const s = { prim: p, base: numVertices, arrays, n };
    sets.push(s);
    setOf.set(p, s);
    numVertices += n;
  }
  if (stats.truncated)
    warnings.warn(
      'WEIGHTS_TRUNCATED',
      `mesh "${mesh.getName()}": vertices with more than 4 influences kept the 4 largest (renormalized)`,
      stats.truncated,
    );
  if (stats.renormalized)
    warnings.warn(
      'WEIGHTS_RENORMALIZED',
      `mesh "${mesh.getName()}": vertex weights renormalized to sum to 1`,
      stats.renormalized,
    );
  let arrays: VertexArray[] = layouts.map((l, slot) => {
    if (sets.length === 1) return sets[0].arrays[slot];
    const data = new Uint8Array(numVertices * Math.max(0, l[2]));
    let o = 0;
    for (const s of sets) {
      data.set(s.arrays[slot].data, o);
      o += s.arrays[slot].data.byteLength;
    }
    return { dataType: l[0], dim: l[1], stride: l[2], data };
  });
  // Indices and segments: validated, then written straight into the one index array.
  const segments: Segment[] = [];
  const plan: { arr: ArrayLike<number> | null; len: number; mode: number; base: number; at: number }[] = [];
  let total = 0;
  for (const p of prims) {
    const base = setOf.get(p)!.base;
    const n = elementCount(p.getAttribute('POSITION'));
    const arr = indexArray(p, mesh);
    const len = arr ? arr.length : n;
    // glTF requires every index < the vertex count; a file with one outside would not import back.
    // (indexArray gives unsigned integers only: no negative or fractional index gets here.)
    if (arr)
      for (let i = 0; i < len; i++)
        if (!(arr[i] < n))
          throw new ExportError(
            'BAD_INDEX',
            `${primitiveLabel(mesh, p)}: index ${arr[i]} (indices[${i}]) is outside the primitive's ${n} vertices`,
          );
    const mode = p.getMode();
    if (mode === TRIANGLES && len % 3)
      warnings.warn(
        'INDICES_TRUNCATED',
        `${primitiveLabel(mesh, p)}: ${len} indices are not a whole number of triangles; the last ${len % 3} dropped`,
      );
    const triangles = mode === TRIANGLES ? Math.floor(len / 3) : Math.max(0, len - 2);
    if (!triangles) {
      // Import drops empty segments: writing one would not survive import → export.
      warnings.warn(
        'PRIMITIVE_DROPPED',
        `a primitive of mesh "${mesh.getName()}" draws no triangle; dropped`,
      );
      continue;
    }
    const mat = p.getMaterial();
    used.add(mat);
    segments.push({
      material: mat?.getName() || 'default',
      primitiveType: 2,
      firstIndex: total,
      count: triangles,
    });
    plan.push({ arr, len, mode, base, at: total });
    total += triangles * 3;
  }
  if (total === 0 && numVertices > 0) {
    // No triangles: import keeps such a mesh as a header in extras only (no vertex data), so
    // write it that way now — otherwise the vertices would be lost on the next round trip.
    warnings.warn(
      'EMPTY_MESH',
      `mesh "${mesh.getName()}" has no triangles; its ${numVertices} vertices are not written`,
    );
    numVertices = 0;
    arrays = arrays.map((a) => ({ ...a, data: new Uint8Array(0) }));
  }
  const indices = new Int32Array(total);
  for (const t of plan) {
    const end = writeTriangles(indices, t.at, t.arr, t.len, t.mode, t.base);
    flipWinding(indices.subarray(t.at, end));
  }
  // Bounds: the imported ones while the vertex extent is unchanged, else recomputed.
  const pl = layouts[VA_POSITION];
  const pdv = new DataView(
    arrays[VA_POSITION].data.buffer,
    arrays[VA_POSITION].data.byteOffset,
    arrays[VA_POSITION].data.byteLength,
  );
  const vmin = [Infinity, Infinity, Infinity];
  const vmax = [-Infinity, -Infinity, -Infinity];
  positionsOf(pdv, numVertices, pl, vmin, vmax);
  const b = ex?.bounds && {
    center: decodeFloats(ex.bounds.center, 3),
    radius: decodeFloat(ex.bounds.radius),
    min: decodeFloats(ex.bounds.min, 3),
    max: decodeFloats(ex.bounds.max, 3),
  };
  const fmin = decodeFloats(ex?.vertexMin, 3) ?? b?.min;
  const fmax = decodeFloats(ex?.vertexMax, 3) ?? b?.max;
  let boundCenter: Float32Array;
  let boundRadius: number;
  let boundMin: Float32Array;
  let boundMax: Float32Array;
  if (
    b?.center &&
    b.min &&
    b.max &&
    b.radius !== undefined &&
    fmin &&
    fmax &&
    vmin.every((x, c) => Math.fround(x) === fmin[c]) &&
    vmax.every((x, c) => Math.fround(x) === fmax[c])
  ) {
    boundCenter = Float32Array.from(b.center);
    boundRadius = b.radius;
    boundMin = Float32Array.from(b.min);
    boundMax = Float32Array.from(b.max);
  } else {
    for (let c = 0; c < 3; c++) {
      if (!Number.isFinite(vmin[c])) vmin[c] = 0;
      if (!Number.isFinite(vmax[c])) vmax[c] = 0;
    }
    boundMin = Float32Array.from(vmin);
    boundMax = Float32Array.from(vmax);
    boundCenter = Float32Array.from([0, 1, 2].map((c) => (vmin[c] + vmax[c]) / 2));
    boundRadius = radius(positionReader(pdv, pl), numVertices, boundCenter);
  }
  return {
    skinned: skinned && total > 0, // an empty mesh imports without bones
    mesh: {
      magic: 'MESH',
      version: ex?.version ?? 2,
      numVertices,
      arrays,
      indices,
      segments,
      boundCenter,
      boundRadius,
      boundMin,
      boundMax,
    },
  };
}

/** `mesh "NAME" primitive K` for messages. */
export function primitiveLabel(mesh: Mesh, p: Primitive): string {
  return `mesh "${mesh.getName()}" primitive ${mesh.listPrimitives().indexOf(p)}`;
}

/**
 * The primitive's indices (`null`: none, draw 0..n−1). glTF indices are SCALAR unsigned
 * byte/short/int; anything else (e.g. a corrupt file whose `indices` names a float VEC3 normal
 * accessor) has no triangle meaning: its values, truncated into the int32 index array, would
 * be negative or wrong vertices, so it is refused with `BAD_ACCESSOR` instead.
 */
export function indexArray(p: Primitive, mesh: Mesh): ArrayLike<number> | null {
  const acc = p.getIndices();
  if (!acc) return null;
  const arr = acc.getArray();
  if (!arr) return null;
  if (
    acc.getType() !== 'SCALAR' ||
    !(arr instanceof Uint8Array || arr instanceof Uint16Array || arr instanceof Uint32Array)
  )
    throw new ExportError(
      'BAD_ACCESSOR',
      `${primitiveLabel(mesh, p)}: its indices accessor${acc.getName() ? ` "${acc.getName()}"` : ''} is ${acc.getType()} of ${arr.constructor.name}; glTF indices are SCALAR unsigned byte, short or int`,
    );
  return arr;
}

/**
 * Writes the triangle list (offset by `base`) of TRIANGLES (4), TRIANGLE_STRIP (5) or
 * TRIANGLE_FAN (6) indices (`null`: 0..len−1) into `out` from `at`; returns the end offset.
 */
export function writeTriangles(
  out: Int32Array,
  at: number,
  idx: ArrayLike<number> | null,
  len: number,
  mode: number,
  base: number,
): number {
  const get = idx ? (i: number) => idx[i] + base : (i: number) => i + base;
  let o = at;
  if (mode === TRIANGLES) {
    const m = len - (len % 3);
    if (idx) for (let i = 0; i < m; i++) out[o++] = idx[i] + base;
    else for (let i = 0; i < m; i++) out[o++] = i + base;
  } else if (mode === 5) {
    for (let i = 0; i + 2 < len; i++) {
      const even = i % 2 === 0;
      out[o++] = get(i);
      out[o++] = get(even ? i + 1 : i + 2);
      out[o++] = get(even ? i + 2 : i + 1);
    }
  } else {
    for (let i = 1; i + 1 < len; i++) {
      out[o++] = get(i);
      out[o++] = get(i + 1);
      out[o++] = get(0);
    }
  }
  return o;
}
