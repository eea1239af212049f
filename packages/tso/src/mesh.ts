import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import { putF32LE, putU32BE } from './bulk.js';

/**
 * The Sims Online `.mesh` file model. Integers are big-endian, floats little-endian, strings
 * are u8-length Pascal strings. Vertices are in the space of the bone they are bound to.
 */

/** One bone binding: a run of real vertices and a run of blend vertices attached to a bone. */
export interface TsoBinding {
  /** Index into {@link TsoMesh.boneNames}. */
  boneIndex: number;
  firstRealVertex: number;
  realVertexCount: number;
  /** 0xFFFFFFFF (-1) in FreeSO files when `blendVertexCount` is 0. */
  firstBlendVertex: number;
  blendVertexCount: number;
}

/** A `.mesh` file, field for field. */
export interface TsoMesh {
  /** u32 version (2 in every known file). */
  version: number;
  /** Names of the skeleton bones this mesh is bound to. */
  boneNames: string[];
  /** Triangle list into the real vertices: `faceCount * 3` indices. */
  indices: Uint32Array;
  bindings: TsoBinding[];
  /** `realVertexCount * 2` texture coordinates (u, v). */
  uvs: Float32Array;
  /**
   * `blendVertexCount * 2` u32 pairs in file order: (weight, otherVertex). `weight` is Q1.15
   * (0x8000 = 1.0); `otherVertex` is the real vertex the blend vertex pulls on.
   */
  blendData: Uint32Array;
  /** The u32 after the blend data (FreeSO writes the real vertex count; readers ignore it). */
  vertexCount2: number;
  /** `realVertexCount * 6` floats: x, y, z, nx, ny, nz in bone space. */
  realVertices: Float32Array;
  /** `blendVertexCount * 6` floats: x, y, z, nx, ny, nz in the blend bone's space. */
  blendVertices: Float32Array;
  /** Bytes after the last vertex (none in known files), kept for a lossless write. */
  trailing: Uint8Array;
}

/** Number of real vertices of a mesh. */
export function realVertexCount(mesh: TsoMesh): number {
  return mesh.uvs.length / 2;
}

/** Number of blend vertices of a mesh. */
export function blendVertexCount(mesh: TsoMesh): number {
  return mesh.blendData.length / 2;
}

/**
 * Reads a `.mesh`. Every count is checked against the bytes left before allocating; indices,
 * bindings and blend targets are range-checked (`BAD_INDEX`).
 *
 * ```ts
 * const mesh = readMesh(bytes, 'woodaxe.mesh');
 * mesh.boneNames; // ['R_HAND']
 * ```
 */
export function readMesh(bytes: Uint8Array, fileName?: string): TsoMesh {
  const r = new ByteReader(bytes, { file: fileName, littleEndian: false, encoding: 'latin1' });
  const version = r.u32be('version');
  const boneCount = r.count(r.u32be('boneCount'), 1, 'boneNames');
  const boneNames: string[] = new Array(boneCount);
  for (let i = 0; i < boneCount; i++) boneNames[i] = r.pstring8(`boneNames[${i}]`);
  const faceCount = r.count(r.u32be('faceCount'), 12, 'indices');
  const indicesAt = r.offset;
  const indices = r.u32Array(faceCount * 3, 'indices', true, false);
  const bindingCount = r.count(r.u32be('bindingCount'), 20, 'bindings');
  const bindingsAt = r.offset;
  const raw = r.u32Array(bindingCount * 5, 'bindings', true, false);
  const bindings: TsoBinding[] = new Array(bindingCount);
  for (let i = 0; i < bindingCount; i++) {
    bindings[i] = {
      boneIndex: raw[i * 5],
      firstRealVertex: raw[i * 5 + 1],
      realVertexCount: raw[i * 5 + 2],
      firstBlendVertex: raw[i * 5 + 3],
      blendVertexCount: raw[i * 5 + 4],
    };
  }
  // Each real vertex needs 8 bytes of UV here and 24 bytes of position/normal later.
  const realCount = r.count(r.u32be('realVertexCount'), 32, 'uvs');
  const uvs = r.f32Array(realCount * 2, 'uvs', true, true);
  const blendCount = r.count(r.u32be('blendVertexCount'), 32, 'blendData');
  const blendAt = r.offset;
  const blendData = r.u32Array(blendCount * 2, 'blendData', true, false);
  const vertexCount2 = r.u32be('vertexCount2');
  const realVertices = r.f32Array(realCount * 6, 'realVertices', true, true);
  const blendVertices = r.f32Array(blendCount * 6, 'blendVertices', true, true);
  const trailing = r.bytesCopy(r.remaining, 'trailing');

  const bad = (msg: string, field: string, offset: number) =>
    new FormatError(msg, { code: 'BAD_INDEX', file: fileName, offset, field });
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= realCount) {
      throw bad(
        `index ${indices[i]} is not below the ${realCount} real vertices`,
        `indices[${i}]`,
        indicesAt + i * 4,
      );
    }
  }
  for (let i = 0; i < bindingCount; i++) {
    const b = bindings[i];
    const at = bindingsAt + i * 20;
    if (b.boneIndex >= boneCount)
      throw bad(`bone ${b.boneIndex} is not below the ${boneCount} bones`, `bindings[${i}].boneIndex`, at);
    if (b.realVertexCount > 0 && b.firstRealVertex + b.realVertexCount > realCount) {
      throw bad(
        `real vertices ${b.firstRealVertex}+${b.realVertexCount} exceed the ${realCount} real vertices`,
        `bindings[${i}].realVertexCount`,
        at + 8,
      );
    }
    if (b.blendVertexCount > 0 && b.firstBlendVertex + b.blendVertexCount > blendCount) {
      throw bad(
        `blend vertices ${b.firstBlendVertex}+${b.blendVertexCount} exceed the ${blendCount} blend vertices`,
        `bindings[${i}].blendVertexCount`,
        at + 16,
      );
    }
  }
  for (let j = 0; j < blendCount; j++) {
    if (blendData[j * 2 + 1] >= realCount) {
      throw bad(
        `blend target ${blendData[j * 2 + 1]} is not below the ${realCount} real vertices`,
        `blendData[${j}].otherVertex`,
        blendAt + j * 8 + 4,
      );
    }
  }
  return {
    version,
    boneNames,
    indices,
    bindings,
    uvs,
    blendData,
    vertexCount2,
    realVertices,
    blendVertices,
    trailing,
  };
}

/**
 * Writes a `.mesh`; `writeMesh(readMesh(b))` equals `b`.
 *
 * ```ts
 * const bytes = writeMesh(mesh);
 * ```
 */
export function writeMesh(mesh: TsoMesh): Uint8Array {
  const real = mesh.uvs.length / 2;
  const blend = mesh.blendData.length / 2;
  // Header and names through the writer; the bulk arrays go straight into one exact buffer.
  const head = new ByteWriter({
    littleEndian: false,
    encoding: 'latin1',
    capacity: 64 + mesh.boneNames.length * 32,
  });
  head.u32be(mesh.version);
  head.u32be(mesh.boneNames.length);
  for (const n of mesh.boneNames) head.pstring8(n);
  const h = head.finish();
  const size =
    h.length +
    4 * (5 + mesh.indices.length + mesh.bindings.length * 5 + mesh.uvs.length + mesh.blendData.length) +
    4 * (mesh.realVertices.length + mesh.blendVertices.length) +
    mesh.trailing.length;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(h);
  let at = h.length;
  dv.setUint32(at, mesh.indices.length / 3);
  at = putU32BE(out, at + 4, mesh.indices);
  dv.setUint32(at, mesh.bindings.length);
  at += 4;
  for (const b of mesh.bindings) {
    dv.setUint32(at, b.boneIndex);
    dv.setUint32(at + 4, b.firstRealVertex);
    dv.setUint32(at + 8, b.realVertexCount);
    dv.setUint32(at + 12, b.firstBlendVertex);
    dv.setUint32(at + 16, b.blendVertexCount);
    at += 20;
  }
  dv.setUint32(at, real);
  at = putF32LE(out, at + 4, mesh.uvs);
  dv.setUint32(at, blend);
  at = putU32BE(out, at + 4, mesh.blendData);
  dv.setUint32(at, mesh.vertexCount2);
  at = putF32LE(out, at + 4, mesh.realVertices);
  at = putF32LE(out, at, mesh.blendVertices);
  out.set(mesh.trailing, at);
  return out;
}
