/**
 * The name table: every name the package uses (object, class, property and sequence names), as
 * `FName` indices elsewhere. Version < 64: a NUL-terminated string; from 64 a compact-index length
 * (counting the NUL) then the bytes; each followed by 32-bit object flags.
 */
import type { ByteReader } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';
import type { PackageHeader } from './header.js';

/** Longest name the engine stores (`NAME_SIZE`). */
export const MAX_NAME_LENGTH = 64;

const latin1 = new TextDecoder('latin1');

/**
 * Reads the name table. Each entry needs at least 5 bytes, so the count is checked against the
 * bytes after the table offset before anything is allocated.
 *
 * ```ts
 * const names = readNames(r, header); // ['None', 'Skull', …]
 * ```
 */
export function readNames(r: ByteReader, header: PackageHeader): string[] {
  return readNameTable(r, header).all();
}

/** What a name index is resolved in: a `string[]` or a {@link NameTable}. */
export interface NameLookup {
  readonly length: number;
  at(i: number): string | undefined;
}

/** Where each name of the common table starts (its one-byte length stands before it). */
export interface LazyNames {
  bytes: Uint8Array;
  starts: Int32Array;
}

/**
 * The name table, each name decoded when first asked for: opening a package to convert one mesh
 * needs a few dozen of its hundreds of names (issue 28: decoding them all was the largest fixed
 * cost of a package mesh).
 *
 * ```ts
 * const names = readNameTable(r, header);
 * names.at(0); // 'None'
 * ```
 */
export class NameTable implements NameLookup {
  readonly length: number;
  private readonly cache: string[];
  private complete: boolean;
  private readonly lazy: LazyNames | undefined;

  constructor(names: string[] | LazyNames) {
    if (Array.isArray(names)) {
      this.length = names.length;
      this.cache = names;
      this.complete = true;
      this.lazy = undefined;
    } else {
      this.length = names.starts.length;
      this.cache = new Array<string>(this.length);
      this.complete = false;
      this.lazy = names;
    }
  }

  /** Name `i` (undefined outside the table). */
  at(i: number): string | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    let s = this.cache[i];
    if (s === undefined && this.lazy) {
      // as the entry-by-entry reader's one-byte-length path: latin1 up to the first NUL
      const { bytes, starts } = this.lazy;
      s = '';
      // the length byte stands before the name
      for (let k = starts[i], e = k + bytes[k - 1]; k < e; k++) {
        const c = bytes[k];
        if (c === 0) break;
        s += String.fromCharCode(c);
      }
      this.cache[i] = s;
    }
    return s;
  }

  /** Every name, in table order. */
  all(): string[] {
    if (!this.complete) {
      for (let i = 0; i < this.length; i++) this.at(i);
      this.complete = true;
    }
    return this.cache;
  }
}

/**
 * Reads the name table (see {@link readNames}); the common table is decoded at once as one
 * string and each name sliced from it when asked for.
 *
 * ```ts
 * const names = readNameTable(r, header);
 * ```
 */
export function readNameTable(r: ByteReader, header: PackageHeader): NameTable {
  r.seek(header.nameOffset, 'header.nameOffset');
  const n = r.count(header.nameCount, 5, 'header.nameCount');
  if (header.version >= 64) {
    const fast = readNamesFast(r, n);
    if (fast) return new NameTable(fast);
  }
  const names = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const field = header.version < 64 ? `names[${i}]` : '';
    if (header.version < 64) {
      const start = r.offset;
      let end = start;
      while (end < r.length && r.bytes[end] !== 0) end++;
      if (end >= r.length) throw r.error('name runs past the end of the file', field, 'TRUNCATED', start);
      if (end - start > 1024)
        throw r.error(`name of ${end - start} bytes is too long`, field, 'BAD_NAME', start);
      names[i] = latin1.decode(r.bytes.subarray(start, end));
      r.seek(end + 1);
    } else {
      const at = r.offset;
      const bytes = r.bytes;
      // fast path: a one-byte length (every name shorter than 64) and the name and flags in the file
      const len0 = bytes[at];
      if (len0 !== undefined && len0 < 0x40 && at + 1 + len0 + 4 <= bytes.length) {
        let s = '';
        for (let k = at + 1, e = at + 1 + len0; k < e; k++) {
          const c = bytes[k];
          if (c === 0) break;
          s += String.fromCharCode(c);
        }
        names[i] = s;
        r.offset = at + 1 + len0 + 4;
        continue;
      }
      const f = `names[${i}]`;
      const len = readCompactIndex(r, `${f}.length`);
      if (len < 0 || len > 1024)
        throw r.error(`name length ${len} is impossible`, `${f}.length`, 'BAD_NAME', at);
      const view = r.bytesView(len, f);
      let end = view.indexOf(0);
      if (end < 0) end = len;
      names[i] = latin1.decode(view.subarray(0, end));
      r.u32(`${f}.flags`);
      continue;
    }
    r.u32(`${field}.flags`);
  }
  return new NameTable(names);
}

/**
 * The common table (version ≥ 64, every length in one byte, every entry inside the file): only
 * where each name starts, found by hopping from length to length; the names are decoded
 * when asked for ({@link NameTable}). Undefined (nothing read) when any entry is not of that kind:
 * the entry-by-entry reader then reads the table.
 */
function readNamesFast(r: ByteReader, n: number): LazyNames | undefined {
  const bytes = r.bytes;
  const starts = new Int32Array(n);
  let at = r.offset;
  for (let i = 0; i < n; i++) {
    const len = bytes[at];
    const end = at + 1 + len;
    if (len === undefined || len >= 0x40 || end + 4 > bytes.length) return undefined;
    starts[i] = at + 1;
    at = end + 4;
  }
  r.offset = at;
  return { bytes, starts };
}

/**
 * A name index read from the file, checked against the table: `BAD_NAME_INDEX` past its end.
 *
 * ```ts
 * const name = readName(r, names, 'exports[3].objectName');
 * ```
 */
export function readName(r: ByteReader, names: NameLookup, field?: string): string {
  return names.at(readNameIndex(r, names, field)) as string;
}

/**
 * A name index read from the file, checked against the table (`BAD_NAME_INDEX` past its end).
 *
 * ```ts
 * const i = readNameIndex(r, names, 'exports[3].objectName');
 * ```
 */
export function readNameIndex(r: ByteReader, names: NameLookup, field?: string): number {
  const at = r.offset;
  const i = readCompactIndex(r, field);
  if (i < 0 || i >= names.length)
    throw r.error(
      `name index ${i} is outside the name table (${names.length} names)`,
      field,
      'BAD_NAME_INDEX',
      at,
    );
  return i;
}
