/**
 * An Unreal Engine 1 package opened for reading: header, names, imports and exports read and
 * checked up front (offsets inside the file, references inside the tables, outer chains without
 * cycles); objects (meshes, textures, palettes) are read on demand.
 */
import { ByteReader } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';
import { type PackageHeader, readPackageHeader } from './header.js';
import { type PackageMesh, readLodMesh } from './lodmesh.js';
import { type NameTable, readNameTable } from './names.js';
import { openObject, type PackageObject } from './object.js';
import {
  EXPORT_STRIDE,
  IMPORT_STRIDE,
  outerChain,
  type PackageExport,
  type PackageImport,
  PackageTables,
  readExports,
  readImports,
  refPath,
} from './objects.js';
import { type PackageTexture, readPalette, readTexture } from './texture.js';

/**
 * Scratch ints for the checks and lookups of one call (reused: a fresh array per package cost
 * more than the walks, issue 28); up to 2¹⁸ ints are kept, larger requests get their own array.
 */
let scratch = new Int32Array(4096);
function scratchInts(n: number): Int32Array {
  if (n <= scratch.length) return scratch;
  if (n > 1 << 18) return new Int32Array(n);
  scratch = new Int32Array(Math.max(n, 2 * scratch.length));
  return scratch;
}

/** Classes whose exports are vertex meshes this package converts. */
export const VERTEX_MESH_CLASSES = ['Mesh', 'LodMesh'] as const;

/** A package read into its tables. */
export class UnrealPackage {
  readonly header: PackageHeader;
  /** The name table, each name decoded when first read. */
  readonly nameTable: NameTable;
  /** The import and export tables as typed columns (entry objects made when asked for). */
  readonly tables: PackageTables;
  private readonly r: ByteReader;

  constructor(
    readonly bytes: Uint8Array,
    readonly file?: string,
  ) {
    const r = (this.r = new ByteReader(bytes, { file }));
    this.header = readPackageHeader(r);
    this.nameTable = readNameTable(r, this.header);
    const imports = readImports(r, this.header, this.nameTable);
    const exports = readExports(r, this.header, this.nameTable);
    this.tables = new PackageTables(this.nameTable, imports, exports);
    // every reference a table holds must resolve, and every outer chain end
    this.checkOuterChains(this.checkRefs());
  }

  /** Every import as an object (made on first use). */
  get imports(): PackageImport[] {
    return this.tables.imports;
  }

  /** Every export as an object (made on first use). */
  get exports(): PackageExport[] {
    return this.tables.exports;
  }

  /** Number of exports. */
  get exportCount(): number {
    return this.tables.exportCount;
  }

  /** Number of imports. */
  get importCount(): number {
    return this.tables.importCount;
  }

  /** Export `i` (0-based) as an object, without making the others. */
  exportEntry(i: number): PackageExport {
    if (!(i >= 0 && i < this.tables.exportCount)) this.checkRef(i + 1); // throws BAD_OBJECT_REF
    return this.tables.exportEntry(i);
  }

  /** The object name of export `i` (0-based). */
  exportName(i: number): string {
    if (!(i >= 0 && i < this.tables.exportCount)) this.checkRef(i + 1);
    return this.tables.exportName(i);
  }

  /**
   * Every class, super and outer reference names an entry of the tables (`BAD_OBJECT_REF`, the
   * exports checked first, then the imports); returns the outer of each entry as a slot (imports
   * first, then exports; -1 for none) for {@link checkOuterChains}.
   */
  private checkRefs(): Int32Array {
    const { importData, exportData, importCount: ni, exportCount: ne } = this.tables;
    const outer = scratchInts(3 * (ni + ne)).subarray(0, ni + ne);
    for (let i = 0, o = 0; i < ne; i++, o += EXPORT_STRIDE) {
      const c = exportData[o];
      const s = exportData[o + 1];
      const out = exportData[o + 2];
      // a reference r is good when -ni <= r <= ne
      if (c < -ni || c > ne || s < -ni || s > ne || out < -ni || out > ne) {
        const bad = c < -ni || c > ne ? 'class' : s < -ni || s > ne ? 'super' : 'outer';
        const ref = bad === 'class' ? c : bad === 'super' ? s : out;
        throw this.r.error(
          `object reference ${ref} is outside the tables`,
          `exports[${i}].${bad}`,
          'BAD_OBJECT_REF',
          exportData[o + 7],
        );
      }
      outer[ni + i] = out === 0 ? -1 : out < 0 ? -out - 1 : ni + out - 1;
    }
    for (let i = 0, o = 0; i < ni; i++, o += IMPORT_STRIDE) {
      const out = importData[o + 2];
      if (out < -ni || out > ne)
        throw this.r.error(
          `object reference ${out} is outside the tables`,
          `imports[${i}].outer`,
          'BAD_OBJECT_REF',
          importData[o + 4],
        );
      outer[i] = out === 0 ? -1 : out < 0 ? -out - 1 : ni + out - 1;
    }
    return outer;
  }

  /**
   * Every outer chain ends (no cycle), in time linear in the tables: each entry is walked once
   * (`outer`: the outer of each entry as a slot, imports first, then exports; entries known to
   * reach the top are marked).
   */
  private checkOuterChains(outer: Int32Array): void {
    const ni = this.tables.importCount;
    const total = outer.length;
    // after the outer slots in the same scratch: 0 not seen, 1 on the path being walked, 2
    // reaches the top; then the path
    const work = scratchInts(3 * total);
    const state = work.subarray(total, 2 * total).fill(0);
    const path = work.subarray(2 * total, 3 * total);
    // the order of the earlier walk (imports from the last, then exports), so a cycle is
    // reported at the same entry
    for (let i = 0; i < total; i++) {
      const start = i < ni ? ni - 1 - i : i;
      if (state[start]) continue;
      let n = 0;
      let cur = start;
      while (cur >= 0 && state[cur] === 0) {
        state[cur] = 1;
        path[n++] = cur;
        cur = outer[cur];
      }
      if (cur >= 0 && state[cur] === 1)
        outerChain(this.r, this.tables, start < ni ? -start - 1 : start - ni + 1, false); // throws IMPORT_CYCLE
      for (let k = 0; k < n; k++) state[path[k]] = 2;
    }
  }

  /** Every name of the table (all decoded). */
  get names(): string[] {
    return this.nameTable.all();
  }

  /** The class name of export `i` (0-based). */
  exportClass(i: number): string {
    if (!(i >= 0 && i < this.tables.exportCount)) return this.tables.refClass(this.checkRef(i + 1)); // throws BAD_OBJECT_REF
    const c = this.tables.exportClassRef(i); // checked by the constructor
    return c === 0 ? 'Class' : this.tables.refName(c);
  }

  /** The name of an object reference. */
  refName(ref: number): string {
    return this.tables.refName(this.checkRef(ref));
  }

  /** The class of an object reference. */
  refClass(ref: number): string {
    return this.tables.refClass(this.checkRef(ref));
  }

  /** `ref` when it names an entry of the tables (or is 0), else `BAD_OBJECT_REF`. */
  checkRef(ref: number): number {
    if (!Number.isInteger(ref) || !this.tables.validRef(ref))
      throw this.r.error(
        `object reference ${ref} is outside the tables (${this.tables.importCount} imports, ${this.tables.exportCount} exports)`,
        'objectRef',
        'BAD_OBJECT_REF',
      );
    return ref;
  }

  /** `Package.Group.Name` of an object reference (exports start with their groups). */
  refPath(ref: number): string {
    // a top-level export (most of them): its name
    const t = this.tables;
    if (ref > 0 && ref <= t.exportCount && t.refOuter(ref) === 0) return t.refName(ref);
    return refPath(this.r, t, this.checkRef(ref));
  }

  /** The top-level package an import lives in (`Botpack` for `Botpack.Skins.X`). */
  importPackage(ref: number): string | undefined {
    if (ref >= 0) return undefined;
    this.checkRef(ref);
    const chain = outerChain(this.r, this.tables, ref);
    return chain[chain.length - 1];
  }

  /** 0-based indices of the exports of a class (any case). */
  exportsOf(className: string): number[] {
    return this.exportsOfClasses([className]);
  }

  /**
   * 0-based indices of the exports of any of these classes (any case), in table order: each
   * distinct class reference is named once (a package has hundreds of exports of a few dozen
   * classes), not each export.
   */
  exportsOfClasses(classNames: readonly string[]): number[] {
    const t = this.tables;
    const wanted = classNames.map((c) => c.toLowerCase());
    const ni = t.importCount;
    // per class reference (offset by the import count): 0 not looked at, 1 wanted, 2 not
    const memo = scratchInts(ni + t.exportCount + 1).fill(0, 0, ni + t.exportCount + 1);
    const out: number[] = [];
    for (let i = 0; i < t.exportCount; i++) {
      const c = t.exportClassRef(i);
      let m = memo[c + ni];
      if (m === 0) {
        const name = c === 0 ? 'Class' : t.refName(c);
        m = wanted.some((w) => w.length === name.length && w === name.toLowerCase()) ? 1 : 2;
        memo[c + ni] = m;
      }
      if (m === 1) out.push(i);
    }
    return out;
  }

  /** The export of a name and class (any case), or -1. */
  findExport(name: string, className?: string): number {
    const n = name.toLowerCase();
    const c = className?.toLowerCase();
    for (let i = 0; i < this.tables.exportCount; i++)
      if (this.tables.exportName(i).toLowerCase() === n && (!c || this.exportClass(i).toLowerCase() === c))
        return i;
    return -1;
  }

  /** Reads export `i`'s header and properties. */
  open(i: number): PackageObject {
    return openObject(
      this.r,
      this.exportEntry(i),
      i,
      this.exportClass(i),
      this.nameTable,
      this.header.version,
    );
  }

  /** Reads a `Mesh`/`LodMesh` export. */
  readMesh(i: number): PackageMesh {
    const obj = this.open(i);
    return this.r.scope(`exports[${i}](${obj.name})`, () => readLodMesh(this.r, obj, this.nameTable));
  }

  /** Reads a `Texture` export (its mips are views into the package). */
  readTexture(i: number): PackageTexture {
    const obj = this.open(i);
    return this.r.scope(`exports[${i}](${obj.name})`, () => readTexture(this.r, obj));
  }

  /**
   * Reads a `TextBuffer` export (a class's `ScriptText`: its source, `#exec` lines included):
   * Pos, Top, then the text.
   */
  readTextBuffer(i: number): string {
    const obj = this.open(i);
    const r = this.r;
    return r.scope(`exports[${i}](${obj.name})`, () => {
      r.i32('pos');
      r.i32('top');
      const at = r.offset;
      const n = readCompactIndex(r, 'text.length');
      if (n < 0 || n > obj.end - r.offset)
        throw r.error(`text of ${n} bytes does not fit the object`, 'text.length', 'COUNT_TOO_LARGE', at);
      const bytes = r.bytesView(n, 'text');
      const end = bytes.indexOf(0);
      return new TextDecoder('latin1').decode(end >= 0 ? bytes.subarray(0, end) : bytes);
    });
  }

  /** Reads a `Palette` export: 256 RGBA colours. */
  readPalette(i: number): Uint8Array {
    const obj = this.open(i);
    return this.r.scope(`exports[${i}](${obj.name})`, () => readPalette(this.r, obj));
  }
}

/**
 * Opens a package.
 *
 * ```ts
 * const pkg = readPackage(bytes, 'HeadHunter.u');
 * pkg.exportsOf('LodMesh').map((i) => pkg.exports[i].name); // ['Skull']
 * ```
 */
export function readPackage(bytes: Uint8Array, file?: string): UnrealPackage {
  return new UnrealPackage(bytes, file);
}
