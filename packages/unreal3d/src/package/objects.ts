/**
 * The import and export tables, and object references. A reference is an int: 0 none, `i > 0`
 * export `i − 1`, `i < 0` import `−i − 1`. Exports name their class, super, outer (package) and
 * where their serialized bytes are; imports name a class and the outer they live in (a chain of
 * imports ending at a package). Offsets are checked to lie inside the file and outer chains to end
 * (no cycle).
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

/**
 * An import entry as read: name indices (checked against the table), names decoded when first
 * read (issue 28: a package mesh's conversion reads a few of them).
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

/** An export entry as read; its name decoded when first read (see {@link ImportEntry}). */
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
    return {
      classRef,
      superRef,
      outer,
      name,
      flags,
      serialSize,
      serialOffset,
      at,
    };
  }
}

/** Reads the import table (each entry at least 4 bytes). */
export function readImports(r: ByteReader, header: PackageHeader, names: NameLookup): PackageImport[] {
  if (header.importCount === 0) return [];
  r.seek(header.importOffset, 'header.importOffset');
  const n = r.count(header.importCount, 4, 'header.importCount');
  const out = new Array<PackageImport>(n);
  const bytes = r.bytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    const at = r.offset;
    // fast path as for exports: the longest entry fits and every field is good
    if (at + MAX_IMPORT_ENTRY <= bytes.length) {
      const e = fastImport(bytes, dv, at, names);
      if (e) {
        out[i] = e;
        r.offset = cursor;
        continue;
      }
    }
    try {
      const classPackage = readNameIndex(r, names, 'classPackage');
      const className = readNameIndex(r, names, 'className');
      const outer = r.i32('outer');
      const name = readNameIndex(r, names, 'objectName');
      out[i] = new ImportEntry(classPackage, className, outer, name, at, names);
    } catch (e) {
      throw inEntry(e, `imports[${i}]`);
    }
  }
  return out;
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

/** Reads the export table (each entry at least 8 bytes); serial ranges must lie inside the file. */
export function readExports(r: ByteReader, header: PackageHeader, names: NameLookup): PackageExport[] {
  if (header.exportCount === 0) return [];
  r.seek(header.exportOffset, 'header.exportOffset');
  const n = r.count(header.exportCount, 8, 'header.exportCount');
  const out = new Array<PackageExport>(n);
  const bytes = r.bytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    const at = r.offset;
    // fast path: the longest entry (33 bytes) fits, decoded straight from the bytes; any doubt
    // (a malformed compact index, a name or range out of bounds) re-reads the entry below, which
    // names the field in its FormatError
    if (at + MAX_EXPORT_ENTRY <= bytes.length) {
      const e = fastExport(bytes, dv, at, names, r.length);
      if (e) {
        out[i] = e;
        r.offset = cursor;
        continue;
      }
    }
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
      out[i] = new ExportEntry(
        classRef,
        superRef,
        outer,
        nameIndex,
        flags,
        serialSize,
        serialOffset,
        at,
        names,
      );
    } catch (e) {
      throw inEntry(e, `exports[${i}]`);
    }
  }
  return out;
}

/** Longest export entry: 3 + 2 compact indices of 5 bytes, outer and flags of 4. */
const MAX_EXPORT_ENTRY = 33;

/** End of the entry {@link fastExport} / {@link fastIndex} last read. */
let cursor = 0;

/** A compact index at `cursor` (5 bytes must be there), or NaN when malformed. */
function fastIndex(b: Uint8Array): number {
  let x = b[cursor++];
  const negative = x & 0x80;
  let v = x & 0x3f;
  if (x & 0x40) {
    x = b[cursor++];
    v |= (x & 0x7f) << 6;
    if (x & 0x80) {
      x = b[cursor++];
      v |= (x & 0x7f) << 13;
      if (x & 0x80) {
        x = b[cursor++];
        v |= (x & 0x7f) << 20;
        if (x & 0x80) {
          x = b[cursor++];
          if (x > 0x0f) return Number.NaN; // a sixth byte, or past 2^31
          v += x * 0x8000000;
        }
      }
    }
  }
  return negative && v ? -v : v;
}

/** One export entry at `at` without per-field checks, or undefined when anything is off. */
function fastExport(
  b: Uint8Array,
  dv: DataView,
  at: number,
  names: NameLookup,
  length: number,
): PackageExport | undefined {
  cursor = at;
  const classRef = fastIndex(b);
  const superRef = fastIndex(b);
  const outer = dv.getInt32(cursor, true);
  cursor += 4;
  const nameIndex = fastIndex(b);
  const flags = dv.getUint32(cursor, true);
  cursor += 4;
  const serialSize = fastIndex(b);
  const serialOffset = serialSize ? fastIndex(b) : 0;
  // NaN fails every comparison below
  if (!(nameIndex >= 0 && nameIndex < names.length)) return undefined;
  if (!(serialSize >= 0 && serialOffset >= 0 && serialOffset + serialSize <= length)) return undefined;
  if (Number.isNaN(classRef) || Number.isNaN(superRef)) return undefined;
  return new ExportEntry(classRef, superRef, outer, nameIndex, flags, serialSize, serialOffset, at, names);
}

/** Longest import entry: 3 compact indices of 5 bytes and the outer's 4. */
const MAX_IMPORT_ENTRY = 19;

/** One import entry at `at` without per-field checks, or undefined when anything is off. */
function fastImport(b: Uint8Array, dv: DataView, at: number, names: NameLookup): PackageImport | undefined {
  cursor = at;
  const classPackage = fastIndex(b);
  const className = fastIndex(b);
  const outer = dv.getInt32(cursor, true);
  cursor += 4;
  const name = fastIndex(b);
  const n = names.length;
  // NaN fails every comparison
  if (!(classPackage >= 0 && classPackage < n && className >= 0 && className < n && name >= 0 && name < n))
    return undefined;
  return new ImportEntry(classPackage, className, outer, name, at, names);
}

/** The tables an object reference is resolved in. */
export interface ObjectTables {
  imports: readonly PackageImport[];
  exports: readonly PackageExport[];
}

/** True when `ref` is 0 or names an existing import/export. */
export function validRef(t: ObjectTables, ref: number): boolean {
  return ref === 0 || (ref > 0 ? ref <= t.exports.length : -ref <= t.imports.length);
}

/** The object name of a reference ('None' for 0). */
export function refName(t: ObjectTables, ref: number): string {
  if (ref === 0) return 'None';
  return ref > 0 ? t.exports[ref - 1].name : t.imports[-ref - 1].name;
}

/** The class name of a reference: an export's class (`Class` when it has none), an import's class. */
export function refClass(t: ObjectTables, ref: number): string {
  if (ref === 0) return 'None';
  if (ref < 0) return t.imports[-ref - 1].className;
  const c = t.exports[ref - 1].classRef;
  return c === 0 ? 'Class' : refName(t, c);
}

/** The outer reference of a reference. */
export function refOuter(t: ObjectTables, ref: number): number {
  if (ref === 0) return 0;
  return ref > 0 ? t.exports[ref - 1].outer : t.imports[-ref - 1].outer;
}

/**
 * The outer chain of a reference, innermost first (`['Skins', 'Botpack']` for
 * `Botpack.Skins.X`); a cycle or a dangling reference is a `FormatError` naming the table entry.
 */
export function outerChain(r: ByteReader, t: ObjectTables, ref: number, names = true): string[] {
  const chain: string[] = [];
  let depth = 0;
  // a chain longer than the tables visits some entry twice: a cycle
  const limit = t.imports.length + t.exports.length;
  let from = ref;
  let cur = refOuter(t, ref);
  while (cur !== 0) {
    if (!validRef(t, cur) || depth >= limit || cur === ref) {
      const field = from > 0 ? `exports[${from - 1}].outer` : `imports[${-from - 1}].outer`;
      const at = from > 0 ? t.exports[from - 1].at : t.imports[-from - 1].at;
      if (!validRef(t, cur))
        throw r.error(`object reference ${cur} is outside the tables`, field, 'BAD_OBJECT_REF', at);
      throw r.error(`the outer chain of ${refName(t, ref)} loops`, field, 'IMPORT_CYCLE', at);
    }
    if (names) chain.push(refName(t, cur));
    depth++;
    from = cur;
    cur = refOuter(t, cur);
  }
  return chain;
}

/** `Package.Group.Name` of a reference. */
export function refPath(r: ByteReader, t: ObjectTables, ref: number): string {
  return [...outerChain(r, t, ref).reverse(), refName(t, ref)].join('.');
}
