/**
 * Import, meshes: one Grimrock mesh entity → a glTF mesh (a primitive per segment sharing the
 * vertex attributes), its skin, and the extras that let export write the original bytes back.
 * `importMeshEntity` runs the steps in order: header extras, index check, vertex attributes,
 * segment primitives, skin, raw arrays glTF cannot hold exactly, vertex extent.
 */
import { convertVec3, FormatError, flipWinding, sameBytes } from '@gltf-legacy/core';
import type { Accessor, Material, Mesh, Node, Primitive } from '@gltf-transform/core';
import {
  AXES,
  encodeFloat,
  encodeFloats,
  type Layout,
  type NonFinitePatch,
  packArrays,
  rawAttributeName,
} from '../arrays.js';
import { keepNonFinite } from '../extras.js';
import { mat4x3ToGltf } from '../mat.js';
import {
  hasVertexValues,
  type MeshData,
  type MeshEntity,
  VA_BITANGENT,
  VA_BONE_INDEX,
  VA_BONE_WEIGHT,
  VA_COLOR,
  VA_NORMAL,
  VA_POSITION,
  VA_TANGENT,
  VA_TEXCOORD0,
  VERTEX_ARRAY_NAMES,
  vertexArrayValues,
} from '../model.js';
import { floatAccessor, type ImportContext, VEC_TYPES } from './context.js';
import {
  components,
  extent,
  firstBadIndex,
  fixWeights,
  rawValues,
  sanitize,
  tangentSigns,
  unitize,
} from './vertex-values.js';

/** One mesh entity being imported: the file data and where it sits, for messages and errors. */
interface MeshSource {
  ctx: ImportContext;
  m: MeshData;
  /** Vertex count. */
  n: number;
  layouts: Layout[];
  /** Which vertex array slots hold values. */
  present: boolean[];
  name: string;
  fileName: string;
  nodeIndex: number;
}

/**
 * Imports the mesh entity of node `nodeIndex`: sets the node's mesh (and skin), or keeps a mesh
 * glTF cannot draw as its header in `extras.grimrock.meshEntity.emptyMesh`.
 */
export function importMeshEntity(
  ctx: ImportContext,
  e: MeshEntity,
  nodes: Node[],
  nodeIndex: number,
  name: string,
  materials: Map<string, Material>,
  fileName: string,
): void {
  const node = nodes[nodeIndex];
  const m = e.mesh;
  const n = m.numVertices;
  const layouts: Layout[] = m.arrays.map((a) => [a.dataType, a.dim, a.stride]);
  const entityExtras: Record<string, unknown> = {
    castShadow: e.castShadow,
    emissiveColor: encodeFloats(e.emissiveColor),
  };
  const meshExtras = headerExtras(m, layouts);
  (node.getExtras() as { grimrock: Record<string, unknown> }).grimrock.meshEntity = entityExtras;
  checkIndices(m, fileName, nodeIndex);
  if (n === 0 || m.indices.length < 3) {
    // Nothing glTF can draw: keep the (tiny) mesh header in extras.
    entityExtras.emptyMesh = {
      ...meshExtras,
      numVertices: n,
      indices: Array.from(m.indices),
      segments: m.segments,
    };
    ctx.warnings.warn('EMPTY_MESH', `mesh "${name}" has no triangles; kept in extras only`);
    return;
  }
  const present = m.arrays.map((a) => hasVertexValues(a, n));
  const src: MeshSource = { ctx, m, n, layouts, present, name, fileName, nodeIndex };
  const vertices = vertexAttributes(src, e.bones.length);
  const mesh = ctx.doc.createMesh(name);
  const prims = segmentPrimitives(src, mesh, vertices.attrs, materials);
  if (!prims.length) {
    entityExtras.emptyMesh = { ...meshExtras, numVertices: 0, indices: [], segments: m.segments };
    ctx.warnings.warn('EMPTY_MESH', `mesh "${name}" has no drawable segment; kept in extras only`);
    return;
  }
  node.setMesh(mesh);
  if (e.bones.length) {
    const skin = ctx.doc.createSkin(name);
    const ibm = new Float32Array(16 * e.bones.length);
    e.bones.forEach((b, i) => {
      skin.addJoint(nodes[b.nodeIndex]);
      ibm.set(mat4x3ToGltf(b.invRestMatrix), i * 16);
    });
    skin.setInverseBindMatrices(floatAccessor(ctx, 'MAT4', ibm));
    if (vertices.skinned) node.setSkin(skin);
    else {
      entityExtras.unboundSkin = true;
      ctx.warnings.warn(
        'SKIN_WITHOUT_WEIGHTS',
        `mesh "${name}" has bones but no bone index/weight arrays; skin kept unattached`,
      );
    }
  }
  // non-finite bit patterns of the raw arrays: bytes in the .glb (kept bytes), not JSON
  keepNonFinite(mesh, keepRawArrays(src, prims, vertices.exact, vertices.skinned));
  // Bounds: remember the vertex extent when the stored bounds are something else, so export
  // can tell whether the geometry changed.
  const { vmin, vmax } = vertices;
  if (!vmin.every((x, c) => x === m.boundMin[c]) || !vmax.every((x, c) => x === m.boundMax[c])) {
    meshExtras.vertexMin = encodeFloats(vmin);
    meshExtras.vertexMax = encodeFloats(vmax);
  }
  mesh.setExtras({ grimrock: meshExtras });
}

/** `extras.grimrock` of the mesh: the MESH version, the array layouts and the stored bounds. */
function headerExtras(m: MeshData, layouts: Layout[]): Record<string, unknown> {
  return {
    version: m.version,
    arrays: layouts,
    bounds: {
      center: encodeFloats(m.boundCenter),
      radius: encodeFloat(m.boundRadius),
      min: encodeFloats(m.boundMin),
      max: encodeFloats(m.boundMax),
    },
  };
}

/** Refuses an index outside the vertices (`BAD_INDEX`, naming the index's field). */
function checkIndices(m: MeshData, fileName: string, nodeIndex: number): void {
  const bad = firstBadIndex(m.indices, m.numVertices);
  if (bad < 0) return;
  throw new FormatError(`index ${m.indices[bad]} is outside the ${m.numVertices} vertices`, {
    code: 'BAD_INDEX',
    file: fileName,
    field: `nodes[${nodeIndex}].meshEntity.mesh.indices[${bad}]`,
  });
}

/**
 * The glTF vertex attributes of the mesh (mirrored, cleaned up for glTF), the slots export will
 * reproduce bit for bit without checking (`exact`), and the file-space vertex extent.
 */
function vertexAttributes(
  src: MeshSource,
  boneCount: number,
): { attrs: Map<string, Accessor>; exact: Set<number>; skinned: boolean; vmin: number[]; vmax: number[] } {
  const { ctx, m, n, layouts, present, name } = src;
  // Vertex arrays are decoded on use, each into a fresh array the mapping then owns (no
  // second copy).
  const comps = (slot: number, count: number, pad = 0): Float32Array | null => {
    const v = present[slot] ? vertexArrayValues(m.arrays[slot], n) : null;
    return v ? components(v, layouts[slot][1], n, count, pad) : null;
  };
  const attrs = new Map<string, Accessor>();
  const pos = comps(VA_POSITION, 3);
  // Vertex extent in file space (before sanitizing), to tell later whether geometry changed.
  const vmin = [Infinity, Infinity, Infinity];
  const vmax = [-Infinity, -Infinity, -Infinity];
  if (pos) extent(pos, n, Math.min(3, layouts[VA_POSITION][1]), vmin, vmax);
  if (!pos)
    throw new FormatError(`mesh "${name}" has no usable position array`, {
      code: 'NO_POSITIONS',
      file: src.fileName,
      field: `nodes[${src.nodeIndex}].meshEntity.mesh.arrays[0]`,
    });
  // Slots whose packing export would reproduce bit for bit without checking: float arrays in
  // the writer's own layout that import only mirrors (an exact sign flip) and did not clean up.
  const exact = new Set<number>();
  const plainFloat = (slot: number, dim: number) =>
    layouts[slot][0] === 3 && layouts[slot][1] === dim && layouts[slot][2] === dim * 4;
  if (sanitize(pos) === 0 && plainFloat(VA_POSITION, 3)) exact.add(VA_POSITION);
  convertVec3(AXES, pos);
  attrs.set('POSITION', floatAccessor(ctx, 'VEC3', pos));
  const nor = comps(VA_NORMAL, 3);
  if (nor) {
    convertVec3(AXES, nor);
    if (unitize(nor, n, 3, 0, 1, 0) === 0 && plainFloat(VA_NORMAL, 3)) exact.add(VA_NORMAL);
    attrs.set('NORMAL', floatAccessor(ctx, 'VEC3', nor));
  }
  const tan3 = comps(VA_TANGENT, 3);
  if (tan3) {
    const bit = comps(VA_BITANGENT, 3);
    const tan = components(tan3, 3, n, 4, 1);
    convertVec3(AXES, tan, 4);
    if (unitize(tan, n, 4, 1, 0, 0) === 0 && plainFloat(VA_TANGENT, 3)) exact.add(VA_TANGENT);
    if (bit) convertVec3(AXES, bit);
    tangentSigns(tan, nor, bit, n);
    attrs.set('TANGENT', floatAccessor(ctx, 'VEC4', tan));
  }
  if (present[VA_COLOR]) attrs.set('COLOR_0', colorAccessor(src, comps));
  for (let k = 0; k < 8; k++) {
    const uv = comps(VA_TEXCOORD0 + k, 2);
    if (!uv) continue;
    if (sanitize(uv) === 0 && plainFloat(VA_TEXCOORD0 + k, 2)) exact.add(VA_TEXCOORD0 + k);
    attrs.set(`TEXCOORD_${k}`, floatAccessor(ctx, 'VEC2', uv));
  }
  const skinned = boneCount > 0 && present[VA_BONE_INDEX] && present[VA_BONE_WEIGHT];
  if (skinned) {
    const bi = comps(VA_BONE_INDEX, 4)!;
    const bw = comps(VA_BONE_WEIGHT, 4)!;
    sanitize(bw);
    const ws = layouts[VA_BONE_WEIGHT][0];
    if (ws === 0 || ws === 1) for (let i = 0; i < bw.length; i++) bw[i] /= ws === 0 ? 255 : 32767;
    const joints = new Uint16Array(n * 4);
    const fixed = fixWeights(bi, bw, joints, n, boneCount);
    if (fixed)
      ctx.warnings.warn(
        'WEIGHTS_NORMALIZED',
        `mesh "${name}": ${fixed} vertex weight set(s) did not sum to 1 and were normalized (unweighted vertices bound to the first bone)`,
        1,
      );
    attrs.set('JOINTS_0', ctx.doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(ctx.buffer));
    attrs.set('WEIGHTS_0', floatAccessor(ctx, 'VEC4', bw));
  }
  return { attrs, exact, skinned, vmin, vmax };
}

/** COLOR_0: the file's bytes as a normalized accessor when they are RGBA bytes, else floats in 0..1. */
function colorAccessor(
  src: MeshSource,
  comps: (slot: number, count: number, pad?: number) => Float32Array | null,
): Accessor {
  const { ctx, m, n, layouts } = src;
  const [dt, dim] = layouts[VA_COLOR];
  if (dt === 0 && dim === 4) {
    return ctx.doc
      .createAccessor()
      .setType('VEC4')
      .setArray(vertexArrayValues(m.arrays[VA_COLOR], n) as Uint8Array)
      .setNormalized(true)
      .setBuffer(ctx.buffer);
  }
  const c = comps(VA_COLOR, 4, dt === 0 ? 255 : 1)!;
  const s = dt === 0 ? 1 / 255 : dt === 1 ? 1 / 32767 : 1;
  for (let i = 0; i < c.length; i++) c[i] = Math.min(1, Math.max(0, Number.isFinite(c[i]) ? c[i] * s : 0));
  return floatAccessor(ctx, 'VEC4', c);
}

/** One primitive per drawable segment, sharing the vertex attributes; materials created by name. */
function segmentPrimitives(
  src: MeshSource,
  mesh: Mesh,
  attrs: Map<string, Accessor>,
  materials: Map<string, Material>,
): Primitive[] {
  const { ctx, m, name } = src;
  const { doc, warnings } = ctx;
  const big = src.n > 65535;
  const prims: Primitive[] = [];
  m.segments.forEach((seg, si) => {
    let first = seg.firstIndex;
    let count = seg.count * 3;
    if (first < 0 || count <= 0 || first >= m.indices.length || seg.primitiveType !== 2) {
      warnings.warn(
        'SEGMENT_DROPPED',
        `mesh "${name}" segment ${si} ("${seg.material}") is empty, out of range or not a triangle list; dropped`,
      );
      return;
    }
    let clamped = false;
    if (first + count > m.indices.length) {
      const field = `nodes[${src.nodeIndex}].meshEntity.mesh.segments[${si}].count`;
      if (ctx.strict)
        throw new FormatError(
          `segment ${si} of mesh "${name}": ${seg.count} triangles from index ${first} run past the ${m.indices.length} indices`,
          { code: 'SEGMENT_CLAMPED', file: src.fileName, field },
        );
      count = Math.floor((m.indices.length - first) / 3) * 3;
      first = Math.max(0, first);
      clamped = true;
      warnings.warn(
        'SEGMENT_CLAMPED',
        `${src.fileName} ${field}: ${seg.count} triangles from index ${first} run past the ${m.indices.length} indices; read as ${count / 3} (the count is kept in extras)`,
      );
    }
    if (count < 3) return;
    const idx = big
      ? new Uint32Array(m.indices.subarray(first, first + count))
      : new Uint16Array(m.indices.subarray(first, first + count));
    flipWinding(idx);
    const prim = doc
      .createPrimitive()
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(ctx.buffer));
    for (const [k, a] of attrs) prim.setAttribute(k, a);
    let mat = materials.get(seg.material);
    if (!mat) {
      mat = doc.createMaterial(seg.material).setMetallicFactor(0).setRoughnessFactor(1);
      materials.set(seg.material, mat);
    }
    prim.setMaterial(mat);
    if (clamped) prim.setExtras({ grimrock: { segmentCount: seg.count } });
    mesh.addPrimitive(prim);
    prims.push(prim);
  });
  return prims;
}

/**
 * Packs the standard attributes back as export would; the slots that do not come back byte for
 * byte get a `_GRIMROCK_*` attribute with their raw file values. Returns the non-finite bit
 * patterns (by array name) those attributes cannot hold.
 */
function keepRawArrays(
  src: MeshSource,
  prims: Primitive[],
  exact: Set<number>,
  skinned: boolean,
): Record<string, NonFinitePatch[]> {
  const { ctx, m, n, layouts, present, name } = src;
  const nonFinite: Record<string, NonFinitePatch[]> = {};
  const rawSlots = new Set<number>();
  const differs = (slot: number, packed: { data: Uint8Array }) =>
    m.arrays[slot].stride > 0 && !sameBytes(packed.data, m.arrays[slot].data);
  packArrays(
    prims[0],
    layouts,
    skinned,
    {},
    undefined,
    (slot) => !exact.has(slot),
    (slot, packed) => {
      if (differs(slot, packed)) rawSlots.add(slot);
    },
  );
  for (const slot of rawSlots) {
    const orig = m.arrays[slot];
    const v = present[slot] ? vertexArrayValues(orig, n) : null;
    const dim = layouts[slot][1];
    if (!v || dim < 1 || dim > 4) {
      ctx.warnings.warn(
        'ARRAY_NOT_PRESERVED',
        `mesh "${name}" vertex array ${VERTEX_ARRAY_NAMES[slot]} has a layout glTF cannot keep exactly; export will rewrite it`,
      );
      continue;
    }
    const { raw, patches } = rawValues(v, orig, dim);
    if (patches.length) nonFinite[VERTEX_ARRAY_NAMES[slot]] = patches;
    const acc = floatAccessor(ctx, VEC_TYPES[dim], raw);
    for (const p of prims) p.setAttribute(rawAttributeName(slot), acc);
  }
  if (rawSlots.size)
    packArrays(
      prims[0],
      layouts,
      skinned,
      nonFinite,
      undefined,
      (s) => rawSlots.has(s),
      (slot, packed) => {
        if (differs(slot, packed))
          ctx.warnings.warn(
            'ARRAY_NOT_PRESERVED',
            `mesh "${name}" vertex array ${VERTEX_ARRAY_NAMES[slot]} will not round-trip byte for byte`,
          );
      },
    );
  return nonFinite;
}
