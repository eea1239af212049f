/**
 * The `NAME_d.3d` data file: a 48-byte header and 16-byte triangles (formats/unreal3d.md §1).
 * Plain file model, no glTF knowledge. `writeData(readData(b))` is byte-identical.
 */
import { ByteReader, FormatError, type WarningCollector } from '@gltf-legacy/core';

export const DATA_HEADER_SIZE = 48;
export const POLY_SIZE = 16;

/** Low nibble of the poly `type` byte (render style). */
export const PolyStyle = {
  NORMAL: 0,
  TWO_SIDED: 1,
  TRANSLUCENT: 2,
  MASKED: 3,
  MODULATED: 4,
  ALPHA_BLEND: 5,
  WEAPON: 8,
} as const;

/** High bits of the poly `type` byte. */
export const PolyTypeFlag = {
  UNLIT: 0x10,
  FLAT: 0x20,
  ENVIRONMENT: 0x40,
  NO_SMOOTH: 0x80,
} as const;

/** True when a poly `type` byte marks the weapon placeholder triangle (`(type & 15) == 8`). */
export function isWeaponType(type: number): boolean {
  return (type & 0x0f) === PolyStyle.WEAPON;
}

/** Header of a `_d.3d` file, every field kept (the engine reads only the two counts). */
export interface DataHeader {
  numPolys: number;
  numVertices: number;
  bogusRot: number;
  bogusFrame: number;
  bogusNorm: [number, number, number];
  fixScale: number;
  unused: [number, number, number];
  /** Bytes 36..47 ("Unknown1..3"). */
  padding: Uint8Array;
}

/** Triangles as parallel typed arrays (`n` = triangles actually present). */
export interface DataPolys {
  /** `3n` vertex indices into one aniv frame. */
  vertices: Uint16Array;
  /** Render style (low nibble) + flags (high bits). */
  types: Uint8Array;
  /** Unused by the engine. */
  colors: Uint8Array;
  /** `6n` bytes: corner 0 U, corner 0 V, corner 1 U, … */
  uvs: Uint8Array;
  /** Skin slot. */
  textures: Uint8Array;
  /** PolyFlags byte (ignored by Epic's importer). */
  flags: Uint8Array;
}

/** A whole `_d.3d` file. */
export interface UnrealData {
  header: DataHeader;
  polys: DataPolys;
  /**
   * Bytes after the last whole triangle: a file longer than its header says, or a partial last
   * triangle of a truncated file. Kept so `write(read(b))` is identical.
   */
  trailing: Uint8Array;
}

/** Options of {@link readData}. */
export interface ReadDataOptions {
  /**
   * Receives `FILE_TOO_LONG` / `FILE_TRUNCATED` when the size disagrees with the header, and
   * `INDEX_OUT_OF_RANGE` for triangles naming vertex `numVertices` (one past the end).
   */
  warnings?: WarningCollector;
  /** Refuse those quirks (`TRUNCATED`, `TRAILING_BYTES`, `BAD_INDEX`) instead of warning. */
  strict?: boolean;
}

/** Creates an empty poly table of `n` triangles. */
export function createPolys(n: number): DataPolys {
  return {
    vertices: new Uint16Array(n * 3),
    types: new Uint8Array(n),
    colors: new Uint8Array(n),
    uvs: new Uint8Array(n * 6),
    textures: new Uint8Array(n),
    flags: new Uint8Array(n),
  };
}

/**
 * Reads a `_d.3d` file. Triangles missing at the end of a truncated file are dropped with a
 * warning (at least the header must be present); extra bytes are kept in `trailing`. Vertex
 * indices ≥ `numVertices` are a `BAD_INDEX` FormatError.
 *
 * ```ts
 * const data = readData(bytes, 'box_d.3d');
 * data.header.numPolys; // 12
 * ```
 */
export function readData(bytes: Uint8Array, fileName?: string, options: ReadDataOptions = {}): UnrealData {
  const r = new ByteReader(bytes, { file: fileName });
  const header = r.scope('header', (): DataHeader => {
    if (r.remaining < DATA_HEADER_SIZE) {
      throw r.error(
        `a _d.3d file starts with a ${DATA_HEADER_SIZE}-byte header; this one has ${r.remaining} byte(s)`,
        undefined,
        'TRUNCATED',
      );
    }
    return {
      numPolys: r.u16('numPolys'),
      numVertices: r.u16('numVertices'),
      bogusRot: r.u16('bogusRot'),
      bogusFrame: r.u16('bogusFrame'),
      bogusNorm: [r.u32('bogusNorm[0]'), r.u32('bogusNorm[1]'), r.u32('bogusNorm[2]')],
      fixScale: r.u32('fixScale'),
      unused: [r.u32('unused[0]'), r.u32('unused[1]'), r.u32('unused[2]')],
      padding: r.bytesCopy(12, 'padding'),
    };
  });
  let n = header.numPolys;
  const available = Math.floor(r.remaining / POLY_SIZE);
  if (available < n) {
    if (options.strict)
      throw r.error(
        `header says ${n} triangles but only ${available} are present (strict)`,
        'polys',
        'TRUNCATED',
      );
    options.warnings?.warn(
      'FILE_TRUNCATED',
      `${fileName ?? '_d.3d'}: header says ${n} triangles but only ${available} are present; read those`,
    );
    n = available;
  }
  r.count(n, POLY_SIZE, 'polys');
  const polys = createPolys(n);
  const { vertices, types, colors, uvs, textures, flags } = polys;
  const b = bytes;
  const nv = header.numVertices;
  let o = r.offset;
  let pastEnd = 0;
  let firstPastEnd = -1;
  for (let i = 0; i < n; i++, o += POLY_SIZE) {
    let past = false;
    for (let c = 0; c < 3; c++) {
      const v = b[o + c * 2] | (b[o + c * 2 + 1] << 8);
      // One past the end: UCC compiled such files and the game draws them (read; the importer
      // keeps the triangle in extras). Further out, or strict: the error it is.
      if (v === nv && nv > 0 && !options.strict) {
        if (firstPastEnd < 0) firstPastEnd = o + c * 2;
        past = true;
      } else if (v >= nv) {
        throw new FormatError(`vertex index ${v} is not below numVertices ${nv}`, {
          code: 'BAD_INDEX',
          file: fileName,
          offset: o + c * 2,
          field: `polys[${i}].vertices[${c}]`,
        });
      }
      vertices[i * 3 + c] = v;
    }
    if (past) pastEnd++;
    types[i] = b[o + 6];
    colors[i] = b[o + 7];
    for (let k = 0; k < 6; k++) uvs[i * 6 + k] = b[o + 8 + k];
    textures[i] = b[o + 14];
    flags[i] = b[o + 15];
  }
  if (pastEnd)
    options.warnings?.warn(
      'INDEX_OUT_OF_RANGE',
      `${fileName ?? '_d.3d'}: ${pastEnd} triangle(s) name vertex ${nv}, one past the last (first at offset ${firstPastEnd}); their triangles are kept in extras, not drawn`,
      pastEnd,
    );
  r.seek(o);
  if (options.strict && r.remaining && n === header.numPolys)
    throw r.error(`${r.remaining} byte(s) after the last triangle (strict)`, 'trailing', 'TRAILING_BYTES');
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  if (trailing.length && n === header.numPolys) {
    options.warnings?.warn(
      'FILE_TOO_LONG',
      `${fileName ?? '_d.3d'}: ${trailing.length} byte(s) after the last triangle were ignored (kept for export)`,
    );
  }
  return { header, polys, trailing };
}

/**
 * Writes a `_d.3d` file exactly as described by the model (header fields as stored, then the
 * triangles, then `trailing`).
 *
 * ```ts
 * const bytes = writeData(readData(original)); // identical to original
 * ```
 */
export function writeData(model: UnrealData): Uint8Array {
  const { header, polys, trailing } = model;
  const n = polys.types.length;
  // one exact allocation, written in place (a package mesh writes one per conversion: issue 28)
  const bytes = new Uint8Array(DATA_HEADER_SIZE + n * POLY_SIZE + trailing.length);
  const dv = new DataView(bytes.buffer);
  dv.setUint16(0, header.numPolys, true);
  dv.setUint16(2, header.numVertices, true);
  dv.setUint16(4, header.bogusRot, true);
  dv.setUint16(6, header.bogusFrame, true);
  for (let k = 0; k < 3; k++) dv.setUint32(8 + 4 * k, header.bogusNorm[k], true);
  dv.setUint32(20, header.fixScale, true);
  for (let k = 0; k < 3; k++) dv.setUint32(24 + 4 * k, header.unused[k], true);
  bytes.set(header.padding.subarray(0, 12), 36);
  const { vertices, types, colors, uvs, textures, flags } = polys;
  for (let i = 0, o = DATA_HEADER_SIZE; i < n; i++, o += POLY_SIZE) {
    for (let c = 0; c < 3; c++) {
      const v = vertices[i * 3 + c];
      bytes[o + c * 2] = v & 0xff;
      bytes[o + c * 2 + 1] = v >> 8;
    }
    bytes[o + 6] = types[i];
    bytes[o + 7] = colors[i];
    const u = i * 6;
    bytes[o + 8] = uvs[u];
    bytes[o + 9] = uvs[u + 1];
    bytes[o + 10] = uvs[u + 2];
    bytes[o + 11] = uvs[u + 3];
    bytes[o + 12] = uvs[u + 4];
    bytes[o + 13] = uvs[u + 5];
    bytes[o + 14] = textures[i];
    bytes[o + 15] = flags[i];
  }
  bytes.set(trailing, DATA_HEADER_SIZE + n * POLY_SIZE);
  return bytes;
}

/** A fresh header with zeroes in every field the engine ignores. */
export function createDataHeader(numPolys: number, numVertices: number): DataHeader {
  return {
    numPolys,
    numVertices,
    bogusRot: 0,
    bogusFrame: 0,
    bogusNorm: [0, 0, 0],
    fixScale: 0,
    unused: [0, 0, 0],
    padding: new Uint8Array(12),
  };
}

/**
 * Cheap structural check: 48-byte header, size ≈ 48 + 16·numPolys, sane counts.
 *
 * ```ts
 * looksLikeData(readFileSync('box_d.3d')); // true
 * ```
 */
export function looksLikeData(bytes: Uint8Array): boolean {
  if (bytes.length < DATA_HEADER_SIZE) return false;
  const numPolys = bytes[0] | (bytes[1] << 8);
  const numVerts = bytes[2] | (bytes[3] << 8);
  if (numPolys === 0 || numVerts === 0) return false;
  const expected = DATA_HEADER_SIZE + POLY_SIZE * numPolys;
  // Allow a little slack (files from the wild can be a few triangles/bytes off).
  if (Math.abs(bytes.length - expected) > 64) return false;
  // Check the first triangle's indices against numVertices (one past the end is a quirk the
  // game accepted: INDEX_OUT_OF_RANGE).
  if (bytes.length >= DATA_HEADER_SIZE + POLY_SIZE) {
    for (let c = 0; c < 3; c++) {
      const v = bytes[48 + c * 2] | (bytes[49 + c * 2] << 8);
      if (v > numVerts) return false;
    }
  }
  return true;
}
