/**
 * `Mesh` (Unreal 1) and `LodMesh` (UT99, Unreal Gold, Deus Ex, Rune) exports: the vertex frames,
 * triangles, sequences, texture slots and placement (UE Viewer's `SerializeLodMesh1` describes the
 * layout). Frames are kept as the packed words the `_a.3d` holds (Deus Ex: 4 × i16 per vertex).
 */
import type { ByteReader } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';
import { readArrayCount, readLazyArrayHeader, skipLazyArray } from './lazy-array.js';
import { type NameLookup, readName } from './names.js';
import type { PackageObject } from './object.js';

/** One `MESH SEQUENCE` as the package holds it. */
export interface PackageMeshSequence {
  name: string;
  /** `None` when the sequence has no group. */
  group: string;
  startFrame: number;
  numFrames: number;
  rate: number;
  notifies: { time: number; function: string }[];
}

/** A vertex mesh read from a package. */
export interface PackageMesh {
  name: string;
  className: string;
  layout: 'packed' | 'deusex';
  /** Vertices per frame (`FrameVerts`, special vertices included). */
  frameVerts: number;
  /** Frames (`AnimFrames`). */
  animFrames: number;
  /** `animFrames × frameVerts` vertices: u32 words (packed) or 4 × i16 (Deus Ex), as bytes. */
  verts: Uint8Array;
  /** `3n` vertex indices (into one frame). */
  triVertices: Uint16Array;
  /** `6n` UV bytes (corner 0 U, V, corner 1 U, …). */
  triUvs: Uint8Array;
  /** Engine PolyFlags of each triangle. */
  triPolyFlags: Uint32Array;
  /** Texture slot of each triangle. */
  triTextures: Int32Array;
  /** How many of the `n` triangles are special (weapon) faces, at the end of the arrays. */
  specialFaces: number;
  sequences: PackageMeshSequence[];
  /** Texture slots: object references (0 for an empty slot). */
  textures: number[];
  scale: [number, number, number];
  origin: [number, number, number];
  /** Pitch, yaw, roll in 65536ths of a turn. */
  rotOrigin: [number, number, number];
  /** LOD settings of a LodMesh (kept for inspection). */
  lod?: {
    modelVerts: number;
    specialVerts: number;
    meshScaleMax: number;
    strength: number;
    minVerts: number;
    morph: number;
    zDisplace: number;
    hysteresis: number;
  };
}

/** The engine's PolyFlags the mesh importer sets from a `_d.3d` type byte. */
export const PolyFlags = {
  INVISIBLE: 0x1,
  MASKED: 0x2,
  TRANSLUCENT: 0x4,
  ENVIRONMENT: 0x10,
  MODULATED: 0x40,
  TWO_SIDED: 0x100,
  NO_SMOOTH: 0x800,
  FLAT: 0x4000,
  UNLIT: 0x400000,
} as const;

/**
 * Reads a `Mesh`/`LodMesh` export's body (the cursor after its properties).
 *
 * ```ts
 * const mesh = readLodMesh(r, obj, names);
 * ```
 */
export function readLodMesh(r: ByteReader, obj: PackageObject, names: NameLookup): PackageMesh {
  const { version, end } = obj;
  // UPrimitive
  skipBox(r, 'boundingBox');
  skipSphere(r, version, 'boundingSphere');
  // UMesh: vertices (Deus Ex: 8 bytes per vertex, told by the lazy array's size)
  const vAt = r.offset;
  const vh = readLazyArrayHeader(r, version, 4, 'verts', end);
  let stride = 4;
  if (vh.skip >= 0 && vh.count > 0 && vh.skip - vh.start === vh.count * 8) stride = 8;
  if (vh.count * stride > end - vh.start)
    throw r.error(`${vh.count} vertices do not fit in the object`, 'verts.count', 'COUNT_TOO_LARGE', vAt);
  const rawVerts = r.bytesView(vh.count * stride, 'verts');
  if (vh.skip >= 0 && vh.skip !== r.offset)
    throw r.error(
      `vertex array ends at ${r.offset}, its header says ${vh.skip}`,
      'verts.skip',
      'BAD_OFFSET',
      vAt,
    );
  // Tris (UMesh; a LodMesh leaves it empty)
  const th = readLazyArrayHeader(r, version, 20, 'tris', end);
  const meshTris = r.offset;
  r.skip(th.count * 20, 'tris');
  const sequences = readSequences(r, names, end);
  skipLazyArray(r, version, 8, 'connects', end);
  skipBox(r, 'boundingBox2');
  skipSphere(r, version, 'boundingSphere2');
  skipLazyArray(r, version, 4, 'vertLinks', end);
  const nTex = readArrayCount(r, 1, 'textures', end);
  const textures: number[] = [];
  for (let i = 0; i < nTex; i++) textures.push(readCompactIndex(r, `textures[${i}]`));
  r.skip(readArrayCount(r, 25, 'boundingBoxes', end) * 25, 'boundingBoxes');
  const sphere = version >= 61 ? 16 : 12;
  r.skip(readArrayCount(r, sphere, 'boundingSpheres', end) * sphere, 'boundingSpheres');
  let frameVerts = r.i32('frameVerts');
  const animFrames = r.i32('animFrames');
  r.u32('andFlags');
  r.u32('orFlags');
  const scale: [number, number, number] = [r.f32('scale.x'), r.f32('scale.y'), r.f32('scale.z')];
  const origin: [number, number, number] = [r.f32('origin.x'), r.f32('origin.y'), r.f32('origin.z')];
  const rotOrigin: [number, number, number] = [
    r.i32('rotOrigin.pitch'),
    r.i32('rotOrigin.yaw'),
    r.i32('rotOrigin.roll'),
  ];
  r.i32('curPoly');
  r.i32('curVertex');
  if (version === 65) r.f32('textureLOD');
  else if (version >= 66) r.skip(readArrayCount(r, 4, 'textureLOD', end) * 4, 'textureLOD');
  if (
    frameVerts < 0 ||
    animFrames < 0 ||
    (frameVerts * animFrames * stride > rawVerts.length && obj.className === 'Mesh')
  )
    throw r.error(
      `${animFrames} frames × ${frameVerts} vertices do not fit the ${vh.count} vertices`,
      'animFrames',
      'BAD_COUNT',
    );

  const layout = stride === 8 ? ('deusex' as const) : ('packed' as const);
  if (obj.className === 'Mesh') {
    // Unreal 1 Mesh: triangles with their own vertex indices, UVs, PolyFlags and texture
    const n = th.count;
    const tris = triArrays(n);
    const save = r.offset;
    r.seek(meshTris);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) tris.triVertices[3 * i + c] = r.u16('tris.vertex');
      for (let c = 0; c < 6; c++) tris.triUvs[6 * i + c] = r.u8('tris.uv');
      tris.triPolyFlags[i] = r.u32('tris.polyFlags');
      tris.triTextures[i] = r.i32('tris.textureIndex');
    }
    r.seek(save);
    return {
      name: obj.name,
      className: obj.className,
      layout,
      frameVerts,
      animFrames,
      verts: framedCopy(r.bytes, vh.start, rawVerts.length),
      triVertices: tris.triVertices,
      triUvs: tris.triUvs,
      triPolyFlags: tris.triPolyFlags,
      triTextures: tris.triTextures,
      specialFaces: 0,
      sequences,
      textures,
      scale,
      origin,
      rotOrigin,
    };
  }

  // LodMesh
  r.skip(readArrayCount(r, 2, 'collapsePointThus', end) * 2, 'collapsePointThus');
  r.skip(readArrayCount(r, 2, 'faceLevel', end) * 2, 'faceLevel');
  const nFaces = readArrayCount(r, 8, 'faces', end);
  const faces = r.bytesView(nFaces * 8, 'faces');
  r.skip(readArrayCount(r, 2, 'collapseWedgeThus', end) * 2, 'collapseWedgeThus');
  const nWedges = readArrayCount(r, 4, 'wedges', end);
  const wedges = r.bytesView(nWedges * 4, 'wedges');
  const nMat = readArrayCount(r, 8, 'materials', end);
  const matFlags = new Uint32Array(nMat);
  const matTex = new Int32Array(nMat);
  for (let i = 0; i < nMat; i++) {
    matFlags[i] = r.u32(`materials[${i}].polyFlags`);
    matTex[i] = r.i32(`materials[${i}].textureIndex`);
  }
  const nSpecial = readArrayCount(r, 8, 'specialFaces', end);
  const special = r.bytesView(nSpecial * 8, 'specialFaces');
  const modelVerts = r.i32('modelVerts');
  const specialVerts = r.i32('specialVerts');
  const meshScaleMax = r.f32('meshScaleMax');
  const hysteresis = r.f32('lodHysteresis');
  const strength = r.f32('lodStrength');
  const minVerts = r.i32('lodMinVerts');
  const morph = r.f32('lodMorph');
  const zDisplace = r.f32('lodZDisplace');
  const nRemap = readArrayCount(r, 2, 'remapAnimVerts', end);
  const remapAt = r.offset;
  const remap = nRemap ? new Uint16Array(nRemap) : EMPTY_U16;
  for (let i = 0; i < nRemap; i++) remap[i] = r.u16('remapAnimVerts');
  const oldFrameVerts = r.i32('oldFrameVerts');

  // frames, after the vertex remap UCC may have recorded
  let verts = rawVerts;
  if (nRemap) {
    if (oldFrameVerts <= 0 || oldFrameVerts * animFrames * stride > rawVerts.length)
      throw r.error(
        `oldFrameVerts ${oldFrameVerts} × ${animFrames} frames do not fit the ${vh.count} vertices`,
        'oldFrameVerts',
        'BAD_COUNT',
      );
    frameVerts = nRemap;
    // 4 spare bytes in front: the `_a.3d` header goes there (sources.ts), no second copy
    const framed = new Uint8Array(4 + animFrames * frameVerts * stride);
    verts = framed.subarray(4);
    // checked once (the first frame met it before: same error, same entry)
    if (animFrames > 0)
      for (let k = 0; k < frameVerts; k++)
        if (remap[k] >= oldFrameVerts)
          throw r.error(
            `remapped vertex ${remap[k]} is past ${oldFrameVerts}`,
            `remapAnimVerts[${k}]`,
            'INDEX_OUT_OF_RANGE',
            remapAt + 2 * k,
          );
    // a 32-bit word at a time (bytes are copied as they are: no byte order involved); the
    // package's bytes are copied first when they are not 4-byte aligned (issue 28: byte by byte
    // and a subarray per vertex cost more)
    const words = stride >> 2;
    const src =
      rawVerts.byteOffset & 3
        ? new Uint32Array(rawVerts.slice(0, oldFrameVerts * animFrames * stride).buffer)
        : new Uint32Array(rawVerts.buffer, rawVerts.byteOffset, (oldFrameVerts * animFrames * stride) >> 2);
    const dst = new Uint32Array(framed.buffer, 4, (animFrames * frameVerts * stride) >> 2);
    let to = 0;
    for (let f = 0; f < animFrames; f++) {
      const frame = f * oldFrameVerts;
      if (words === 1) for (let k = 0; k < frameVerts; k++) dst[to++] = src[frame + remap[k]];
      else
        for (let k = 0; k < frameVerts; k++) {
          const from = (frame + remap[k]) * 2;
          dst[to++] = src[from];
          dst[to++] = src[from + 1];
        }
    }
    framedVerts.add(verts);
  } else if (frameVerts * animFrames * stride > rawVerts.length) {
    throw r.error(
      `${animFrames} frames × ${frameVerts} vertices do not fit the ${vh.count} vertices`,
      'animFrames',
      'BAD_COUNT',
    );
  } else {
    verts = framedCopy(r.bytes, vh.start, frameVerts * animFrames * stride);
  }

  const n = nFaces + nSpecial;
  const { triVertices, triUvs, triPolyFlags, triTextures } = triArrays(n);
  // little-endian u16 fields read from the bytes (faces: 3 wedges and a material; wedges: a
  // vertex and U, V; special faces: 3 vertices)
  for (let i = 0; i < nFaces; i++) {
    const f = 8 * i;
    for (let c = 0; c < 3; c++) {
      const w = faces[f + 2 * c] | (faces[f + 2 * c + 1] << 8);
      if (w >= nWedges)
        throw r.error(`face ${i} names wedge ${w} of ${nWedges}`, `faces[${i}].wedge`, 'INDEX_OUT_OF_RANGE');
      const v = (wedges[4 * w] | (wedges[4 * w + 1] << 8)) + specialVerts;
      if (v >= frameVerts)
        throw r.error(
          `wedge ${w} names vertex ${v} of ${frameVerts}`,
          `wedges[${w}].vertex`,
          'INDEX_OUT_OF_RANGE',
        );
      triVertices[3 * i + c] = v;
      triUvs[6 * i + 2 * c] = wedges[4 * w + 2];
      triUvs[6 * i + 2 * c + 1] = wedges[4 * w + 3];
    }
    const m = faces[f + 6] | (faces[f + 7] << 8);
    if (m >= nMat)
      throw r.error(`face ${i} names material ${m} of ${nMat}`, `faces[${i}].material`, 'INDEX_OUT_OF_RANGE');
    triPolyFlags[i] = matFlags[m];
    triTextures[i] = matTex[m];
  }
  // special (weapon) faces: corners are vertex indices among the special vertices
  for (let j = 0; j < nSpecial; j++) {
    const i = nFaces + j;
    for (let c = 0; c < 3; c++) {
      const v = special[8 * j + 2 * c] | (special[8 * j + 2 * c + 1] << 8);
      if (v >= frameVerts)
        throw r.error(
          `special face ${j} names vertex ${v} of ${frameVerts}`,
          `specialFaces[${j}]`,
          'INDEX_OUT_OF_RANGE',
        );
      triVertices[3 * i + c] = v;
    }
    triPolyFlags[i] = PolyFlags.INVISIBLE | PolyFlags.TWO_SIDED;
    triTextures[i] = 0;
  }
  // one literal of a fixed shape (issue 28: spreading a base object into it cost more than the
  // triangle loop)
  return {
    name: obj.name,
    className: obj.className,
    layout,
    frameVerts,
    animFrames,
    verts,
    triVertices,
    triUvs,
    triPolyFlags,
    triTextures,
    specialFaces: nSpecial,
    sequences,
    textures,
    scale,
    origin,
    rotOrigin,
    lod: { modelVerts, specialVerts, meshScaleMax, strength, minVerts, morph, zDisplace, hysteresis },
  };
}

const EMPTY_U16 = new Uint16Array(0);

/** The four per-triangle arrays of `n` triangles, in one buffer (one allocation instead of four). */
function triArrays(n: number): Pick<PackageMesh, 'triVertices' | 'triUvs' | 'triPolyFlags' | 'triTextures'> {
  const buf = new ArrayBuffer(20 * n);
  return {
    triPolyFlags: new Uint32Array(buf, 0, n),
    triTextures: new Int32Array(buf, 4 * n, n),
    triVertices: new Uint16Array(buf, 8 * n, 3 * n),
    triUvs: new Uint8Array(buf, 14 * n, 6 * n),
  };
}

/**
 * A copy of `length` bytes at `start` with 4 spare bytes in front (the `_a.3d` header goes there:
 * {@link framedAniv}); one copy, no zero fill: the 4 bytes before the frames are copied along
 * and overwritten later.
 */
function framedCopy(bytes: Uint8Array, start: number, length: number): Uint8Array {
  if (start < 4) return bytes.slice(start, start + length);
  const verts = bytes.slice(start - 4, start + length).subarray(4);
  framedVerts.add(verts);
  return verts;
}

/** Frames {@link readLodMesh} copied into a buffer of their own with 4 spare bytes in front. */
const framedVerts = new WeakSet<Uint8Array>();

/**
 * `mesh.verts` behind a 4-byte `_a.3d` header when {@link readLodMesh} left room for one in front
 * of them (the header is written there, in the mesh's own copy), else undefined (the caller copies).
 *
 * ```ts
 * const anivBytes = framedAniv(mesh.verts, mesh.animFrames, 4 * mesh.frameVerts);
 * ```
 */
export function framedAniv(verts: Uint8Array, numFrames: number, frameSize: number): Uint8Array | undefined {
  if (!framedVerts.has(verts) || verts.byteOffset !== 4 || verts.buffer.byteLength !== 4 + verts.length)
    return undefined;
  const out = new Uint8Array(verts.buffer, 0, 4 + verts.length);
  out[0] = numFrames & 0xff;
  out[1] = numFrames >> 8;
  out[2] = frameSize & 0xff;
  out[3] = frameSize >> 8;
  return out;
}

function skipBox(r: ByteReader, field: string): void {
  r.skip(25, field);
}

function skipSphere(r: ByteReader, version: number, field: string): void {
  r.skip(version >= 61 ? 16 : 12, field);
}

function readSequences(r: ByteReader, names: NameLookup, end: number): PackageMeshSequence[] {
  const n = readArrayCount(r, 14, 'animSeqs', end);
  const out: PackageMeshSequence[] = [];
  for (let i = 0; i < n; i++) {
    const f = `animSeqs[${i}]`;
    const name = readName(r, names, `${f}.name`);
    const group = readName(r, names, `${f}.group`);
    const startFrame = r.i32(`${f}.startFrame`);
    const numFrames = r.i32(`${f}.numFrames`);
    const nn = readArrayCount(r, 5, `${f}.notifys`, end);
    const notifies: PackageMeshSequence['notifies'] = [];
    for (let k = 0; k < nn; k++)
      notifies.push({
        time: r.f32(`${f}.notifys[${k}].time`),
        function: readName(r, names, `${f}.notifys[${k}].function`),
      });
    const rate = r.f32(`${f}.rate`);
    out.push({ name, group, startFrame, numFrames, rate, notifies });
  }
  return out;
}
