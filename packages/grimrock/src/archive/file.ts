/**
 * The archive as a file model (read, then written back): the table's fields in order with each
 * entry's stored bytes (a zlib entry's `u32 size` + stream exactly as stored), without offsets.
 * Writing lays the entries out back to back after the table, in table order, as the dungeon
 * editor does: the three real archives are written back byte for byte.
 */
import { type GrimrockArchive, type ReadArchiveOptions, readGrimrockArchive } from './archive.js';
import type { ArchiveLayout } from './table.js';

export interface DatFileEntry {
  hash: number;
  /** 0 = stored. */
  compressedSize: number;
  size: number;
  flags: number;
  /** The bytes at the entry's offset (`compressedSize` of them, else `size`). */
  stored: Uint8Array;
}

export interface DatFile {
  layout: ArchiveLayout;
  entries: DatFileEntry[];
  /** Everything the reader found: paths, kinds, unpacked bytes, mod info (checked on read). */
  archive: Omit<GrimrockArchive, 'entries'> & {
    entries: Omit<GrimrockArchive['entries'][number], 'offset' | 'row'>[];
  };
}

/**
 * Reads an archive (every entry unpacked and checked, paths recovered) as a file model.
 *
 * ```ts
 * const dat = readDat(bytes, 'Fetch Quest.dat');
 * writeDat(dat); // the same bytes
 * ```
 */
export function readDat(bytes: Uint8Array, file = 'archive.dat', options?: ReadArchiveOptions): DatFile {
  const a = readGrimrockArchive(bytes, file, options);
  const entries = a.entries.map((e) => ({
    hash: e.hash,
    compressedSize: e.compressedSize,
    size: e.size,
    flags: e.flags,
    stored: bytes.subarray(e.offset, e.offset + (e.compressedSize || e.size)),
  }));
  return {
    layout: a.layout,
    entries,
    archive: { ...a, entries: a.entries.map(({ offset: _o, row: _r, ...rest }) => rest) },
  };
}

/**
 * Writes a file model: magic, count, table, then each entry's stored bytes back to back.
 *
 * ```ts
 * const bytes = writeDat({ layout: 'GRA2', entries: [], archive }); // 'GRA2' + count 0
 * ```
 */
export function writeDat(dat: Pick<DatFile, 'layout' | 'entries'>): Uint8Array {
  const row = dat.layout === 'GRA2' ? 20 : 16;
  const tableEnd = 8 + dat.entries.length * row;
  let size = tableEnd;
  for (const e of dat.entries) size += e.stored.length;
  if (size > 0xffffffff) throw new RangeError(`an archive of ${size} bytes does not fit 32-bit offsets`);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = dat.layout.charCodeAt(i);
  dv.setUint32(4, dat.entries.length, true);
  let offset = tableEnd;
  dat.entries.forEach((e, i) => {
    const at = 8 + i * row;
    dv.setUint32(at, e.hash, true);
    dv.setUint32(at + 4, offset, true);
    dv.setUint32(at + 8, e.compressedSize, true);
    dv.setUint32(at + 12, e.size, true);
    if (dat.layout === 'GRA2') dv.setUint32(at + 16, e.flags, true);
    out.set(e.stored, offset);
    offset += e.stored.length;
  });
  return out;
}
