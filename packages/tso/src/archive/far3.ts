/**
 * FAR version 3 (The Sims Online): header `FAR!byAZ`, u32 version 3, u32 manifest offset; the
 * manifest is a u32 count and per entry (24 bytes + name, little-endian): u32 unpacked size,
 * u24 stored size, u8 data type (0x80: RefPack-compressed), u32 data offset, u8 compressed flag
 * (1), u8 access number, u16 name length, u32 type id, u32 file id, the name (ASCII).
 * A compressed entry's stored bytes are a 9-byte header (u8 1, u32 unpacked size, u32 size of
 * the rest) and a RefPack block: u32 its own size, then the stream (`10 FB`, u24 big-endian
 * unpacked size, commands). Layout from FreeSO's `FAR3Archive.cs`, checked on the corpus.
 */
import { ByteReader, FormatError } from '@gltf-legacy/core';
import { checkRange, FAR_MAGIC, farName, setStoredOffset, storedOffset } from './far-common.js';

/** Data type of a RefPack-compressed entry. */
export const FAR3_REFPACK = 0x80;
/** Bytes before the RefPack block of a compressed entry. */
export const FAR3_PERSIST_HEADER = 9;

export interface Far3Entry {
  name: string;
  nameBytes: Uint8Array;
  typeId: number;
  fileId: number;
  /** Unpacked size, as the manifest states it. */
  size: number;
  /** Stored size (24 bits in the manifest). */
  packedSize: number;
  /** 0x80: RefPack; 0: stored. */
  dataType: number;
  /** The compressed flag byte (1 for RefPack entries in every known archive). */
  compressed: number;
  /** The access number byte, as stored. */
  access: number;
  /** The stored bytes (a view into the archive). */
  stored: Uint8Array;
}

export interface Far3File {
  version: 3;
  entries: Far3Entry[];
}

/** True when the entry's data is RefPack-compressed (the data type or the flag says so). */
export function isFar3Compressed(e: Pick<Far3Entry, 'dataType' | 'compressed'>): boolean {
  return e.dataType === FAR3_REFPACK || e.compressed === 1;
}

/**
 * Reads a FAR3 archive's manifest (entries are views into `bytes`; nothing is decompressed —
 * {@link readFar3Entry} does). Throws a {@link FormatError} naming the file, offset and field:
 * `BAD_MAGIC`, `UNSUPPORTED_VERSION`, `TRUNCATED`, `COUNT_TOO_LARGE`, `BAD_OFFSET`, `BAD_NAME`.
 *
 * ```ts
 * const far = readFar3(bytes, 'cpanel.dat');
 * far.entries[0]; // { name: 'actionfaceselection.bmp', typeId: 1, fileId: 0x1b2, size: 1480, … }
 * ```
 */
export function readFar3(bytes: Uint8Array, file?: string): Far3File {
  const r = new ByteReader(bytes, { file });
  r.expectMagic(FAR_MAGIC);
  const version = r.u32('version');
  if (version !== 3) throw r.error(`FAR version ${version}, expected 3`, 'version', 'UNSUPPORTED_VERSION', 8);
  const manifestOffset = r.u32('manifestOffset');
  if (manifestOffset < 16) throw r.error('manifest overlaps the header', 'manifestOffset', 'BAD_OFFSET', 12);
  r.seek(manifestOffset, 'manifestOffset');
  const n = r.count(r.u32('count'), 24, 'count');
  const entries: Far3Entry[] = [];
  for (let i = 0; i < n; i++) {
    const field = `entries[${i}]`;
    const recordOffset = r.offset;
    const size = r.u32(`${field}.size`);
    const lo = r.u16(`${field}.packedSize`);
    const packedSize = lo | (r.u8(`${field}.packedSize`) << 16);
    const dataType = r.u8(`${field}.dataType`);
    const offset = r.u32(`${field}.offset`);
    const compressed = r.u8(`${field}.compressed`);
    const access = r.u8(`${field}.access`);
    const nameLength = r.u16(`${field}.nameLength`);
    const typeId = r.u32(`${field}.typeId`);
    const fileId = r.u32(`${field}.fileId`);
    const { name, nameBytes } = farName(r, nameLength, `${field}.name`);
    checkRange(file, bytes.length, offset, packedSize, recordOffset + 8, `${field}.offset`);
    const entry: Far3Entry = {
      name,
      nameBytes,
      typeId,
      fileId,
      size,
      packedSize,
      dataType,
      compressed,
      access,
      stored: bytes.subarray(offset, offset + packedSize),
    };
    entries.push(setStoredOffset(entry, offset));
  }
  return { version: 3, entries };
}

/** Where a compressed entry's RefPack stream lies in its stored bytes. */
export function far3Stream(e: Far3Entry): Uint8Array | undefined {
  const s = e.stored;
  const h = FAR3_PERSIST_HEADER;
  if (s.length < h + 4 + 2 || s[h + 5] !== 0xfb) return undefined;
  const dv = new DataView(s.buffer, s.byteOffset, s.byteLength);
  const block = dv.getUint32(h, true);
  // the block's size counts its own 4 bytes; a size past the stored bytes is cut to them
  const end = block >= 6 && h + block <= s.length ? h + block : s.length;
  return s.subarray(h + 4, end);
}

/** The error for an entry whose manifest and data disagree. */
export function far3Error(
  e: Far3Entry,
  index: number,
  file: string | undefined,
  message: string,
  code: string,
): FormatError {
  return new FormatError(`entry "${e.name}": ${message}`, {
    code,
    file,
    offset: storedOffset(e),
    field: `entries[${index}]`,
  });
}
