/**
 * Urho3D / Dry model file (`.mdl`, magic `UMDL` or `UMD2`): the file model. Mirrors the file
 * exactly; bulk data stays in typed arrays / raw byte views. Knows nothing of glTF.
 */
import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import {
  descriptorOf,
  ELEMENT_TYPE_SIZES,
  elementsFromDescriptors,
  elementsFromMask,
  morphRecordSize,
  type VertexElement,
} from './mdl-elements.js';
import { nameBytes, readName } from './names.js';

export * from './mdl-elements.js';

/** Primitive types (`PrimitiveType` in GraphicsDefs.h). */
export const PrimitiveType = {
  TRIANGLE_LIST: 0,
  LINE_LIST: 1,
  POINT_LIST: 2,
  TRIANGLE_STRIP: 3,
  LINE_STRIP: 4,
  TRIANGLE_FAN: 5,
} as const;

/** One vertex buffer: layout plus the interleaved vertex bytes. */
export interface MdlVertexBuffer {
  vertexCount: number;
  /** UMDL: the legacy element mask as stored. UMD2: 0 (not stored). */
  elementMask: number;
  /** UMD2: the element descriptors as stored (`type | semantic << 8 | index << 16`). UMDL: null. */
  descriptors: Uint32Array | null;
  /** Elements decoded from the mask or descriptors, with byte offsets. */
  elements: VertexElement[];
  /** Bytes per vertex. */
  stride: number;
  morphRangeStart: number;
  morphRangeCount: number;
  /** `vertexCount * stride` interleaved bytes. */
  data: Uint8Array;
}

export interface MdlIndexBuffer {
  indexCount: number;
  /** 2 or 4. */
  indexSize: number;
  /** `indexCount * indexSize` bytes. */
  data: Uint8Array;
}

export interface MdlLod {
  distance: number;
  primitiveType: number;
  vertexBuffer: number;
  indexBuffer: number;
  indexStart: number;
  indexCount: number;
}

export interface MdlGeometry {
  /** Geometry-local → global bone index; empty = identity. */
  boneMapping: Uint32Array;
  lods: MdlLod[];
}

export interface MdlMorphBuffer {
  vertexBuffer: number;
  /** POSITION 0x1, NORMAL 0x2, TANGENT 0x80 (other bits are kept but carry no data). */
  elementMask: number;
  vertexCount: number;
  /** Absolute vertex indices in the vertex buffer. */
  indices: Uint32Array;
  /** `vertexCount * 3` deltas when the mask has the bit, else null. */
  positions: Float32Array | null;
  normals: Float32Array | null;
  tangents: Float32Array | null;
}

export interface MdlMorph {
  name: string;
  /** Stored bytes of a name that is not valid UTF-8. */
  nameRaw?: Uint8Array;
  buffers: MdlMorphBuffer[];
}

export interface MdlBone {
  name: string;
  /** Stored bytes of a name that is not valid UTF-8. */
  nameRaw?: Uint8Array;
  /** Parent bone index; the root stores its own index. */
  parent: number;
  /** Parent-relative bind position (3), rotation (w, x, y, z), scale (3). */
  position: Float32Array;
  rotation: Float32Array;
  scale: Float32Array;
  /** Inverse model-space bind transform, Matrix3x4 row-major (12 floats). */
  offsetMatrix: Float32Array;
  /** 1 = sphere radius present, 2 = box present (other bits kept). */
  collisionMask: number;
  radius: number;
  /** Box min (3) + max (3), or null without bit 2. */
  box: Float32Array | null;
}

export interface MdlModel {
  magic: 'UMDL' | 'UMD2';
  vertexBuffers: MdlVertexBuffer[];
  indexBuffers: MdlIndexBuffer[];
  geometries: MdlGeometry[];
  morphs: MdlMorph[];
  bones: MdlBone[];
  /** Model bounding box min (3) + max (3). */
  bounds: Float32Array;
  /** Geometry centres present in the file (3 floats each; older files have none). */
  geometryCenters: Float32Array;
  /** Bytes after the last field the loader reads (kept for byte-exact writing). */
  trailing: Uint8Array;
}

const MIN_BONE_BYTES = 1 + 4 + 12 + 16 + 12 + 48 + 1;

/**
 * Reads a `.mdl` file (UMDL or UMD2).
 *
 * ```ts
 * const model = readMdl(bytes, 'Jack.mdl');
 * console.log(model.vertexBuffers[0].vertexCount, model.bones.length);
 * ```
 */
export function readMdl(bytes: Uint8Array, fileName?: string): MdlModel {
  const r = new ByteReader(bytes, { file: fileName });
  const magic = r.peekString(4);
  if (magic !== 'UMDL' && magic !== 'UMD2') {
    r.expectMagic('UMDL');
  }
  r.skip(4);
  const legacy = magic === 'UMDL';

  const numVb = r.count(r.u32('vertexBufferCount'), 16, 'vertexBufferCount');
  const vertexBuffers: MdlVertexBuffer[] = [];
  for (let i = 0; i < numVb; i++)
    vertexBuffers.push(r.scope(`vertexBuffers[${i}]`, () => readVertexBuffer(r, legacy)));

  const numIb = r.count(r.u32('indexBufferCount'), 8, 'indexBufferCount');
  const indexBuffers: MdlIndexBuffer[] = [];
  for (let i = 0; i < numIb; i++) indexBuffers.push(r.scope(`indexBuffers[${i}]`, () => readIndexBuffer(r)));

  const numGeom = r.count(r.u32('geometryCount'), 8, 'geometryCount');
  const geometries: MdlGeometry[] = [];
  for (let g = 0; g < numGeom; g++)
    geometries.push(r.scope(`geometries[${g}]`, () => readGeometry(r, numVb, indexBuffers)));

  const numMorphs = r.count(r.u32('morphCount'), 5, 'morphCount');
  const morphs: MdlMorph[] = [];
  for (let m = 0; m < numMorphs; m++) morphs.push(r.scope(`morphs[${m}]`, () => readMorph(r, vertexBuffers)));

  const numBones = r.count(r.u32('boneCount'), MIN_BONE_BYTES, 'boneCount');
  const bones: MdlBone[] = [];
  for (let b = 0; b < numBones; b++) bones.push(r.scope(`bones[${b}]`, () => readBone(r, numBones)));
  checkBoneCycles(bones, fileName);

  const bounds = r.f32Array(6, 'bounds', true);
  const nCenters = Math.min(numGeom, Math.floor(r.remaining / 12));
  const geometryCenters = r.f32Array(nCenters * 3, 'geometryCenters', true);
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  return {
    magic: legacy ? 'UMDL' : 'UMD2',
    vertexBuffers,
    indexBuffers,
    geometries,
    morphs,
    bones,
    bounds,
    geometryCenters,
    trailing,
  };
}

/** One vertex buffer: count, layout (UMDL mask or UMD2 descriptors), morph range, data. */
function readVertexBuffer(r: ByteReader, legacy: boolean): MdlVertexBuffer {
  const vertexCount = r.u32('vertexCount');
  let elementMask = 0;
  let descriptors: Uint32Array | null = null;
  let elements: VertexElement[];
  if (legacy) {
    const at = r.offset;
    elementMask = r.u32('elementMask');
    const els = elementsFromMask(elementMask);
    if (!els)
      throw r.error(
        `element mask 0x${elementMask.toString(16)} has unknown bits`,
        'elementMask',
        'BAD_ELEMENT_MASK',
        at,
      );
    elements = els;
  } else {
    const n = r.count(r.u32('elementCount'), 4, 'elementCount');
    const at = r.offset;
    descriptors = r.u32Array(n, 'elements', true);
    elements = elementsFromDescriptors(descriptors, (msg) => {
      throw r.error(msg, 'elements', 'BAD_ELEMENT_TYPE', at);
    });
  }
  const stride = elements.reduce((s, e) => s + ELEMENT_TYPE_SIZES[e.type], 0);
  const morphRangeStart = r.u32('morphRangeStart');
  const morphRangeCount = r.u32('morphRangeCount');
  if (stride === 0 && vertexCount > 0) {
    throw r.error(`${vertexCount} vertices but no vertex elements`, 'elements', 'BAD_LAYOUT');
  }
  r.count(vertexCount, stride, 'vertexCount');
  const data = r.bytesView(vertexCount * stride, 'data');
  return {
    vertexCount,
    elementMask,
    descriptors,
    elements,
    stride,
    morphRangeStart,
    morphRangeCount,
    data,
  };
}

function readIndexBuffer(r: ByteReader): MdlIndexBuffer {
  const indexCount = r.u32('indexCount');
  const at = r.offset;
  const indexSize = r.u32('indexSize');
  if (indexSize !== 2 && indexSize !== 4)
    throw r.error(`index size ${indexSize} is not 2 or 4`, 'indexSize', 'BAD_INDEX_SIZE', at);
  r.count(indexCount, indexSize, 'indexCount');
  return { indexCount, indexSize, data: r.bytesView(indexCount * indexSize, 'data') };
}

/** One geometry: its bone mapping and LOD levels. */
function readGeometry(r: ByteReader, numVb: number, indexBuffers: MdlIndexBuffer[]): MdlGeometry {
  const nMap = r.count(r.u32('boneMappingCount'), 4, 'boneMappingCount');
  const boneMapping = r.u32Array(nMap, 'boneMapping', true);
  const nLod = r.count(r.u32('lodCount'), 24, 'lodCount');
  const lods: MdlLod[] = [];
  for (let l = 0; l < nLod; l++) lods.push(r.scope(`lods[${l}]`, () => readLod(r, numVb, indexBuffers)));
  return { boneMapping, lods };
}

function readLod(r: ByteReader, numVb: number, indexBuffers: MdlIndexBuffer[]): MdlLod {
  const distance = r.f32('distance');
  let at = r.offset;
  const primitiveType = r.u32('primitiveType');
  if (primitiveType > 5)
    throw r.error(`unknown primitive type ${primitiveType}`, 'primitiveType', 'BAD_PRIMITIVE_TYPE', at);
  at = r.offset;
  const vertexBuffer = r.u32('vertexBuffer');
  if (vertexBuffer >= numVb)
    throw r.error(`vertex buffer ${vertexBuffer} of ${numVb}`, 'vertexBuffer', 'BAD_INDEX', at);
  at = r.offset;
  const indexBuffer = r.u32('indexBuffer');
  if (indexBuffer >= indexBuffers.length)
    throw r.error(`index buffer ${indexBuffer} of ${indexBuffers.length}`, 'indexBuffer', 'BAD_INDEX', at);
  at = r.offset;
  const indexStart = r.u32('indexStart');
  const indexCount = r.u32('indexCount');
  if (indexStart + indexCount > indexBuffers[indexBuffer].indexCount) {
    throw r.error(
      `index range ${indexStart}+${indexCount} exceeds index buffer ${indexBuffer} (${indexBuffers[indexBuffer].indexCount})`,
      'indexCount',
      'BAD_RANGE',
      at,
    );
  }
  return { distance, primitiveType, vertexBuffer, indexBuffer, indexStart, indexCount };
}

function readMorph(r: ByteReader, vertexBuffers: MdlVertexBuffer[]): MdlMorph {
  const { name, raw: nameRaw } = readName(r, 'name');
  const nBuf = r.count(r.u32('bufferCount'), 12, 'bufferCount');
  const buffers: MdlMorphBuffer[] = [];
  for (let b = 0; b < nBuf; b++)
    buffers.push(r.scope(`buffers[${b}]`, () => readMorphBuffer(r, vertexBuffers)));
  return { name, ...(nameRaw ? { nameRaw } : {}), buffers };
}

/** One morph buffer: the moved vertices' indices and deltas (float bits kept exactly). */
function readMorphBuffer(r: ByteReader, vertexBuffers: MdlVertexBuffer[]): MdlMorphBuffer {
  const at = r.offset;
  const vertexBuffer = r.u32('vertexBuffer');
  if (vertexBuffer >= vertexBuffers.length)
    throw r.error(
      `vertex buffer ${vertexBuffer} of ${vertexBuffers.length}`,
      'vertexBuffer',
      'BAD_INDEX',
      at,
    );
  const elementMask = r.u32('elementMask');
  const vertexCount = r.u32('vertexCount');
  const rec = morphRecordSize(elementMask);
  r.count(vertexCount, rec, 'vertexCount');
  const indices = new Uint32Array(vertexCount);
  const positions = elementMask & 1 ? new Float32Array(vertexCount * 3) : null;
  const normals = elementMask & 2 ? new Float32Array(vertexCount * 3) : null;
  const tangents = elementMask & 0x80 ? new Float32Array(vertexCount * 3) : null;
  const view = r.view;
  const limit = vertexBuffers[vertexBuffer].vertexCount;
  let o = r.offset;
  if (LITTLE_ENDIAN_HOST && rec % 4 === 0) {
    // one aligned copy of the records, then 32-bit words (float bits kept exactly)
    const words = new Uint32Array((vertexCount * rec) >> 2);
    new Uint8Array(words.buffer).set(new Uint8Array(view.buffer, view.byteOffset + o, vertexCount * rec));
    const channels: Uint32Array[] = [];
    for (const a of [positions, normals, tangents]) if (a) channels.push(new Uint32Array(a.buffer));
    const per = rec >> 2;
    for (let v = 0, w = 0; v < vertexCount; v++) {
      const idx = words[w];
      if (idx >= limit) {
        throw r.error(
          `morph vertex index ${idx} ≥ vertex count ${limit}`,
          `indices[${v}]`,
          'BAD_INDEX',
          o + v * rec,
        );
      }
      indices[v] = idx;
      let k = w + 1;
      for (let c = 0; c < channels.length; c++, k += 3) {
        const out = channels[c];
        out[v * 3] = words[k];
        out[v * 3 + 1] = words[k + 1];
        out[v * 3 + 2] = words[k + 2];
      }
      w += per;
    }
    r.offset = o + vertexCount * rec;
    return { vertexBuffer, elementMask, vertexCount, indices, positions, normals, tangents };
  }
  for (let v = 0; v < vertexCount; v++) {
    const idx = view.getUint32(o, true);
    if (idx >= limit) {
      throw r.error(`morph vertex index ${idx} ≥ vertex count ${limit}`, `indices[${v}]`, 'BAD_INDEX', o);
    }
    indices[v] = idx;
    o += 4;
    if (positions) {
      positions[v * 3] = view.getFloat32(o, true);
      positions[v * 3 + 1] = view.getFloat32(o + 4, true);
      positions[v * 3 + 2] = view.getFloat32(o + 8, true);
      o += 12;
    }
    if (normals) {
      normals[v * 3] = view.getFloat32(o, true);
      normals[v * 3 + 1] = view.getFloat32(o + 4, true);
      normals[v * 3 + 2] = view.getFloat32(o + 8, true);
      o += 12;
    }
    if (tangents) {
      tangents[v * 3] = view.getFloat32(o, true);
      tangents[v * 3 + 1] = view.getFloat32(o + 4, true);
      tangents[v * 3 + 2] = view.getFloat32(o + 8, true);
      o += 12;
    }
  }
  r.offset = o;
  return { vertexBuffer, elementMask, vertexCount, indices, positions, normals, tangents };
}

function readBone(r: ByteReader, numBones: number): MdlBone {
  const { name, raw: nameRaw } = readName(r, 'name');
  const at = r.offset;
  const parent = r.u32('parent');
  if (parent >= numBones) throw r.error(`parent ${parent} of ${numBones} bones`, 'parent', 'BAD_INDEX', at);
  const position = r.f32Array(3, 'position', true);
  const rotation = r.f32Array(4, 'rotation', true);
  const scale = r.f32Array(3, 'scale', true);
  const offsetMatrix = r.f32Array(12, 'offsetMatrix', true);
  const collisionMask = r.u8('collisionMask');
  const radius = collisionMask & 1 ? r.f32('radius') : 0;
  const box = collisionMask & 2 ? r.f32Array(6, 'box', true) : null;
  return {
    name,
    ...(nameRaw ? { nameRaw } : {}),
    parent,
    position,
    rotation,
    scale,
    offsetMatrix,
    collisionMask,
    radius,
    box,
  };
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A morph buffer's vertex records (u32 index, then xyz per channel) on a little-endian host. */
function morphBlock(indices: Uint32Array, arrays: Float32Array[], count: number): Uint8Array {
  const per = 1 + 3 * arrays.length;
  const u = new Uint32Array(count * per);
  // float bits copied through integer views (NaN payloads included)
  const bits = arrays.map((a) => new Uint32Array(a.buffer, a.byteOffset, a.length));
  for (let v = 0, o = 0; v < count; v++) {
    u[o++] = indices[v];
    for (let k = 0; k < bits.length; k++) {
      const src = bits[k];
      u[o] = src[v * 3];
      u[o + 1] = src[v * 3 + 1];
      u[o + 2] = src[v * 3 + 2];
      o += 3;
    }
  }
  return new Uint8Array(u.buffer);
}

/** Throws `BONE_CYCLE` if following parents from any bone never reaches a root. */
export function checkBoneCycles(bones: readonly { parent: number; name: string }[], fileName?: string): void {
  const state = new Uint8Array(bones.length); // 0 unknown, 1 visiting, 2 ok
  for (let i = 0; i < bones.length; i++) {
    let b = i;
    const path: number[] = [];
    while (state[b] === 0) {
      state[b] = 1;
      path.push(b);
      const p = bones[b].parent;
      if (p === b) break;
      b = p;
      if (state[b] === 1) {
        throw new FormatError(`bone "${bones[i].name}" has a parent cycle`, {
          code: 'BONE_CYCLE',
          file: fileName,
          field: `bones[${i}].parent`,
        });
      }
    }
    for (const k of path) state[k] = 2;
  }
}

/**
 * Writes a model back to bytes. `writeMdl(readMdl(b))` equals `b`.
 *
 * ```ts
 * const bytes = writeMdl(model);
 * ```
 */
export function writeMdl(model: MdlModel): Uint8Array {
  // Exact size first: one allocation, no regrowth (models are up to hundreds of MB).
  const morphNames = model.morphs.map((m) => nameBytes(m.name, m.nameRaw));
  const boneNames = model.bones.map((b) => nameBytes(b.name, b.nameRaw));
  let size = 8 + model.trailing.byteLength + model.geometryCenters.byteLength + 4 * model.bounds.length;
  for (const vb of model.vertexBuffers) {
    size += 16 + vb.data.byteLength;
    if (model.magic !== 'UMDL') size += 4 + 4 * (vb.descriptors?.length ?? vb.elements.length);
  }
  size += 4;
  for (const ib of model.indexBuffers) size += 8 + ib.data.byteLength;
  size += 4;
  for (const g of model.geometries) size += 8 + 4 * g.boneMapping.length + 24 * g.lods.length;
  size += 4;
  model.morphs.forEach((m, i) => {
    size += morphNames[i].byteLength + 5;
    for (const b of m.buffers) {
      const channels = (b.positions ? 1 : 0) + (b.normals ? 1 : 0) + (b.tangents ? 1 : 0);
      size += 12 + b.vertexCount * (4 + 12 * channels);
    }
  });
  size += 4;
  model.bones.forEach((b, i) => {
    size += boneNames[i].byteLength + 1 + 4 + 4 * (b.position.length + b.rotation.length + b.scale.length);
    size += 4 * b.offsetMatrix.length + 1 + (b.collisionMask & 1 ? 4 : 0) + (b.collisionMask & 2 ? 24 : 0);
  });
  // Large blocks (vertex, index, morph data) go to the output as they are, not through the
  // writer: the bytes between them are written by `w` and flushed as parts, then joined once.
  const parts: Uint8Array[] = [];
  let w = new ByteWriter({ capacity: Math.min(size, 1 << 16) });
  const block = (b: Uint8Array) => {
    if (b.byteLength < 1 << 16) {
      w.bytes(b);
      return;
    }
    parts.push(w.finish(), b);
    w = new ByteWriter({ capacity: Math.min(size, 1 << 16) });
  };
  w.string(model.magic);
  w.u32(model.vertexBuffers.length);
  for (const vb of model.vertexBuffers) {
    w.u32(vb.vertexCount);
    if (model.magic === 'UMDL') w.u32(vb.elementMask);
    else {
      const desc = vb.descriptors ?? Uint32Array.from(vb.elements, descriptorOf);
      w.u32(desc.length);
      w.u32Array(desc);
    }
    w.u32(vb.morphRangeStart);
    w.u32(vb.morphRangeCount);
    block(vb.data);
  }
  w.u32(model.indexBuffers.length);
  for (const ib of model.indexBuffers) {
    w.u32(ib.indexCount);
    w.u32(ib.indexSize);
    block(ib.data);
  }
  w.u32(model.geometries.length);
  for (const g of model.geometries) {
    w.u32(g.boneMapping.length);
    w.u32Array(g.boneMapping);
    w.u32(g.lods.length);
    for (const l of g.lods) {
      w.f32(l.distance);
      w.u32(l.primitiveType);
      w.u32(l.vertexBuffer);
      w.u32(l.indexBuffer);
      w.u32(l.indexStart);
      w.u32(l.indexCount);
    }
  }
  w.u32(model.morphs.length);
  model.morphs.forEach((m, mi) => {
    w.bytes(morphNames[mi]).u8(0);
    w.u32(m.buffers.length);
    for (const b of m.buffers) {
      w.u32(b.vertexBuffer);
      w.u32(b.elementMask);
      w.u32(b.vertexCount);
      const arrays = [b.positions, b.normals, b.tangents].filter((a): a is Float32Array => !!a);
      if (LITTLE_ENDIAN_HOST) {
        block(morphBlock(b.indices, arrays, b.vertexCount));
        continue;
      }
      for (let v = 0; v < b.vertexCount; v++) {
        w.u32(b.indices[v]);
        for (const arr of arrays) {
          w.f32(arr[v * 3]);
          w.f32(arr[v * 3 + 1]);
          w.f32(arr[v * 3 + 2]);
        }
      }
    }
  });
  w.u32(model.bones.length);
  model.bones.forEach((b, bi) => {
    w.bytes(boneNames[bi]).u8(0);
    w.u32(b.parent);
    w.f32Array(b.position);
    w.f32Array(b.rotation);
    w.f32Array(b.scale);
    w.f32Array(b.offsetMatrix);
    w.u8(b.collisionMask);
    if (b.collisionMask & 1) w.f32(b.radius);
    if (b.collisionMask & 2) w.f32Array(b.box ?? new Float32Array(6));
  });
  w.f32Array(model.bounds);
  w.f32Array(model.geometryCenters);
  w.bytes(model.trailing);
  parts.push(w.finish());
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
