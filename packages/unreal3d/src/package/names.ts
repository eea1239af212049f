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
  r.seek(header.nameOffset, 'header.nameOffset');
  const n = r.count(header.nameCount, 5, 'header.nameCount');
  if (header.version >= 64) {
    const fast = readNamesFast(r, n);
    if (fast) return fast;
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
  return names;
}

/**
 * The common table (version ≥ 64, every length in one byte, every entry inside the file, no byte
 * 0x80–0x9F) decoded at once: one latin1 string of the whole table, each name a slice of it (4×
 * faster than a string per name, the fixed cost of opening a package). Undefined (nothing read)
 * when any entry is not of that kind: the reader above then reads entry by entry.
 */
function readNamesFast(r: ByteReader, n: number): string[] | undefined {
  const bytes = r.bytes;
  const start = r.offset;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let at = start;
  for (let i = 0; i < n; i++) {
    const len = bytes[at];
    const end = at + 1 + len;
    if (len === undefined || len >= 0x40 || end + 4 > bytes.length) return undefined;
    let e = at + 1;
    for (; e < end; e++) {
      const c = bytes[e];
      if (c === 0) break;
      // windows-1252 (what TextDecoder('latin1') decodes) differs from latin1 only here
      if (c >= 0x80 && c < 0xa0) return undefined;
    }
    starts[i] = at + 1 - start;
    ends[i] = e - start;
    at = end + 4;
  }
  const all = latin1.decode(bytes.subarray(start, at));
  const names = new Array<string>(n);
  for (let i = 0; i < n; i++) names[i] = all.slice(starts[i], ends[i]);
  r.offset = at;
  return names;
}

/**
 * A name index read from the file, checked against the table: `BAD_NAME_INDEX` past its end.
 *
 * ```ts
 * const name = readName(r, names, 'exports[3].objectName');
 * ```
 */
export function readName(r: ByteReader, names: readonly string[], field?: string): string {
  const at = r.offset;
  const i = readCompactIndex(r, field);
  if (i < 0 || i >= names.length)
    throw r.error(
      `name index ${i} is outside the name table (${names.length} names)`,
      field,
      'BAD_NAME_INDEX',
      at,
    );
  return names[i];
}
