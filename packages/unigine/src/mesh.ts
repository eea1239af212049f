/**
 * The ms11 `.mesh` file model: `readMesh` / `writeMesh`, byte for byte — surfaces (morph targets,
 * tangent frames, weight records, UVs, colours, indices); the sections it shares with `.anim`
 * are in `sections.ts`.
 */
import { ByteReader, ByteWriter } from '@gltf-legacy/core';
import { type AnimationBlock, writeBlock } from './block.js';
import {
  MESH_MAGIC,
  type TextEncoding,
  TRS_FLOATS,
  type UnigineBone,
  readBindPose,
  readBounds,
  readNames,
  writeNames,
} from './common.js';
import { CHUNK } from './kernels.js';
import {
  READ_DEFAULTS,
  type ReadOptions,
  expectEnd,
  readAnimationBlocks,
  readFileHeader,
  readWithTextFallback,
  writeFileHeader,
} from './sections.js';
import { readCount, readString, writeInt2, writeString } from './int2.js';

/** One surface of an ms11 mesh: its header and its geometry. */
export interface MeshSurface {
  name: string;
  /** bbox min[3], max[3], sphere centre[3], radius (f32, as stored). */
  bounds: Float32Array;
  /**
   * Morph target names from the surface header (compact count + strings). Every sample has one
   * target named "" (the base shape): the header bytes `01 01 00`.
   */
  targetNames: string[];
  /** Coordinate-vertex positions per morph target (`[target][numCoordVerts × 3]`). */
  targets: Float32Array[];
  /** `numTriVerts × 4` tangent-space quaternions (x, y, z, w; value = q / 32767). */
  tangents: Int16Array;
  /** Influence count per weight record (`numWeights` = 0 or `numCoordVerts`). */
  weightCounts: Uint8Array;
  /** Start of each record's influences in {@link weightBones} / {@link weightValues} (length numWeights + 1). */
  weightStarts: Uint32Array;
  /** Bone index (raw int16) of each influence. */
  weightBones: Int16Array;
  /** Weight code (u16; weight = q / 65535) of each influence. */
  weightValues: Uint16Array;
  /** `numUV0 × 2` first UV set. */
  uv0: Float32Array;
  /** `numUV1 × 2` second UV set. */
  uv1: Float32Array;
  /** `numColors × 4` RGBA bytes. */
  colors: Uint8Array;
  /** Position index of each triangle corner (stored as u8/u16/int32 by the coordinate count). */
  coordIndices: Uint32Array;
  /** Attribute index of each triangle corner (stored as u8/u16/int32 by the tangent count). */
  triIndices: Uint32Array;
}

/** An ms11 `.mesh` file, field for field. */
export interface MeshFile {
  magic: 'ms11';
  /** Text encoding of the strings (latin1 only when some name is not valid UTF-8). */
  encoding: TextEncoding;
  /** Mesh bbox min[3], max[3], sphere centre[3], radius. */
  bounds: Float32Array;
  bones: UnigineBone[];
  /** Names of the embedded animations. */
  animationNames: string[];
  surfaces: MeshSurface[];
  /** `numBones × 10` bind pose: position[3], rotation (x, y, z, w), scale[3]; empty without bones. */
  bindPose: Float32Array;
  /** One float-variant block per embedded animation. */
  animations: AnimationBlock[];
  /** Bytes after the closing magic (read only with `keepTrailing`; written back after it). */
  trailing?: Uint8Array;
}

/**
 * Width in bytes of indices into `count` vertices: u8 below 256, u16 below 65536, else int32.
 *
 * ```ts
 * indexWidth(71742); // 4
 * ```
 */
export function indexWidth(count: number): 1 | 2 | 4 {
  return count < 256 ? 1 : count < 65536 ? 2 : 4;
}

function readIndices(r: ByteReader, n: number, vertexCount: number, field: string): Uint32Array {
  const width = indexWidth(vertexCount);
  r.count(n, width, field);
  const at = r.offset;
  // Bulk reads (typed views where aligned), widened to u32.
  let out: Uint32Array;
  if (width === 4) out = r.u32Array(n, field, true);
  else if (width === 2) out = new Uint32Array(r.u16Array(n, field));
  else out = new Uint32Array(r.u8Array(n, field));
  let max = 0;
  for (let from = 0; from < n; from += CHUNK) max = maxIn(out, from, Math.min(n, from + CHUNK), max);
  if (max < vertexCount) return out;
  for (let i = 0; i < n; i++) {
    if (out[i] >= vertexCount) {
      throw r.error(
        `index ${out[i]} at position ${i} is outside the ${vertexCount} vertices`,
        field,
        'BAD_INDEX',
        at + i * width,
      );
    }
  }
  return out;
}

function maxIn(a: Uint32Array, from: number, to: number, max0: number): number {
  let max = max0;
  for (let i = from; i < to; i++) if (a[i] > max) max = a[i];
  return max;
}

function writeIndices(w: ByteWriter, idx: Uint32Array, vertexCount: number): void {
  const width = indexWidth(vertexCount);
  if (width === 1) w.bytes(new Uint8Array(idx));
  else if (width === 2) w.u16Array(new Uint16Array(idx));
  else w.u32Array(idx);
}

function readWeights(
  r: ByteReader,
): Pick<MeshSurface, 'weightCounts' | 'weightStarts' | 'weightBones' | 'weightValues'> {
  const n = readCount(r, 1, 'numWeights');
  const counts = new Uint8Array(n);
  const starts = new Uint32Array(n + 1);
  // First pass: the counts (bounds-checked), to size the influence arrays. Both passes run in
  // chunks: a loop function called many times is optimized during the first read.
  let o = r.offset;
  let total = 0;
  const end = r.length;
  const b = r.bytes;
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK);
    const stop = countRecords(b, end, from, to, o, total, counts, starts);
    const after = stop > from ? starts[stop - 1] + counts[stop - 1] : total;
    o += stop - from + 4 * (after - total);
    total = after;
    if (stop < to) {
      r.offset = o;
      r.need(1, `weights[${stop}].count`);
    }
  }
  starts[n] = total;
  if (o > end) {
    r.offset = end;
    throw r.error('weight records run past the end of the file', 'weights', 'TRUNCATED');
  }
  const bones = new Int16Array(total);
  const values = new Uint16Array(total);
  o = r.offset;
  for (let from = 0; from < n; from += CHUNK)
    o = decodeRecords(b, counts, starts, from, Math.min(n, from + CHUNK), o, bones, values);
  r.offset = o;
  return { weightCounts: counts, weightStarts: starts, weightBones: bones, weightValues: values };
}

/** Counts of records `from … to−1` starting at byte `o`; returns the record at which the bytes ran out (or `to`). */
function countRecords(
  b: Uint8Array,
  end: number,
  from: number,
  to: number,
  o: number,
  total: number,
  counts: Uint8Array,
  starts: Uint32Array,
): number {
  let p = o;
  let t = total;
  for (let i = from; i < to; i++) {
    if (p >= end) return i;
    const c = b[p];
    counts[i] = c;
    starts[i] = t;
    t += c;
    p += 1 + c * 4;
  }
  return to;
}

/** Influences of records `from … to−1` starting at byte `o`; returns the byte after them. */
function decodeRecords(
  b: Uint8Array,
  counts: Uint8Array,
  starts: Uint32Array,
  from: number,
  to: number,
  o: number,
  bones: Int16Array,
  values: Uint16Array,
): number {
  let p = o;
  for (let i = from; i < to; i++) {
    const c = counts[i];
    p++;
    for (let k = 0, s = starts[i]; k < c; k++, s++) {
      bones[s] = b[p] | (b[p + 1] << 8); // int16 little-endian (the typed array wraps the sign)
      values[s] = b[p + 2] | (b[p + 3] << 8);
      p += 4;
    }
  }
  return p;
}

function readMeshWith(
  bytes: Uint8Array,
  fileName: string | undefined,
  encoding: TextEncoding,
  options: ReadOptions,
): MeshFile {
  const r = new ByteReader(bytes, { file: fileName });
  const { bounds, bones, animationNames } = readFileHeader(r, 'mesh', encoding, fileName);
  const numSurfaces = readCount(r, 44, 'numSurfaces');
  const headers: Pick<MeshSurface, 'name' | 'bounds' | 'targetNames'>[] = new Array(numSurfaces);
  for (let s = 0; s < numSurfaces; s++) {
    headers[s] = r.scope(`surfaces[${s}]`, () => {
      const name = readString(r, 'name', encoding);
      const sb = readBounds(r, 'bounds');
      const targetNames = readNames(r, 'numTargets', 'targetNames', encoding);
      if (targetNames.length < 1)
        throw r.error('surface has no morph target (the base shape is target 0)', 'numTargets', 'BAD_COUNT');
      return { name, bounds: sb, targetNames };
    });
  }
  r.expectMagic(MESH_MAGIC, 'headerEndMagic');
  const bindPose = readBindPose(r, bones.length ? bones.length * TRS_FLOATS : 0);
  const animations = readAnimationBlocks(r, animationNames.length, bones.length, false, fileName, 'mesh');
  const surfaces: MeshSurface[] = new Array(numSurfaces);
  for (let s = 0; s < numSurfaces; s++) {
    surfaces[s] = r.scope(`surfaces[${s}]`, () => {
      const h = headers[s];
      const targets: Float32Array[] = [];
      for (let t = 0; t < h.targetNames.length; t++) {
        const n = readCount(r, 12, `targets[${t}].numCoordVerts`);
        targets.push(r.f32Array(n * 3, `targets[${t}].positions`, true));
      }
      const numCoord = targets[0].length / 3;
      const nt = readCount(r, 8, 'numTriVerts');
      const tangents = r.i16Array(nt * 4, 'tangents', true);
      const weights = readWeights(r);
      const nuv0 = readCount(r, 8, 'numUV0');
      const uv0 = r.f32Array(nuv0 * 2, 'uv0', true);
      const nuv1 = readCount(r, 8, 'numUV1');
      const uv1 = r.f32Array(nuv1 * 2, 'uv1', true);
      const nc = readCount(r, 4, 'numColors');
      const colors = r.u8Array(nc * 4, 'colors', true);
      const ncIdx = readCount(r, 1, 'numCoordIndices');
      const coordIndices = readIndices(r, ncIdx, numCoord, 'coordIndices');
      const ntIdx = readCount(r, 1, 'numTriIndices');
      const triIndices = readIndices(r, ntIdx, nt, 'triIndices');
      return { ...h, targets, tangents, ...weights, uv0, uv1, colors, coordIndices, triIndices };
    });
  }
  const trailing = expectEnd(r, MESH_MAGIC, options.keepTrailing);
  const mesh: MeshFile = {
    magic: 'ms11',
    encoding,
    bounds,
    bones,
    animationNames,
    surfaces,
    bindPose,
    animations,
  };
  if (trailing) mesh.trailing = trailing;
  return mesh;
}

/**
 * Reads an ms11 `.mesh` file into a {@link MeshFile}. Other versions (ms10, ms13, ms14, …) throw a
 * FormatError with code `UNSUPPORTED_VERSION`.
 *
 * ```ts
 * const mesh = readMesh(fs.readFileSync('actor_00.mesh'), 'actor_00.mesh');
 * mesh.surfaces[0].triIndices.length / 3; // triangles of the first surface
 * ```
 */
export function readMesh(
  bytes: Uint8Array,
  fileName?: string,
  options: ReadOptions = READ_DEFAULTS,
): MeshFile {
  return readWithTextFallback((encoding) => readMeshWith(bytes, fileName, encoding, options));
}

/** Weight records packed into one buffer (count byte, then int16 bone + u16 weight each). */
function weightRecords(
  weightCounts: Uint8Array,
  weightStarts: Uint32Array,
  weightBones: Int16Array,
  weightValues: Uint16Array,
): Uint8Array {
  const nw = weightCounts.length;
  const total = weightStarts[nw] ?? 0;
  const rec = new Uint8Array(nw + total * 4);
  let o = 0;
  // In chunks: a loop function called many times is optimized during the first write.
  for (let from = 0; from < nw; from += CHUNK)
    o = recordRange(
      weightCounts,
      weightStarts,
      weightBones,
      weightValues,
      from,
      Math.min(nw, from + CHUNK),
      rec,
      o,
    );
  return rec.subarray(0, o);
}

function recordRange(
  weightCounts: Uint8Array,
  weightStarts: Uint32Array,
  weightBones: Int16Array,
  weightValues: Uint16Array,
  from: number,
  to: number,
  rec: Uint8Array,
  o0: number,
): number {
  let o = o0;
  for (let i = from; i < to; i++) {
    rec[o++] = weightCounts[i];
    const end = weightStarts[i + 1];
    for (let k = weightStarts[i]; k < end; k++) {
      const b = weightBones[k];
      const v = weightValues[k];
      rec[o] = b;
      rec[o + 1] = b >> 8;
      rec[o + 2] = v;
      rec[o + 3] = v >> 8;
      o += 4;
    }
  }
  return o;
}

/**
 * Writes a {@link MeshFile} as ms11 bytes. `writeMesh(readMesh(b))` equals `b`.
 *
 * ```ts
 * fs.writeFileSync('out.mesh', writeMesh(mesh));
 * ```
 */
export function writeMesh(mesh: MeshFile): Uint8Array {
  const enc = mesh.encoding;
  // An upper bound of the size (strings: ≤ 3 bytes per UTF-16 unit, counts: ≤ 5 bytes), so the
  // writer never grows (each growth copies everything written so far).
  const text = (s: string) => 5 + s.length * 3;
  let size = 256 + mesh.bounds.byteLength + mesh.bindPose.byteLength + (mesh.trailing?.length ?? 0);
  for (const b of mesh.bones) size += text(b.name) + 5;
  for (const n of mesh.animationNames) size += text(n);
  for (const a of mesh.animations)
    size +=
      64 +
      a.bones.byteLength +
      (a.boxes?.byteLength ?? 0) +
      a.flags.byteLength +
      a.positions.byteLength +
      a.rotations.byteLength +
      a.scales.byteLength;
  for (const s of mesh.surfaces) {
    size += 64 + text(s.name) + s.bounds.byteLength;
    for (const n of s.targetNames) size += text(n);
    for (const t of s.targets) size += 5 + t.byteLength;
    size +=
      s.tangents.byteLength +
      s.weightCounts.length +
      s.weightBones.length * 4 +
      s.uv0.byteLength +
      s.uv1.byteLength +
      s.colors.byteLength +
      (s.coordIndices.length + s.triIndices.length) * 4;
  }
  const w = new ByteWriter({ capacity: size });
  writeFileHeader(w, MESH_MAGIC, mesh, enc);
  writeInt2(w, mesh.surfaces.length);
  for (const s of mesh.surfaces) {
    writeString(w, s.name, enc);
    w.f32Array(s.bounds);
    writeNames(w, s.targetNames, enc);
  }
  w.string(MESH_MAGIC);
  if (mesh.bones.length) w.f32Array(mesh.bindPose);
  for (const a of mesh.animations) writeBlock(w, a);
  for (const s of mesh.surfaces) {
    for (const t of s.targets) {
      writeInt2(w, t.length / 3);
      w.f32Array(t);
    }
    writeInt2(w, s.tangents.length / 4);
    w.i16Array(s.tangents);
    const nw = s.weightCounts.length;
    writeInt2(w, nw);
    w.bytes(weightRecords(s.weightCounts, s.weightStarts, s.weightBones, s.weightValues));
    writeInt2(w, s.uv0.length / 2);
    w.f32Array(s.uv0);
    writeInt2(w, s.uv1.length / 2);
    w.f32Array(s.uv1);
    writeInt2(w, s.colors.length / 4);
    w.bytes(s.colors);
    writeInt2(w, s.coordIndices.length);
    writeIndices(w, s.coordIndices, s.targets[0].length / 3);
    writeInt2(w, s.triIndices.length);
    writeIndices(w, s.triIndices, s.tangents.length / 4);
  }
  w.string(MESH_MAGIC);
  if (mesh.trailing) w.bytes(mesh.trailing);
  return w.finish();
}
