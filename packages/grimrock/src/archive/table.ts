/**
 * The entry table of a Grimrock archive (`.dat`): `GRA2` (the dungeon editor's export, Legend of
 * Grimrock 1 mods and the game's own `grimrock.dat`) and the earlier `GRAR` layout.
 *
 * ```
 * GRA2: char[4] "GRA2", u32 count, count × { u32 hash, u32 offset, u32 compressedSize, u32 size, u32 flags }
 * GRAR: char[4] "GRAR", u32 count, count × { u32 hash, u32 offset, u32 compressedSize, u32 size }
 * ```
 *
 * Little-endian. `hash` is FNV-1a (32-bit) of the entry's path as the game names it
 * ({@link fnv1a32}); `compressedSize` 0 = stored (`size` bytes at `offset`), else `compressedSize`
 * bytes at `offset`: `u32 size` then a zlib stream. GRA2 `flags`: 1 = zlib; any other value on a
 * compressed entry is the game's encryption (the base game's archives), which we do not read.
 */
import { FormatError } from '@gltf-legacy/core';

export type ArchiveLayout = 'GRA2' | 'GRAR';

/** How an entry's bytes are stored. */
export type EntryStorage = 'stored' | 'zlib' | 'encrypted';

/** One row of the entry table, as stored (plus its index and how it is stored). */
export interface ArchiveTableEntry {
  /** Index in the table (0 = the mod's info in editor exports). */
  index: number;
  /** Offset of the entry's table row in the archive. */
  row: number;
  /** FNV-1a 32-bit hash of the entry's path. */
  hash: number;
  /** Offset of the entry's bytes from the start of the archive. */
  offset: number;
  /** Bytes at `offset` for a compressed entry (the u32 size + the zlib stream); 0 = stored. */
  compressedSize: number;
  /** Unpacked size. */
  size: number;
  /** GRA2 flags (1 = zlib); GRAR has none (0). */
  flags: number;
  storage: EntryStorage;
}

export interface ArchiveTable {
  layout: ArchiveLayout;
  entries: ArchiveTableEntry[];
  /** First byte after the table (where entry data may start). */
  tableEnd: number;
}

const MAGIC: Record<string, ArchiveLayout> = { GRA2: 'GRA2', GRAR: 'GRAR' };

/** The layout of these bytes (`GRA2`/`GRAR` magic), or undefined. */
export function archiveLayout(bytes: Uint8Array): ArchiveLayout | undefined {
  if (bytes.length < 8) return undefined;
  return MAGIC[String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3])];
}

/** True when the bytes start like a Grimrock archive (`GRA2` or `GRAR` + a count). */
export function isArchive(bytes: Uint8Array): boolean {
  return archiveLayout(bytes) !== undefined;
}

/**
 * Reads and checks the entry table: every entry's bytes lie inside the file, after the table;
 * a compressed entry holds at least its u32 size and a zlib header and trailer. Nothing is
 * decompressed here.
 *
 * ```ts
 * const { layout, entries } = readArchiveTable(bytes, 'Fetch Quest.dat'); // 'GRA2', 18 entries
 * ```
 */
export function readArchiveTable(bytes: Uint8Array, file: string): ArchiveTable {
  const layout = archiveLayout(bytes);
  if (!layout)
    throw new FormatError('not a Grimrock archive (magic GRA2 or GRAR)', {
      code: 'BAD_MAGIC',
      file,
      offset: 0,
      field: 'magic',
    });
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = dv.getUint32(4, true);
  const rowSize = layout === 'GRA2' ? 20 : 16;
  // check count × size against the bytes left before allocating anything
  if (count > Math.floor((bytes.length - 8) / rowSize)) {
    throw new FormatError(
      `${count} entries of ${rowSize} bytes do not fit in the ${bytes.length - 8} bytes after the header`,
      { code: 'TRUNCATED', file, offset: 4, field: 'count' },
    );
  }
  const tableEnd = 8 + count * rowSize;
  const entries: ArchiveTableEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = 8 + i * rowSize;
    const hash = dv.getUint32(at, true);
    const offset = dv.getUint32(at + 4, true);
    const compressedSize = dv.getUint32(at + 8, true);
    const size = dv.getUint32(at + 12, true);
    const flags = layout === 'GRA2' ? dv.getUint32(at + 16, true) : 0;
    const field = (name: string) => `entries[${i}].${name}`;
    const stored = compressedSize === 0 ? size : compressedSize;
    if (offset < tableEnd || offset > bytes.length) {
      throw new FormatError(`entry offset ${offset} is outside the data (${tableEnd}…${bytes.length})`, {
        code: 'BAD_OFFSET',
        file,
        offset: at + 4,
        field: field('offset'),
      });
    }
    if (stored > bytes.length - offset) {
      throw new FormatError(
        `entry of ${stored} bytes at offset ${offset} runs past the end of the ${bytes.length}-byte file`,
        {
          code: 'TRUNCATED',
          file,
          offset: at + (compressedSize === 0 ? 12 : 8),
          field: field(compressedSize === 0 ? 'size' : 'compressedSize'),
        },
      );
    }
    let storage: EntryStorage;
    if (compressedSize === 0) storage = flags === 0 ? 'stored' : 'encrypted';
    else if (layout === 'GRAR' || flags === 1) storage = 'zlib';
    else storage = 'encrypted';
    if (storage === 'zlib' && compressedSize < 4 + 2 + 4) {
      throw new FormatError(
        `a compressed entry of ${compressedSize} bytes cannot hold its size, a zlib header and trailer`,
        {
          code: 'BAD_ENTRY',
          file,
          offset: at + 8,
          field: field('compressedSize'),
        },
      );
    }
    entries[i] = {
      index: i,
      row: at,
      hash,
      offset,
      compressedSize,
      size,
      flags,
      storage,
    };
  }
  return { layout, entries, tableEnd };
}
