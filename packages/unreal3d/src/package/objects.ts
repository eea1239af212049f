/**
 * The import and export tables, and object references. A reference is an int: 0 none, `i > 0`
 * export `i − 1`, `i < 0` import `−i − 1`. Exports name their class, super, outer (package) and
 * where their serialized bytes are; imports name a class and the outer they live in (a chain of
 * imports ending at a package). Offsets are checked to lie inside the file and outer chains to end
 * (no cycle).
 *
 * The tables are read into typed columns ({@link PackageTables}: one Int32Array per table, a
 * fixed number of ints per entry); entry objects are made only when asked for (issue 28: opening
 * a package to convert one mesh reads a few of its hundreds of entries).
 */
import { type ByteReader, FormatError } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';
import type { PackageHeader } from './header.js';
import { type NameLookup, readNameIndex } from './names.js';

/** One import: an object of another package. */
export interface PackageImport {
  classPackage: string;
  className: string;
  /** Object reference of the outer (usually an import of class `Package`). */
  outer: number;
  name: string;
  /** Where the entry starts in the file. */
  at: number;
}

/** One export: an object of this package. */
export interface PackageExport {
  /** Object reference of the class (0: a `Class` itself). */
  classRef: number;
  superRef: number;
  outer: number;
  name: string;
  flags: number;
  serialSize: number;
  serialOffset: number;
  /** Where the entry starts in the file. */
  at: number;
}

/** Ints per import entry in {@link PackageTables.importData}: classPackage, className, outer, name, at. */
export const IMPORT_STRIDE = 5;
/** Ints per export entry in {@link PackageTables.exportData}: class, super, outer, name, flags, size, offset, at. */
export const EXPORT_STRIDE = 8;

/**
 * An import entry: its names decoded when first read (a package mesh's conversion reads a few).
 */
class ImportEntry implements PackageImport {
  readonly #names: NameLookup;
  constructor(
    readonly classPackageIndex: number,
    readonly classNameIndex: number,
    readonly outer: number,
    readonly nameIndex: number,
    readonly at: number,
    names: NameLookup,
  ) {
    this.#names = names;
  }
  get classPackage(): string {
    return this.#names.at(this.classPackageIndex) as string;
  }
  get className(): string {
    return this.#names.at(this.classNameIndex) as string;
  }
  get name(): string {
    return this.#names.at(this.nameIndex) as string;
  }
  /** The entry with its names, as a plain object (JSON, `toEqual`). */
  toJSON(): PackageImport {
    const { classPackage, className, outer, name, at } = this;
    return { classPackage, className, outer, name, at };
  }
}

/** An export entry; its name decoded when first read (see {@link ImportEntry}). */
class ExportEntry implements PackageExport {
  readonly #names: NameLookup;
  constructor(
    readonly classRef: number,
    readonly superRef: number,
    readonly outer: number,
    readonly nameIndex: number,
    readonly flags: number,
    readonly serialSize: number,
    readonly serialOffset: number,
    readonly at: number,
    names: NameLookup,
  ) {
    this.#names = names;
  }
  get name(): string {
    return this.#names.at(this.nameIndex) as string;
  }
  /** The entry with its name, as a plain object (JSON, `toEqual`). */
  toJSON(): PackageExport {
    const { classRef, superRef, outer, name, flags, serialSize, serialOffset, at } = this;
    return { classRef, superRef, outer, name, flags, serialSize, serialOffset, at };
  }
}

/**
 * Both tables as typed columns, and object references resolved in them.
 *
 * ```ts
 * const t = new PackageTables(names, readImports(r, header, names), readExports(r, header, names));
 * t.refName(-1); // 'Core'
 * ```
 */
export class PackageTables {
  readonly importCount: number;
  readonly exportCount: number;
  #imports: PackageImport[] | undefined;
  #exports: PackageExport[] | undefined;

  constructor(
    readonly names: NameLookup,
    /** {@link IMPORT_STRIDE} ints per import. */
    readonly importData: Int32Array,
    /** {@link EXPORT_STRIDE} ints per export. */
    readonly exportData: Int32Array,
  ) {
    this.importCount = importData.length / IMPORT_STRIDE;
    this.exportCount = exportData.length / EXPORT_STRIDE;
  }

  /** Import `i` as an object (made when asked for). */
  importEntry(i: number): PackageImport {
    const d = this.importData;
    const o = IMPORT_STRIDE * i;
    return new ImportEntry(d[o], d[o + 1], d[o + 2], d[o + 3], d[o + 4], this.names);
  }

  /** Export `i` as an object (made when asked for). */
  exportEntry(i: number): PackageExport {
    const d = this.exportData;
    const o = EXPORT_STRIDE * i;
    const flags = d[o + 4] >>> 0;
    return new ExportEntry(
      d[o],
      d[o + 1],
      d[o + 2],
      d[o + 3],
      flags,
      d[o + 5],
      d[o + 6],
      d[o + 7],
      this.names,
    );
  }

  /** Every import as an object (made on first use, then kept). */
  get imports(): PackageImport[] {
    if (!this.#imports) {
      const out = new Array<PackageImport>(this.importCount);
      for (let i = 0; i < out.length; i++) out[i] = this.importEntry(i);
      this.#imports = out;
    }
    return this.#imports;
  }

  /** Every export as an object (made on first use, then kept). */
  get exports(): PackageExport[] {
    if (!this.#exports) {
      const out = new Array<PackageExport>(this.exportCount);
      for (let i = 0; i < out.length; i++) out[i] = this.exportEntry(i);
      this.#exports = out;
    }
    return this.#exports;
  }

  /** Name of export `i`. */
  exportName(i: number): string {
    return this.names.at(this.exportData[EXPORT_STRIDE * i + 3]) as string;
  }

  /** Class reference of export `i` (0: a `Class`). */
  exportClassRef(i: number): number {
    return this.exportData[EXPORT_STRIDE * i];
  }

  /** Class name of import `i`. */
  importClassName(i: number): string {
    return this.names.at(this.importData[IMPORT_STRIDE * i + 1]) as string;
  }

  /** True when `ref` is 0 or names an existing import/export. */
  validRef(ref: number): boolean {
    return ref === 0 || (ref > 0 ? ref <= this.exportCount : -ref <= this.importCount);
  }

  /** The object name of a reference ('None' for 0). */
  refName(ref: number): string {
    if (ref === 0) return 'None';
    const k =
      ref > 0
        ? this.exportData[EXPORT_STRIDE * (ref - 1) + 3]
        : this.importData[IMPORT_STRIDE * (-ref - 1) + 3];
    return this.names.at(k) as string;
  }

  /** The class name of a reference: an export's class (`Class` when it has none), an import's class. */
  refClass(ref: number): string {
    if (ref === 0) return 'None';
    if (ref < 0) return this.importClassName(-ref - 1);
    const c = this.exportData[EXPORT_STRIDE * (ref - 1)];
    return c === 0 ? 'Class' : this.refName(c);
  }

  /** The outer reference of a reference. */
  refOuter(ref: number): number {
    if (ref === 0) return 0;
    return ref > 0
      ? this.exportData[EXPORT_STRIDE * (ref - 1) + 2]
      : this.importData[IMPORT_STRIDE * (-ref - 1) + 2];
  }

  /** Where the table entry of a reference starts in the file. */
  refAt(ref: number): number {
    return ref > 0
      ? this.exportData[EXPORT_STRIDE * (ref - 1) + 7]
      : this.importData[IMPORT_STRIDE * (-ref - 1) + 4];
  }
}

/** Reads the import table (each entry at least 4 bytes) into {@link IMPORT_STRIDE} ints per entry. */
export function readImports(r: ByteReader, header: PackageHeader, names: NameLookup): Int32Array {
  if (header.importCount === 0) return new Int32Array(0);
  r.seek(header.importOffset, 'header.importOffset');
  const n = r.count(header.importCount, 4, 'header.importCount');
  const out = new Int32Array(n * IMPORT_STRIDE);
  const bytes = r.bytes;
  const nn = names.length;
  for (let i = 0; i < n; i++) {
    // fast path: entries decoded straight from the bytes while the longest entry fits and every
    // field is good; the first one in doubt is re-read below, naming the field in its FormatError
    i = fastImports(bytes, r.offset, i, n, out, nn);
    r.offset = fastEnd;
    if (i === n) break;
    const o = IMPORT_STRIDE * i;
    const at = r.offset;
    try {
      out[o] = readNameIndex(r, names, 'classPackage');
      out[o + 1] = readNameIndex(r, names, 'className');
      out[o + 2] = r.i32('outer');
      out[o + 3] = readNameIndex(r, names, 'objectName');
      out[o + 4] = at;
    } catch (e) {
      throw inEntry(e, `imports[${i}]`);
    }
  }
  return out;
}

/** Where the last {@link fastImports} / {@link fastExports} run stopped. */
let fastEnd = 0;

/**
 * Decodes import entries `i…` from `p` while they are good; returns the index of the first one
 * not decoded (`n` when all are), its position in {@link fastEnd}.
 */
function fastImports(b: Uint8Array, p: number, i: number, n: number, out: Int32Array, nn: number): number {
  for (let o = IMPORT_STRIDE * i; i < n; i++, o += IMPORT_STRIDE) {
    if (p + MAX_IMPORT_ENTRY > b.length) break;
    const q = decodeEntry(b, p, out, o, IMPORT_INT32_FIELDS, 4);
    const classPackage = out[o];
    const className = out[o + 1];
    const name = out[o + 3];
    if (
      !(
        q > 0 &&
        classPackage >= 0 &&
        classPackage < nn &&
        className >= 0 &&
        className < nn &&
        name >= 0 &&
        name < nn
      )
    )
      break;
    out[o + 4] = p;
    p = q;
  }
  fastEnd = p;
  return i;
}

/**
 * Decodes export entries `i…` from `p` while they are good (serial ranges inside the file);
 * returns the index of the first one not decoded, its position in {@link fastEnd}.
 */
function fastExports(b: Uint8Array, p: number, i: number, n: number, out: Int32Array, nn: number): number {
  const length = b.length;
  for (let o = EXPORT_STRIDE * i; i < n; i++, o += EXPORT_STRIDE) {
    if (p + MAX_EXPORT_ENTRY > length) break;
    const q = decodeEntry(b, p, out, o, EXPORT_INT32_FIELDS, 7);
    const nameIndex = out[o + 3];
    const serialSize = out[o + 5];
    const serialOffset = out[o + 6];
    if (
      !(
        q > 0 &&
        nameIndex >= 0 &&
        nameIndex < nn &&
        serialSize >= 0 &&
        serialOffset >= 0 &&
        serialOffset + serialSize <= length
      )
    )
      break;
    out[o + 7] = p;
    p = q;
  }
  fastEnd = p;
  return i;
}

/** Bit k set: field k of an entry is an int32 (else a compact index). Imports: the outer. */
const IMPORT_INT32_FIELDS = 0b100;
/** Exports: the outer and the flags; field 6 (the serial offset) is absent when field 5 (the size) is 0. */
const EXPORT_INT32_FIELDS = 0b10100;

/**
 * Decodes the `count` fields of one table entry at `p` into `out[o…]` without per-field checks
 * (the longest entry must fit); returns the position after it, or -1 for a compact index longer
 * than 5 bytes or past 2³¹ (the checked reader then re-reads the entry and names the field). One
 * loop, so the engine inlines it into the table loops.
 */
function decodeEntry(
  b: Uint8Array,
  p: number,
  out: Int32Array,
  o: number,
  int32s: number,
  count: number,
): number {
  for (let k = 0; k < count; k++) {
    if ((int32s >> k) & 1) {
      out[o + k] = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24);
      p += 4;
      continue;
    }
    if (k === 6 && out[o + 5] === 0) {
      out[o + 6] = 0; // an export without data has no serial offset
      continue;
    }
    let x = b[p++];
    const negative = x & 0x80;
    let v = x & 0x3f;
    if (x & 0x40) {
      x = b[p++];
      v |= (x & 0x7f) << 6;
      if (x & 0x80) {
        x = b[p++];
        v |= (x & 0x7f) << 13;
        if (x & 0x80) {
          x = b[p++];
          v |= (x & 0x7f) << 20;
          if (x & 0x80) {
            x = b[p++];
            if (x > 0x0f) return -1; // a sixth byte, or past 2^31
            v |= x << 27;
          }
        }
      }
    }
    out[o + k] = negative ? -v : v;
  }
  return p;
}

/** A FormatError of a table entry's field, re-raised with the entry in its field path. */
function inEntry(e: unknown, entry: string): unknown {
  if (!(e instanceof FormatError)) return e;
  return new FormatError(e.detail, {
    code: e.code,
    file: e.file,
    offset: e.offset,
    field: `${entry}.${e.field}`,
  });
}

/**
 * Reads the export table (each entry at least 8 bytes) into {@link EXPORT_STRIDE} ints per entry;
 * serial ranges must lie inside the file.
 */
export function readExports(r: ByteReader, header: PackageHeader, names: NameLookup): Int32Array {
  if (header.exportCount === 0) return new Int32Array(0);
  r.seek(header.exportOffset, 'header.exportOffset');
  const n = r.count(header.exportCount, 8, 'header.exportCount');
  const out = new Int32Array(n * EXPORT_STRIDE);
  const bytes = r.bytes;
  const nn = names.length;
  for (let i = 0; i < n; i++) {
    // fast path as for imports (the longest entry is 33 bytes)
    i = fastExports(bytes, r.offset, i, n, out, nn);
    r.offset = fastEnd;
    if (i === n) break;
    const o = EXPORT_STRIDE * i;
    const at = r.offset;
    try {
      const classRef = readCompactIndex(r, 'class');
      const superRef = readCompactIndex(r, 'super');
      const outer = r.i32('outer');
      const nameIndex = readNameIndex(r, names, 'objectName');
      const flags = r.u32('flags');
      const sizeAt = r.offset;
      const serialSize = readCompactIndex(r, 'serialSize');
      const serialOffset = serialSize ? readCompactIndex(r, 'serialOffset') : 0;
      if (serialSize < 0 || serialOffset < 0 || serialOffset + serialSize > r.length)
        throw r.error(
          `export ${names.at(nameIndex)}: ${serialSize} bytes at ${serialOffset} run past the end of the file (${r.length} bytes)`,
          'serialSize',
          'BAD_OFFSET',
          sizeAt,
        );
      out.set([classRef, superRef, outer, nameIndex, flags, serialSize, serialOffset, at], o);
    } catch (e) {
      throw inEntry(e, `exports[${i}]`);
    }
  }
  return out;
}

/** Longest export entry: 3 + 2 compact indices of 5 bytes, outer and flags of 4. */
const MAX_EXPORT_ENTRY = 33;

/** Longest import entry: 3 compact indices of 5 bytes and the outer's 4. */
const MAX_IMPORT_ENTRY = 19;

/**
 * The outer chain of a reference, innermost first (`['Skins', 'Botpack']` for
 * `Botpack.Skins.X`); a cycle or a dangling reference is a `FormatError` naming the table entry.
 */
export function outerChain(r: ByteReader, t: PackageTables, ref: number, names = true): string[] {
  const chain: string[] = [];
  let depth = 0;
  // a chain longer than the tables visits some entry twice: a cycle
  const limit = t.importCount + t.exportCount;
  let from = ref;
  let cur = t.refOuter(ref);
  while (cur !== 0) {
    if (!t.validRef(cur) || depth >= limit || cur === ref) {
      const field = from > 0 ? `exports[${from - 1}].outer` : `imports[${-from - 1}].outer`;
      const at = t.refAt(from);
      if (!t.validRef(cur))
        throw r.error(`object reference ${cur} is outside the tables`, field, 'BAD_OBJECT_REF', at);
      throw r.error(`the outer chain of ${t.refName(ref)} loops`, field, 'IMPORT_CYCLE', at);
    }
    if (names) chain.push(t.refName(cur));
    depth++;
    from = cur;
    cur = t.refOuter(cur);
  }
  return chain;
}

/** `Package.Group.Name` of a reference. */
export function refPath(r: ByteReader, t: PackageTables, ref: number): string {
  return [...outerChain(r, t, ref).reverse(), t.refName(ref)].join('.');
}
