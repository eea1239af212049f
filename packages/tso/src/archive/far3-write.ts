/** Writing FAR3 archives (the layout is in `far3.ts`). */
import { ByteWriter, FormatError } from '@gltf-legacy/core';
import { FAR_MAGIC } from './far-common.js';
import { FAR3_PERSIST_HEADER, FAR3_REFPACK, type Far3Entry, type Far3File } from './far3.js';
import { type RefPackCompressOptions, refpackCompress } from './refpack-compress.js';

/** A file to put in a FAR3 archive. */
export interface Far3Input {
  name: string;
  typeId: number;
  fileId: number;
  data: Uint8Array;
}

/** Options of {@link createFar3}. */
export interface CreateFar3Options {
  /** `refpack`: every entry RefPack-compressed (as the game's archives); `none`: stored. */
  compression?: 'none' | 'refpack';
  /** Options of the RefPack compressor. */
  refpack?: RefPackCompressOptions;
}

export const CREATE_FAR3_DEFAULTS: Readonly<Required<Omit<CreateFar3Options, 'refpack'>>> = Object.freeze({
  compression: 'none',
});

/** Largest stored size the manifest's 24-bit field holds. */
const MAX_STORED = 0xffffff;

/** The stored bytes of a compressed entry: 9-byte header, then the RefPack block (u32 size + stream). */
function packEntry(data: Uint8Array, options?: RefPackCompressOptions): Uint8Array {
  const stream = refpackCompress(data, options);
  const block = 4 + stream.length;
  const out = new Uint8Array(FAR3_PERSIST_HEADER + block);
  const dv = new DataView(out.buffer);
  out[0] = 1;
  dv.setUint32(1, data.length, true);
  dv.setUint32(5, block, true);
  dv.setUint32(9, block, true);
  out.set(stream, 13);
  return out;
}

/**
 * A FAR3 archive of files with their type and file ids (names are ASCII). With
 * `compression: 'refpack'` every entry is RefPack-compressed, as in the game's archives.
 *
 * ```ts
 * const far = createFar3([{ name: 'woodaxe.apr', typeId: 0xc, fileId: 0x5d34f33e, data: apr }], { compression: 'refpack' });
 * const bytes = writeFar3(far);
 * ```
 */
export function createFar3(files: Iterable<Far3Input>, options: CreateFar3Options = {}): Far3File {
  const compression = options.compression ?? CREATE_FAR3_DEFAULTS.compression;
  const entries: Far3Entry[] = [];
  for (const f of files) {
    const stored = compression === 'refpack' ? packEntry(f.data, options.refpack) : f.data;
    if (stored.length > MAX_STORED)
      throw new FormatError(
        `entry "${f.name}" stores ${stored.length} bytes; a FAR3 manifest holds at most ${MAX_STORED}`,
        { code: 'ENTRY_TOO_LARGE', field: `entries[${entries.length}]` },
      );
    const nameBytes = Uint8Array.from(f.name, (c) => c.charCodeAt(0) & 255);
    entries.push({
      name: f.name,
      nameBytes,
      typeId: f.typeId >>> 0,
      fileId: f.fileId >>> 0,
      size: f.data.length,
      packedSize: stored.length,
      dataType: compression === 'refpack' ? FAR3_REFPACK : 0,
      compressed: compression === 'refpack' ? 1 : 0,
      access: 0,
      stored,
    });
  }
  return { version: 3, entries };
}

/**
 * Writes a FAR3 archive: header, the entries' stored bytes in table order, the manifest at the
 * end (the corpus archives' layout). Offsets are recomputed.
 *
 * ```ts
 * const bytes = writeFar3(readFar3(original)); // same entries, same stored bytes
 * ```
 */
export function writeFar3(far: Far3File): Uint8Array {
  let size = 20;
  for (const e of far.entries) size += e.stored.length + 24 + e.nameBytes.length;
  const w = new ByteWriter({ capacity: size });
  w.string(FAR_MAGIC);
  w.u32(3);
  const manifestAt = w.offset;
  w.u32(0);
  const offsets = far.entries.map((e) => {
    const at = w.offset;
    w.bytes(e.stored);
    return at;
  });
  w.patchU32(manifestAt, w.offset);
  w.u32(far.entries.length);
  far.entries.forEach((e, i) => {
    if (e.nameBytes.length > 0xffff)
      throw new FormatError(`entry name of ${e.nameBytes.length} bytes does not fit FAR3's u16 length`, {
        code: 'NAME_TOO_LONG',
        field: `entries[${i}].name`,
      });
    w.u32(e.size);
    w.u16(e.stored.length & 0xffff);
    w.u8(e.stored.length >>> 16);
    w.u8(e.dataType);
    w.u32(offsets[i]);
    w.u8(e.compressed);
    w.u8(e.access);
    w.u16(e.nameBytes.length);
    w.u32(e.typeId);
    w.u32(e.fileId);
    w.bytes(e.nameBytes);
  });
  return w.finish();
}
