/**
 * Urho3D / Dry package file (`.pak`, magic `UPAK` stored or `ULZ4` LZ4-compressed): the file
 * model plus list / extract / create.
 */
import {
  ByteReader,
  type ContainerEntriesOptions,
  type ContainerEntry,
  entryLimits,
  ByteWriter,
  decodeText,
  type FileSet,
  FormatError,
  type UnpackLimits,
  unpackLimits,
} from '@gltf-legacy/core';
import { Lz4Error, lz4CompressBlock, lz4DecompressBlock } from './lz4.js';

/** Uncompressed bytes per ULZ4 block (PackageTool's block size; readers rely on it). */
export const PAK_BLOCK_SIZE = 32768;

export interface PakEntry {
  /** Path inside the package, with folders (`Models/Box.mdl`). */
  name: string;
  /** The name's bytes as stored (kept so names that are not valid UTF-8 are written back as they were). */
  nameBytes?: Uint8Array;
  /** Offset of the entry's data from the start of the package, as stored. */
  offset: number;
  /** Uncompressed size. */
  size: number;
  /** SDBM hash of the uncompressed bytes, as stored. */
  checksum: number;
  /**
   * The bytes stored for the entry, from its offset to the next entry's data (UPAK: the file
   * bytes; ULZ4: the block stream `u16 unpacked, u16 packed, LZ4 block`…).
   */
  stored: Uint8Array;
}

export interface PakFile {
  magic: 'UPAK' | 'ULZ4';
  /** SDBM hash running over every entry's bytes in table order, as stored. */
  checksum: number;
  entries: PakEntry[];
  /** The last u32: total package size including itself, as stored. */
  trailer: number;
  /** Bytes before the package when it is appended to another file (usually empty). */
  prefix: Uint8Array;
  /** Bytes between the entry table and the first entry's data (usually empty). */
  gap: Uint8Array;
}

/** SDBM hash (`MathDefs.h`), continuing from `hash`. */
export function sdbmHash(bytes: Uint8Array, hash = 0): number {
  let h = hash >>> 0;
  // c + (h << 6) + (h << 16) − h  ≡  c + h·65599 (mod 2³²)
  for (let i = 0; i < bytes.length; i++) h = (Math.imul(h, 65599) + bytes[i]) >>> 0;
  return h;
}

/**
 * Reads a `.pak` package. Entry data is kept as stored (views, no decompression);
 * use {@link extractPakEntry} for the file bytes.
 *
 * ```ts
 * const pak = readPak(bytes, 'Data.pak');
 * for (const e of pak.entries) console.log(e.name, e.size);
 * ```
 */
export function readPak(bytes: Uint8Array, fileName?: string): PakFile {
  let r = new ByteReader(bytes, { file: fileName });
  let prefix = new Uint8Array(0);
  const id = r.peekString(4);
  if (id !== 'UPAK' && id !== 'ULZ4') {
    // A package appended to another file: the trailer gives the package size.
    if (bytes.length >= 8) {
      r.seek(bytes.length - 4);
      const size = r.u32('trailer');
      const start = bytes.length - size;
      if (size >= 16 && start > 0) {
        const inner = new ByteReader(bytes.subarray(start), { file: fileName });
        const innerId = inner.peekString(4);
        if (innerId === 'UPAK' || innerId === 'ULZ4') {
          prefix = bytes.slice(0, start);
          bytes = bytes.subarray(start);
          r = new ByteReader(bytes, { file: fileName });
        }
      }
      r.seek(0);
    }
    if (!prefix.length) r.expectMagic('UPAK');
  }
  const magic = r.peekString(4) as 'UPAK' | 'ULZ4';
  r.skip(4);
  const n = r.count(r.u32('fileCount'), 13, 'fileCount');
  const checksum = r.u32('checksum');
  const entries: PakEntry[] = [];
  for (let i = 0; i < n; i++) {
    r.scope(`entries[${i}]`, () => {
      const nameStart = r.offset;
      const name = r.cstring('name');
      const nameBytes = bytes.subarray(nameStart, r.offset - 1);
      const at = r.offset;
      const offset = r.u32('offset');
      const size = r.u32('size');
      const checksum = r.u32('checksum');
      if (offset > bytes.length - 4)
        throw r.error(`data offset ${offset} is past the end`, 'offset', 'BAD_OFFSET', at);
      entries.push({ name, nameBytes, offset, size, checksum, stored: new Uint8Array(0) });
    });
  }
  const tableEnd = r.offset;
  if (bytes.length - tableEnd < 4) throw r.error('package has no trailer', 'trailer', 'TRUNCATED');
  const dataEnd = bytes.length - 4;
  const trailer = new DataView(bytes.buffer, bytes.byteOffset + dataEnd, 4).getUint32(0, true);
  // Each entry's stored bytes run to the next larger offset (or the trailer).
  const offsets = [...new Set(entries.map((e) => e.offset))].sort((a, b) => a - b);
  if (offsets.length && offsets[0] < tableEnd) {
    const bad = entries.findIndex((e) => e.offset === offsets[0]);
    throw new FormatError(
      `entry data offset ${offsets[0]} lies inside the entry table (ends at ${tableEnd})`,
      {
        code: 'BAD_OFFSET',
        file: fileName,
        field: `entries[${bad}].offset`,
      },
    );
  }
  const next = new Map<number, number>();
  for (let i = 0; i < offsets.length; i++)
    next.set(offsets[i], i + 1 < offsets.length ? offsets[i + 1] : dataEnd);
  for (const e of entries) e.stored = bytes.subarray(e.offset, next.get(e.offset));
  const gap = bytes.slice(tableEnd, offsets.length ? offsets[0] : dataEnd);
  return { magic, checksum, entries, trailer, prefix, gap };
}

/**
 * Writes a package. Entry data follows the table in the order of the entries' offsets (table
 * order for packages from {@link createPak}, the layout PackageTool writes); offsets are
 * recomputed from that layout, so `writePak(readPak(b))` equals `b`.
 *
 * ```ts
 * const bytes = writePak(createPak(new Map([['Models/Box.mdl', mdlBytes]]), { compress: true }));
 * ```
 */
export function writePak(pak: PakFile): Uint8Array {
  let size = pak.prefix.length + pak.gap.length + 16;
  for (const e of pak.entries) size += e.name.length * 3 + 13 + e.stored.length;
  const w = new ByteWriter({ capacity: size });
  w.bytes(pak.prefix);
  const base = w.offset;
  w.string(pak.magic);
  w.u32(pak.entries.length);
  w.u32(pak.checksum);
  const offsetAt: number[] = [];
  for (const e of pak.entries) {
    if (e.nameBytes && decodeText(e.nameBytes) === e.name) w.bytes(e.nameBytes).u8(0);
    else w.cstring(e.name);
    offsetAt.push(w.offset);
    w.u32(e.offset);
    w.u32(e.size);
    w.u32(e.checksum);
  }
  w.bytes(pak.gap);
  // Data regions in the order of their stored offsets (entries sharing an offset share the data),
  // so any package read by readPak is rewritten as it was; new packages are in table order.
  const order = pak.entries
    .map((_, i) => i)
    .sort((a, b) => pak.entries[a].offset - pak.entries[b].offset || a - b);
  const placed = new Map<number, number>();
  for (const i of order) {
    const e = pak.entries[i];
    let at = e.stored.length ? placed.get(e.offset) : undefined;
    if (at === undefined) {
      at = w.offset - base;
      if (e.stored.length) placed.set(e.offset, at);
      w.bytes(e.stored);
    }
    w.patchU32(offsetAt[i], at);
  }
  w.u32(pak.trailer);
  return w.finish();
}

/**
 * The uncompressed bytes of one entry (decoding ULZ4 blocks). Throws a {@link FormatError}
 * (`BAD_LZ4`, `TRUNCATED`) on damaged data, and `UNPACKED_TOO_LARGE` before decoding a ULZ4
 * entry larger than `limits.maxEntryBytes` (default: core's {@link unpackLimits}).
 *
 * ```ts
 * const mdl = extractPakEntry(pak, 'Models/Box.mdl');
 * ```
 */
export function extractPakEntry(
  pak: PakFile,
  entry: PakEntry | string,
  fileName?: string,
  limits: Readonly<UnpackLimits> = unpackLimits(),
): Uint8Array {
  const e = typeof entry === 'string' ? pak.entries.find((x) => x.name === entry) : entry;
  if (!e) throw new FormatError(`package has no entry "${entry}"`, { code: 'NO_ENTRY', file: fileName });
  const field = `entries[${pak.entries.indexOf(e)}]`;
  if (pak.magic === 'ULZ4' && e.size > limits.maxEntryBytes) throw entryTooLarge(pak, e, fileName, limits);
  if (pak.magic === 'UPAK') {
    if (e.size > e.stored.length) {
      throw new FormatError(`entry "${e.name}" needs ${e.size} bytes but ${e.stored.length} are stored`, {
        code: 'TRUNCATED',
        file: fileName,
        offset: e.offset,
        field,
      });
    }
    return e.stored.subarray(0, e.size);
  }
  const src = e.stored;
  // Every block holds at least one byte, so the size cannot exceed what the blocks can describe.
  if (e.size > (src.length / 4) * PAK_BLOCK_SIZE) {
    throw new FormatError(`entry "${e.name}" claims ${e.size} bytes, more than its blocks can hold`, {
      code: 'COUNT_TOO_LARGE',
      file: fileName,
      offset: e.offset,
      field,
    });
  }
  const out = new Uint8Array(e.size);
  let s = 0;
  let d = 0;
  while (d < e.size) {
    if (s + 4 > src.length) {
      throw new FormatError(`entry "${e.name}" block header runs past its data`, {
        code: 'TRUNCATED',
        file: fileName,
        offset: e.offset + s,
        field,
      });
    }
    const unpacked = src[s] | (src[s + 1] << 8);
    const packed = src[s + 2] | (src[s + 3] << 8);
    s += 4;
    if (unpacked === 0 || d + unpacked > e.size || s + packed > src.length) {
      throw new FormatError(`entry "${e.name}" has a bad block (unpacked ${unpacked}, packed ${packed})`, {
        code: 'BAD_LZ4',
        file: fileName,
        offset: e.offset + s - 4,
        field,
      });
    }
    try {
      const got = lz4DecompressBlock(src, s, s + packed, out, d, d + unpacked);
      if (got !== unpacked) throw new Lz4Error(`block decodes to ${got} bytes, not ${unpacked}`, s);
    } catch (err) {
      if (!(err instanceof Lz4Error)) throw err;
      throw new FormatError(`entry "${e.name}": ${err.message}`, {
        code: 'BAD_LZ4',
        file: fileName,
        offset: e.offset + err.at,
        field,
      });
    }
    s += packed;
    d += unpacked;
  }
  return out;
}

/**
 * Every entry as a FileSet (names with their folders inside the package). The sizes of a ULZ4
 * package are checked against `limits` first ({@link checkPakLimits}).
 *
 * ```ts
 * const files = extractPak(readPak(bytes));
 * files.get('Models/Jack.mdl');
 * ```
 */
export function extractPak(
  pak: PakFile,
  fileName?: string,
  limits: Readonly<UnpackLimits> = unpackLimits(),
): FileSet {
  checkPakLimits(pak, fileName, limits);
  const out: FileSet = new Map();
  for (const e of pak.entries) out.set(e.name, extractPakEntry(pak, e, fileName, limits));
  return out;
}

/**
 * Checks the unpacked sizes a ULZ4 package's table claims against `limits` before anything is
 * decoded (one pass over the table: the cost of the check does not grow with the data). Stored
 * (UPAK) entries are views into the package's own bytes and allocate nothing, so only compressed
 * packages are bounded. Throws a {@link FormatError} `UNPACKED_TOO_LARGE`.
 *
 * ```ts
 * checkPakLimits(readPak(bytes, 'Data.pak'), 'Data.pak', { maxEntryBytes: 1 << 28, maxTotalBytes: 1 << 30 });
 * ```
 */
export function checkPakLimits(
  pak: PakFile,
  fileName?: string,
  limits: Readonly<UnpackLimits> = unpackLimits(),
): void {
  if (pak.magic !== 'ULZ4') return;
  let total = 0;
  for (const e of pak.entries) {
    if (e.size > limits.maxEntryBytes) throw entryTooLarge(pak, e, fileName, limits);
    total += e.size;
  }
  if (total > limits.maxTotalBytes) {
    throw new FormatError(
      `the package unpacks to ${total} bytes, more than the limit of ${limits.maxTotalBytes} per package (raise it with --max-unpacked)`,
      { code: 'UNPACKED_TOO_LARGE', file: fileName, field: 'entries[*].size' },
    );
  }
}

function entryTooLarge(
  pak: PakFile,
  e: PakEntry,
  fileName: string | undefined,
  limits: Readonly<UnpackLimits>,
): FormatError {
  return new FormatError(
    `entry "${e.name}" unpacks to ${e.size} bytes, more than the limit of ${limits.maxEntryBytes} per entry (raise it with --max-unpacked)`,
    {
      code: 'UNPACKED_TOO_LARGE',
      file: fileName,
      offset: e.offset,
      field: `entries[${pak.entries.indexOf(e)}].size`,
    },
  );
}

/**
 * The entries of a package as core's generic container entries (for `extract` and listings):
 * paths as stored, sizes, `lz4`/`none`, and a lazy `read()` bounded by `options.limits`.
 *
 * ```ts
 * for (const e of pakEntries(readPak(bytes, 'Data.pak'), 'Data.pak')) console.log(e.path, e.read().length);
 * ```
 */
export function pakEntries(
  pak: PakFile,
  fileName?: string,
  options?: ContainerEntriesOptions,
): ContainerEntry[] {
  const limits = entryLimits(options);
  return pak.entries.map((e) => ({
    path: e.name,
    size: e.size,
    packedSize: e.stored.length,
    offset: pak.prefix.length + e.offset,
    compression: pak.magic === 'ULZ4' ? 'lz4' : 'none',
    ids: { checksum: e.checksum },
    read: () => extractPakEntry(pak, e, fileName, limits),
  }));
}

/** A short listing of a package: name, size, stored size, checksum. */
export function listPak(
  pak: PakFile,
): { name: string; size: number; storedSize: number; checksum: number }[] {
  return pak.entries.map((e) => ({
    name: e.name,
    size: e.size,
    storedSize: e.stored.length,
    checksum: e.checksum,
  }));
}

/** Options of {@link createPak}. */
export interface CreatePakOptions {
  /** Write ULZ4 (LZ4 blocks) instead of UPAK. */
  compress?: boolean;
  /**
   * A package whose stored data is reused for entries with the same name and identical bytes
   * (keeps the original compressed blocks of unchanged entries).
   */
  reuse?: PakFile;
}
export const CREATE_PAK_DEFAULTS: Required<Omit<CreatePakOptions, 'reuse'>> = { compress: false };

/** Encodes bytes as a ULZ4 block stream. */
export function compressPakData(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let o = 0; o < data.length; o += PAK_BLOCK_SIZE) {
    const end = Math.min(data.length, o + PAK_BLOCK_SIZE);
    const packed = lz4CompressBlock(data, o, end);
    const head = new Uint8Array([(end - o) & 255, (end - o) >>> 8, packed.length & 255, packed.length >>> 8]);
    parts.push(head, packed);
    total += 4 + packed.length;
  }
  const out = new Uint8Array(total);
  let p = 0;
  for (const part of parts) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}

/**
 * Builds a package from files (name → bytes), computing sizes, checksums and the trailer.
 *
 * ```ts
 * const pak = createPak(new Map([['Models/Box.mdl', mdl]]), { compress: true });
 * const bytes = writePak(pak);
 * ```
 */
export function createPak(files: FileSet, options: CreatePakOptions = {}): PakFile {
  const compress = options.compress ?? CREATE_PAK_DEFAULTS.compress;
  const magic = compress ? 'ULZ4' : 'UPAK';
  const reuse = options.reuse?.magic === magic ? options.reuse : undefined;
  const entries: PakEntry[] = [];
  let checksum = 0;
  let dataSize = 0;
  let tableSize = 12;
  for (const [name, data] of files) {
    checksum = sdbmHash(data, checksum);
    const entryChecksum = sdbmHash(data);
    let stored: Uint8Array | undefined;
    const old = reuse?.entries.find((e) => e.name === name);
    if (old && old.size === data.length && old.checksum === entryChecksum) {
      // (the new data of that size is in memory already: no limit to apply)
      const oldData = extractPakEntry(reuse!, old, undefined, {
        maxEntryBytes: Number.POSITIVE_INFINITY,
        maxTotalBytes: Number.POSITIVE_INFINITY,
      });
      if (oldData.every((b, i) => b === data[i])) stored = old.stored;
    }
    stored ??= compress ? compressPakData(data) : data;
    entries.push({ name, offset: 0, size: data.length, checksum: entryChecksum, stored });
    dataSize += stored.length;
    tableSize += new TextEncoder().encode(name).length + 13;
  }
  let offset = tableSize;
  for (const e of entries) {
    e.offset = offset;
    offset += e.stored.length;
  }
  return {
    magic,
    checksum,
    entries,
    trailer: tableSize + dataSize + 4,
    prefix: new Uint8Array(0),
    gap: new Uint8Array(0),
  };
}
