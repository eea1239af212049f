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
import {
  type EmptyMeshExtras,
  type GrimrockNodeExtras,
  gx,
  keptNonFinite,
  type MeshExtras,
} from '../extras.js';
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
import { meshBounds } from './bounds.js';

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

/**
 * Packs a glTF mesh of the prepared document (triangle lists only) into one MeshData with a
 * segment per primitive; adds the material of each segment written to `used`.
 */
export function exportMesh(
  mesh: Mesh,
  node: Node,
  warnings: WarningCollector,
  used: Set<Material | null>,
): { mesh: MeshData; skinned: boolean } | null {
  const ex = gx<MeshExtras>(mesh);
  const prims = mesh.listPrimitives();
  if (!prims.length) return null;
  const skinned =
    !!node.getSkin() && prims.some((p) => p.getAttribute('JOINTS_0') && p.getAttribute('WEIGHTS_0'));
  checkAttributes(mesh, warnings);
  const layouts = vertexLayouts(ex, prims, skinned);
  const vertices = packVertices(mesh, layouts, skinned, ex, warnings);
  const { indices, segments } = writeSegments(mesh, vertices.base, warnings, used);
  let { arrays, numVertices } = vertices;
  if (indices.length === 0 && numVertices > 0) {
    // No triangles: import keeps such a mesh as a header in extras only (no vertex data), so
    // write it that way now — otherwise the vertices would be lost on the next round trip.
    warnings.warn(
      'EMPTY_MESH',
      `mesh "${mesh.getName()}" has no triangles; its ${numVertices} vertices are not written`,
    );
    numVertices = 0;
    arrays = arrays.map((a) => ({ ...a, data: new Uint8Array(0) }));
  }
  return {
    skinned: skinned && indices.length > 0, // an empty mesh imports without bones
    mesh: {
      magic: 'MESH',
      version: ex?.version ?? 2,
      numVertices,
      arrays,
      indices,
      segments,
      ...meshBounds(arrays[VA_POSITION], numVertices, ex),
    },
  };
}

/**
 * Warns of what has no Grimrock vertex array (morph targets, other attributes) and refuses an
 * attribute whose accessor holds a partial element (`BAD_ACCESSOR`).
 */
function checkAttributes(mesh: Mesh, warnings: WarningCollector): void {
  for (const p of mesh.listPrimitives()) {
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
}

/** The 15 vertex array layouts: as imported, else the defaults for what the primitives carry. */
function vertexLayouts(ex: MeshExtras | undefined, prims: Primitive[], skinned: boolean): Layout[] {
  if (Array.isArray(ex?.arrays) && ex.arrays.length === VERTEX_ARRAY_COUNT)
    return ex.arrays.map((l) => [l[0], l[1], l[2]] as Layout);
  const has = (s: string) => prims.some((p) => !!p.getAttribute(s));
  const layouts = Array.from({ length: VERTEX_ARRAY_COUNT }, () => [0, 0, 0] as Layout);
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
  return layouts;
}

/**
 * The mesh's vertex arrays: one vertex set per group of primitives sharing all their attribute
 * accessors, packed (`packArrays`) and concatenated; `base` gives each primitive's first vertex.
 */
function packVertices(
  mesh: Mesh,
  layouts: Layout[],
  skinned: boolean,
  ex: MeshExtras | undefined,
  warnings: WarningCollector,
): { arrays: VertexArray[]; numVertices: number; base: Map<Primitive, number> } {
  const sameAttrs = (a: Primitive, b: Primitive) => {
    const sa = a.listSemantics();
    const sb = b.listSemantics();
    return sa.length === sb.length && sa.every((s) => a.getAttribute(s) === b.getAttribute(s));
  };
  const stats: PackStats = { renormalized: 0 };
  const nonFinite = keptNonFinite(mesh, ex?.nonFinite);
  const sets: { prim: Primitive; base: number; arrays: VertexArray[] }[] = [];
  const base = new Map<Primitive, number>();
  let numVertices = 0;
  for (const p of mesh.listPrimitives()) {
    const shared = sets.find((s) => sameAttrs(s.prim, p));
    if (shared) {
      base.set(p, shared.base);
      continue;
    }
    const arrays = packArrays(p, layouts, skinned, nonFinite, stats);
    sets.push({ prim: p, base: numVertices, arrays });
    base.set(p, numVertices);
    numVertices += elementCount(p.getAttribute('POSITION'));
  }
  if (stats.renormalized)
    warnings.warn(
      'WEIGHTS_RENORMALIZED',
      `mesh "${mesh.getName()}": vertex weights renormalized to sum to 1`,
      stats.renormalized,
    );
  const arrays: VertexArray[] = layouts.map((l, slot) => {
    if (sets.length === 1) return sets[0].arrays[slot];
    const data = new Uint8Array(numVertices * Math.max(0, l[2]));
    let o = 0;
    for (const s of sets) {
      data.set(s.arrays[slot].data, o);
      o += s.arrays[slot].data.byteLength;
    }
    return { dataType: l[0], dim: l[1], stride: l[2], data };
  });
  return { arrays, numVertices, base };
}

/**
 * The one index array (winding reversed for the X mirror) and a segment per primitive that
 * draws a triangle; indices are validated first (`BAD_INDEX`, `BAD_ACCESSOR`).
 */
function writeSegments(
  mesh: Mesh,
  base: Map<Primitive, number>,
  warnings: WarningCollector,
  used: Set<Material | null>,
): { indices: Int32Array; segments: Segment[] } {
  const segments: Segment[] = [];
  const plan: {
    arr: ArrayLike<number> | null;
    triangles: number;
    base: number;
    at: number;
    keptCount?: number;
  }[] = [];
  let total = 0;
  for (const p of mesh.listPrimitives()) {
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
    if (len % 3)
      warnings.warn(
        'INDICES_TRUNCATED',
        `${primitiveLabel(mesh, p)}: ${len} indices are not a whole number of triangles; the last ${len % 3} dropped`,
      );
    const triangles = Math.floor(len / 3);
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
    const kept = gx<{ segmentCount?: unknown }>(p)?.segmentCount;
    const keptCount = Number.isInteger(kept) ? (kept as number) : undefined;
    plan.push({ arr, triangles, base: base.get(p)!, at: total, keptCount });
    total += triangles * 3;
  }
  // A segment that ran past the index array (quirk SEGMENT_CLAMPED) gets its file count back
  // while it still ends the index array.
  plan.forEach((t, k) => {
    const kept = t.keptCount;
    if (kept !== undefined && kept > t.triangles && t.at + t.triangles * 3 === total)
      segments[k].count = kept;
  });
  const indices = new Int32Array(total);
  for (const t of plan) {
    const end = t.at + t.triangles * 3;
    if (t.arr) for (let i = t.at, k = 0; i < end; i++, k++) indices[i] = t.arr[k] + t.base;
    else for (let i = t.at, k = 0; i < end; i++, k++) indices[i] = k + t.base;
    flipWinding(indices.subarray(t.at, end));
  }
  return { indices, segments };
}

/** `mesh "NAME" primitive K` for messages. */
function primitiveLabel(mesh: Mesh, p: Primitive): string {
  return `mesh "${mesh.getName()}" primitive ${mesh.listPrimitives().indexOf(p)}`;
}

/**
 * The primitive's indices (`null`: none, draw 0..n−1). glTF indices are SCALAR unsigned
 * byte/short/int; anything else (e.g. a corrupt file whose `indices` names a float VEC3 normal
 * accessor) has no triangle meaning: its values, truncated into the int32 index array, would
 * be negative or wrong vertices, so it is refused with `BAD_ACCESSOR` instead.
 */
function indexArray(p: Primitive, mesh: Mesh): ArrayLike<number> | null {
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
