/**
 * File model of Legend of Grimrock `.model` files (magic `MDL1`, version 2; the same layout in
 * Grimrock 1 and 2). Plain data mirroring the file: every field, raw vertex array bytes.
 */
import {
  ByteReader,
  type ByteWriter,
  decodeText,
  encodeText,
  FormatError,
  type WarningCollector,
} from '@gltf-legacy/core';

/** `Mat4x3`: baseX, baseY, baseZ, translation (12 floats, file order). */
export type Mat4x3 = Float32Array;

/** Vertex array slots, in file order. */
export const VERTEX_ARRAY_NAMES = [
  'position',
  'normal',
  'tangent',
  'bitangent',
  'color',
  'texcoord0',
  'texcoord1',
  'texcoord2',
  'texcoord3',
  'texcoord4',
  'texcoord5',
  'texcoord6',
  'texcoord7',
  'boneIndex',
  'boneWeight',
] as const;

export const VA_POSITION = 0;
export const VA_NORMAL = 1;
export const VA_TANGENT = 2;
export const VA_BITANGENT = 3;
export const VA_COLOR = 4;
export const VA_TEXCOORD0 = 5;
export const VA_BONE_INDEX = 13;
export const VA_BONE_WEIGHT = 14;
export const VERTEX_ARRAY_COUNT = 15;

/** `dataType` values of a vertex array. */
export const DataType = { BYTE: 0, INT16: 1, INT32: 2, FLOAT32: 3 } as const;

/**
 * Size in bytes of one element of a data type (undefined for unknown types).
 *
 * ```ts
 * dataTypeSize(DataType.INT32); // 4
 * ```
 */
export function dataTypeSize(dataType: number): number | undefined {
  return dataType === 0 ? 1 : dataType === 1 ? 2 : dataType === 2 ? 4 : dataType === 3 ? 4 : undefined;
}

export interface VertexArray {
  /** 0 byte, 1 int16, 2 int32, 3 float32. */
  dataType: number;
  /** Components per vertex. */
  dim: number;
  /** Bytes per vertex; 0 = array unused (no data). */
  stride: number;
  /** `numVertices * stride` raw bytes (empty when stride is 0). */
  data: Uint8Array;
}

export interface Segment {
  material: string;
  /** 2 = triangle list (the only value seen). */
  primitiveType: number;
  firstIndex: number;
  /** Triangle count. */
  count: number;
}

export interface MeshData {
  /** `MESH`. */
  magic: string;
  version: number;
  numVertices: number;
  /** The 15 vertex arrays (always 15 headers in this layout). */
  arrays: VertexArray[];
  indices: Int32Array;
  segments: Segment[];
  boundCenter: Float32Array;
  boundRadius: number;
  boundMin: Float32Array;
  boundMax: Float32Array;
}

export interface Bone {
  nodeIndex: number;
  invRestMatrix: Mat4x3;
}

export interface MeshEntity {
  mesh: MeshData;
  bones: Bone[];
  emissiveColor: Float32Array;
  castShadow: number;
}

export interface ModelNode {
  name: string;
  localToParent: Mat4x3;
  /** −1 = no parent. */
  parent: number;
  /** −1 = empty node, 0 = mesh entity (other values cannot be read: unknown payload). */
  type: number;
  meshEntity?: MeshEntity;
}

export interface ModelFile {
  /** `MDL1`. */
  magic: string;
  version: number;
  nodes: ModelNode[];
  /** Bytes after the last node (a quirk read with `TRAILING_BYTES`), written back as they were. */
  trailing?: Uint8Array;
}

/** Options of {@link readModel} and `readAnimation`. */
export interface GrimrockReadOptions {
  /** Refuse quirks (bytes after the end) with the `FormatError` they are. Default false. */
  strict?: boolean;
  /** Receives the warnings of tolerated quirks (`TRAILING_BYTES`). */
  warnings?: WarningCollector;
}

/**
 * The quirk "bytes after the last node/item": the game's tools read a file front to back and never
 * look past its structures (README, "Quirks"), so they are read with `TRAILING_BYTES` naming the
 * file, offset and count, and kept to be written back; strict refuses them (`FormatError`).
 *
 * ```ts
 * const trailing = trailingBytes(reader, 'node', { warnings }); // Uint8Array(4) for a 4-byte pad
 * ```
 */
export function trailingBytes(
  r: ByteReader,
  what: string,
  options: GrimrockReadOptions,
): Uint8Array | undefined {
  if (r.eof) return undefined;
  const at = r.offset;
  const count = r.remaining;
  if (options.strict)
    throw r.error(`${count} unexpected byte(s) after the last ${what}`, 'end', 'TRAILING_BYTES');
  options.warnings?.warn(
    'TRAILING_BYTES',
    `${r.file ?? 'file'}: ${count} byte(s) after the last ${what} at offset ${at}; kept and written back`,
    count,
  );
  return r.bytesView(count, 'end').slice();
}

/**
 * True when the bytes start with `MDL1`.
 *
 * ```ts
 * if (isModel(bytes)) readModel(bytes);
 * ```
 */
export function isModel(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x4d && bytes[1] === 0x44 && bytes[2] === 0x4c && bytes[3] === 0x31
  );
}

/** `String`: int32 byte length + bytes (UTF-8, latin1 fallback). */
export function readString(r: ByteReader, field: string): string {
  const n = r.i32(`${field}.length`);
  r.count(n, 1, field);
  return decodeText(r.bytesView(n, field));
}

function readMat(r: ByteReader, field: string): Mat4x3 {
  return r.f32Array(12, field, true);
}

function readVec3(r: ByteReader, field: string): Float32Array {
  return r.f32Array(3, field, true);
}

function readMeshData(r: ByteReader): MeshData {
  r.expectMagic('MESH', 'magic');
  const magic = 'MESH';
  const version = r.i32('version');
  const numVertices = r.i32('numVertices');
  if (numVertices < 0) throw r.error(`invalid vertex count ${numVertices}`, 'numVertices', 'BAD_COUNT');
  const arrays: VertexArray[] = [];
  for (let i = 0; i < VERTEX_ARRAY_COUNT; i++) {
    arrays.push(
      r.scope(`arrays[${i}]`, () => {
        const dataType = r.i32('dataType');
        const dim = r.i32('dim');
        const strideAt = r.offset;
        const stride = r.i32('stride');
        if (stride < 0) throw r.error(`invalid stride ${stride}`, 'stride', 'BAD_COUNT', strideAt);
        let data: Uint8Array = new Uint8Array(0);
        if (stride > 0 && numVertices > 0) {
          r.count(numVertices, stride, 'data');
          data = r.bytesView(numVertices * stride, 'data');
        }
        return { dataType, dim, stride, data };
      }),
    );
  }
  const numIndices = r.i32('numIndices');
  r.count(numIndices, 4, 'indices');
  const indices = r.i32Array(numIndices, 'indices', true);
  const numSegments = r.i32('numSegments');
  r.count(numSegments, 16, 'segments');
  const segments: Segment[] = [];
  for (let i = 0; i < numSegments; i++) {
    segments.push(
      r.scope(`segments[${i}]`, () => ({
        material: readString(r, 'material'),
        primitiveType: r.i32('primitiveType'),
        firstIndex: r.i32('firstIndex'),
        count: r.i32('count'),
      })),
    );
  }
  const boundCenter = readVec3(r, 'boundCenter');
  const boundRadius = r.f32('boundRadius');
  const boundMin = readVec3(r, 'boundMin');
  const boundMax = readVec3(r, 'boundMax');
  return {
    magic,
    version,
    numVertices,
    arrays,
    indices,
    segments,
    boundCenter,
    boundRadius,
    boundMin,
    boundMax,
  };
}

/**
 * Reads a `.model` file. Throws {@link FormatError} on anything malformed (truncation, bad counts,
 * parent indices out of range or cyclic, unknown node types); bytes after the last node are kept
 * in `trailing` with a `TRAILING_BYTES` warning (refused when `options.strict`).
 *
 * ```ts
 * const model = readModel(bytes, 'skeleton_warrior_axe.model');
 * model.nodes.filter((n) => n.meshEntity).length; // 2
 * ```
 */
export function readModel(
  bytes: Uint8Array,
  fileName?: string,
  options: GrimrockReadOptions = {},
): ModelFile {
  const r = new ByteReader(bytes, { file: fileName });
  r.expectMagic('MDL1', 'magic');
  const version = r.i32('version');
  const numNodes = r.i32('numNodes');
  // Smallest node: name length (4) + matrix (48) + parent (4) + type (4).
  r.count(numNodes, 60, 'nodes');
  const nodes: ModelNode[] = [];
  for (let i = 0; i < numNodes; i++) {
    nodes.push(
      r.scope(`nodes[${i}]`, () => {
        const name = readString(r, 'name');
        const localToParent = readMat(r, 'localToParent');
        const parentAt = r.offset;
        const parent = r.i32('parent');
        if (parent < -1 || parent >= numNodes || parent === i) {
          throw r.error(
            `parent index ${parent} is out of range (−1..${numNodes - 1}, not itself)`,
            'parent',
            'BAD_INDEX',
            parentAt,
          );
        }
        const typeAt = r.offset;
        const type = r.i32('type');
        const node: ModelNode = { name, localToParent, parent, type };
        if (type === 0) {
          node.meshEntity = r.scope('meshEntity', () => {
            const mesh = r.scope('mesh', () => readMeshData(r));
            const numBones = r.i32('numBones');
            r.count(numBones, 52, 'bones');
            const bones: Bone[] = [];
            for (let b = 0; b < numBones; b++) {
              bones.push(
                r.scope(`bones[${b}]`, () => {
                  const at = r.offset;
                  const nodeIndex = r.i32('nodeIndex');
                  if (nodeIndex < 0 || nodeIndex >= numNodes) {
                    throw r.error(
                      `bone node index ${nodeIndex} is out of range (0..${numNodes - 1})`,
                      'nodeIndex',
                      'BAD_INDEX',
                      at,
                    );
                  }
                  return { nodeIndex, invRestMatrix: readMat(r, 'invRestMatrix') };
                }),
              );
            }
            const emissiveColor = readVec3(r, 'emissiveColor');
            const castShadow = r.u8('castShadow');
            return { mesh, bones, emissiveColor, castShadow };
          });
        } else if (type !== -1) {
          throw r.error(`unknown node type ${type} (expected −1 or 0)`, 'type', 'BAD_NODE_TYPE', typeAt);
        }
        return node;
      }),
    );
  }
  const trailing = trailingBytes(r, 'node', options);
  checkParentCycles(nodes, fileName);
  return { magic: 'MDL1', version, nodes, ...(trailing ? { trailing } : {}) };
}

function checkParentCycles(nodes: ModelNode[], file?: string): void {
  const state = new Uint8Array(nodes.length); // 0 unknown, 1 visiting, 2 ok
  for (let i = 0; i < nodes.length; i++) {
    let j = i;
    const path: number[] = [];
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      path.push(j);
      j = nodes[j].parent;
    }
    if (j >= 0 && state[j] === 1) {
      throw new FormatError(`node parents form a cycle through node ${j} ("${nodes[j].name}")`, {
        code: 'PARENT_CYCLE',
        file,
        field: `nodes[${j}].parent`,
      });
    }
    for (const k of path) state[k] = 2;
  }
}

/** Writes a `String` (int32 length + UTF-8 bytes). */
export function writeString(w: ByteWriter, s: string): void {
  w.pstring32(s);
}

/**
 * Writes a `.model` file. `write(readModel(b))` reproduces `b` byte for byte.
 *
 * ```ts
 * const bytes = writeModel(readModel(original));
 * ```
 */
export function writeModel(model: ModelFile): Uint8Array {
  // Exact size first, then one buffer written in place: the file is returned without the
  // copy a growable writer's finish() makes (a 40 MB model would briefly need 80 MB).
  const names = model.nodes.map((n) => encodeText(n.name));
  const materials = model.nodes.map((n) =>
    n.type === 0 && n.meshEntity ? n.meshEntity.mesh.segments.map((sg) => encodeText(sg.material)) : [],
  );
  let size = 12;
  model.nodes.forEach((n, i) => {
    size += 4 + names[i].byteLength + 48 + 8;
    if (n.type !== 0) return;
    const e = n.meshEntity;
    if (!e) throw new RangeError(`node "${n.name}" has type 0 but no mesh entity`);
    const m = e.mesh;
    size += 12 + 12 * VERTEX_ARRAY_COUNT + 4 + 4 * m.indices.length + 4;
    for (let k = 0; k < VERTEX_ARRAY_COUNT; k++) {
      const a = m.arrays[k];
      if (a && a.stride > 0 && m.numVertices > 0) {
        if (a.data.byteLength !== a.stride * m.numVertices) {
          throw new RangeError(
            `array ${k} of "${n.name}" has ${a.data.byteLength} bytes, expected ${a.stride * m.numVertices}`,
          );
        }
        size += a.data.byteLength;
      }
    }
    for (const b of materials[i]) size += 4 + b.byteLength + 12;
    size += 40 + 4 + e.bones.length * 52 + 12 + 1;
  });
  size += model.trailing?.byteLength ?? 0;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let o = 0;
  const i32 = (v: number) => {
    dv.setInt32(o, v, true);
    o += 4;
  };
  const f32s = (a: ArrayLike<number>, n: number) => {
    if (a instanceof Float32Array) {
      // bit for bit: a float → double → float trip would quiet a signalling NaN
      const bits = new Uint32Array(a.buffer, a.byteOffset, Math.min(n, a.length));
      for (let i = 0; i < n; i++, o += 4) dv.setUint32(o, i < bits.length ? bits[i] : 0, true);
      return;
    }
    for (let i = 0; i < n; i++, o += 4) dv.setFloat32(o, a[i] ?? 0, true);
  };
  const bytes = (b: Uint8Array) => {
    out.set(b, o);
    o += b.byteLength;
  };
  const str = (b: Uint8Array) => {
    i32(b.byteLength);
    bytes(b);
  };
  bytes(MAGIC_MDL1);
  i32(model.version);
  i32(model.nodes.length);
  model.nodes.forEach((node, ni) => {
    str(names[ni]);
    f32s(node.localToParent, 12);
    i32(node.parent);
    i32(node.type);
    if (node.type !== 0) return;
    const e = node.meshEntity!;
    const m = e.mesh;
    bytes(MAGIC_MESH);
    i32(m.version);
    i32(m.numVertices);
    for (let i = 0; i < VERTEX_ARRAY_COUNT; i++) {
      const a = m.arrays[i] ?? { dataType: 0, dim: 0, stride: 0, data: new Uint8Array(0) };
      i32(a.dataType);
      i32(a.dim);
      i32(a.stride);
      if (a.stride > 0 && m.numVertices > 0) bytes(a.data);
    }
    i32(m.indices.length);
    if (LITTLE_ENDIAN_HOST)
      bytes(new Uint8Array(m.indices.buffer, m.indices.byteOffset, m.indices.byteLength));
    else for (let i = 0; i < m.indices.length; i++) i32(m.indices[i]);
    i32(m.segments.length);
    m.segments.forEach((sg, k) => {
      str(materials[ni][k]);
      i32(sg.primitiveType);
      i32(sg.firstIndex);
      i32(sg.count);
    });
    f32s(m.boundCenter, 3);
    f32s([m.boundRadius], 1);
    f32s(m.boundMin, 3);
    f32s(m.boundMax, 3);
    i32(e.bones.length);
    for (const b of e.bones) {
      i32(b.nodeIndex);
      f32s(b.invRestMatrix, 12);
    }
    f32s(e.emissiveColor, 3);
    out[o++] = e.castShadow;
  });
  if (model.trailing) bytes(model.trailing);
  if (o !== size) throw new RangeError(`model writer size mismatch: ${o} of ${size} bytes`);
  return out;
}

const MAGIC_MDL1 = encodeText('MDL1');
const MAGIC_MESH = encodeText('MESH');

/**
 * Values of a vertex array as numbers (`numVertices * dim`), read element by element at
 * `i * stride` (trailing bytes of a larger stride are ignored). Unknown data types give null.
 *
 * ```ts
 * const pos = vertexArrayValues(mesh.arrays[VA_POSITION], mesh.numVertices); // Float32Array
 * ```
 */
export function vertexArrayValues(
  a: VertexArray,
  numVertices: number,
): Float32Array | Int32Array | Int16Array | Uint8Array | null {
  if (!hasVertexValues(a, numVertices)) return null;
  const size = dataTypeSize(a.dataType)!;
  const n = numVertices * a.dim;
  if (a.stride === a.dim * size && LITTLE_ENDIAN_HOST) {
    // Tightly packed: one byte copy (aligned at 0) viewed as the element type.
    // A real copy at offset 0 (a Node Buffer's slice() would be a view into the whole file).
    const b = new Uint8Array(n * size);
    b.set(a.data.subarray(0, n * size));
    if (a.dataType === 0) return b;
    if (a.dataType === 1) return new Int16Array(b.buffer);
    if (a.dataType === 2) return new Int32Array(b.buffer);
    return new Float32Array(b.buffer);
  }
  const dv = new DataView(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const out =
    a.dataType === 0
      ? new Uint8Array(n)
      : a.dataType === 1
        ? new Int16Array(n)
        : a.dataType === 2
          ? new Int32Array(n)
          : new Float32Array(n);
  for (let v = 0; v < numVertices; v++) {
    const base = v * a.stride;
    for (let c = 0; c < a.dim; c++) {
      const o = base + c * size;
      out[v * a.dim + c] =
        a.dataType === 0
          ? dv.getUint8(o)
          : a.dataType === 1
            ? dv.getInt16(o, true)
            : a.dataType === 2
              ? dv.getInt32(o, true)
              : dv.getFloat32(o, true);
    }
  }
  return out;
}

/**
 * True when {@link vertexArrayValues} would decode the array (known type, used, elements fit the stride).
 *
 * ```ts
 * hasVertexValues(mesh.arrays[VA_COLOR], mesh.numVertices); // false for an unused slot
 * ```
 */
export function hasVertexValues(a: VertexArray, numVertices: number): boolean {
  const size = dataTypeSize(a.dataType);
  return size !== undefined && a.stride > 0 && a.dim > 0 && numVertices > 0 && a.dim * size <= a.stride;
}

/**
 * Packs numbers into a vertex array of the given layout (`stride = dim * size` unless given).
 *
 * ```ts
 * const uv = makeVertexArray([0, 0, 1, 0, 1, 1], 3, DataType.FLOAT32, 2); // stride 8
 * ```
 */
export function makeVertexArray(
  values: ArrayLike<number>,
  numVertices: number,
  dataType: number,
  dim: number,
  stride?: number,
): VertexArray {
  const size = dataTypeSize(dataType);
  if (size === undefined) throw new RangeError(`unknown vertex data type ${dataType}`);
  const s = stride ?? dim * size;
  const data = new Uint8Array(numVertices * s);
  const dv = new DataView(data.buffer);
  for (let v = 0; v < numVertices; v++) {
    for (let c = 0; c < dim; c++) {
      const o = v * s + c * size;
      const x = values[v * dim + c];
      if (dataType === 0) dv.setUint8(o, x);
      else if (dataType === 1) dv.setInt16(o, x, true);
      else if (dataType === 2) dv.setInt32(o, x, true);
      else dv.setFloat32(o, x, true);
    }
  }
  return { dataType, dim, stride: s, data };
}

/** True on little-endian hosts: packed arrays can then be read and written through typed views. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * An unused vertex array header (`dataType 0, dim 0, stride 0`, no data).
 *
 * ```ts
 * const arrays = Array.from({ length: 15 }, () => emptyVertexArray());
 * ```
 */
export function emptyVertexArray(): VertexArray {
  return { dataType: 0, dim: 0, stride: 0, data: new Uint8Array(0) };
}
