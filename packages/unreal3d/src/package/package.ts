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
  outerChain,
  type PackageExport,
  type PackageImport,
  readExports,
  readImports,
  refClass,
  refName,
  refPath,
  validRef,
} from './objects.js';
import { type PackageTexture, readPalette, readTexture } from './texture.js';

/** Classes whose exports are vertex meshes this package converts. */
export const VERTEX_MESH_CLASSES = ['Mesh', 'LodMesh'] as const;

/** A package read into its tables. */
export class UnrealPackage {
  readonly header: PackageHeader;
  /** The name table, each name decoded when first read. */
  readonly nameTable: NameTable;
  readonly imports: PackageImport[];
  readonly exports: PackageExport[];
  private readonly r: ByteReader;

  constructor(
    readonly bytes: Uint8Array,
    readonly file?: string,
  ) {
    const r = (this.r = new ByteReader(bytes, { file }));
    this.header = readPackageHeader(r);
    this.nameTable = readNameTable(r, this.header);
    this.imports = readImports(r, this.header, this.nameTable);
    this.exports = readExports(r, this.header, this.nameTable);
    // every reference a table holds must resolve, and every outer chain end
    for (let i = 0; i < this.exports.length; i++) {
      const e = this.exports[i];
      const bad = !validRef(this, e.classRef)
        ? 'class'
        : !validRef(this, e.superRef)
          ? 'super'
          : !validRef(this, e.outer)
            ? 'outer'
            : '';
      if (bad) {
        const ref = bad === 'class' ? e.classRef : bad === 'super' ? e.superRef : e.outer;
        throw r.error(
          `object reference ${ref} is outside the tables`,
          `exports[${i}].${bad}`,
          'BAD_OBJECT_REF',
          e.at,
        );
      }
    }
    for (let i = 0; i < this.imports.length; i++) {
      const imp = this.imports[i];
      if (!validRef(this, imp.outer))
        throw r.error(
          `object reference ${imp.outer} is outside the tables`,
          `imports[${i}].outer`,
          'BAD_OBJECT_REF',
          imp.at,
        );
    }
    this.checkOuterChains();
  }

  /**
   * Every outer chain ends (no cycle), in time linear in the tables: each entry is walked once
   * (typed arrays: the outer of each entry as a slot, imports first, then exports; entries known
   * to reach the top are marked).
   */
  private checkOuterChains(): void {
    const ni = this.imports.length;
    const ne = this.exports.length;
    const total = ni + ne;
    const slotOf = (ref: number) => (ref === 0 ? -1 : ref < 0 ? -ref - 1 : ni + ref - 1);
    const outer = new Int32Array(total);
    for (let k = 0; k < ni; k++) outer[k] = slotOf(this.imports[k].outer);
    for (let k = 0; k < ne; k++) outer[ni + k] = slotOf(this.exports[k].outer);
    const state = new Uint8Array(total); // 0 not seen, 1 on the path being walked, 2 reaches the top
    const path = new Int32Array(total);
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
        outerChain(this.r, this, start < ni ? -start - 1 : start - ni + 1, false); // throws IMPORT_CYCLE
      for (let k = 0; k < n; k++) state[path[k]] = 2;
    }
  }

  /** Every name of the table (all decoded). */
  get names(): string[] {
    return this.nameTable.all();
  }

  /** The class name of export `i` (0-based). */
  exportClass(i: number): string {
    const e = this.exports[i];
    if (e === undefined) return refClass(this, this.checkRef(i + 1)); // throws BAD_OBJECT_REF
    const c = e.classRef; // checked by the constructor
    return c === 0 ? 'Class' : refName(this, c);
  }

  /** The name of an object reference. */
  refName(ref: number): string {
    return refName(this, this.checkRef(ref));
  }

  /** The class of an object reference. */
  refClass(ref: number): string {
    return refClass(this, this.checkRef(ref));
  }

  /** `ref` when it names an entry of the tables (or is 0), else `BAD_OBJECT_REF`. */
  checkRef(ref: number): number {
    if (!Number.isInteger(ref) || !validRef(this, ref))
      throw this.r.error(
        `object reference ${ref} is outside the tables (${this.imports.length} imports, ${this.exports.length} exports)`,
        'objectRef',
        'BAD_OBJECT_REF',
      );
    return ref;
  }

  /** `Package.Group.Name` of an object reference (exports start with their groups). */
  refPath(ref: number): string {
    // a top-level export (most of them): its name
    if (ref > 0 && ref <= this.exports.length && this.exports[ref - 1].outer === 0)
      return this.exports[ref - 1].name;
    return refPath(this.r, this, this.checkRef(ref));
  }

  /** The top-level package an import lives in (`Botpack` for `Botpack.Skins.X`). */
  importPackage(ref: number): string | undefined {
    if (ref >= 0) return undefined;
    this.checkRef(ref);
    const chain = outerChain(this.r, this, ref);
    return chain[chain.length - 1];
  }

  /** 0-based indices of the exports of a class (any case). */
  exportsOf(className: string): number[] {
    const lower = className.toLowerCase();
    const out: number[] = [];
    for (let i = 0; i < this.exports.length; i++)
      if (this.exportClass(i).toLowerCase() === lower) out.push(i);
    return out;
  }

  /** The export of a name and class (any case), or -1. */
  findExport(name: string, className?: string): number {
    const n = name.toLowerCase();
    const c = className?.toLowerCase();
    return this.exports.findIndex(
      (e, i) => e.name.toLowerCase() === n && (!c || this.exportClass(i).toLowerCase() === c),
    );
  }

  /** Reads export `i`'s header and properties. */
  open(i: number): PackageObject {
    return openObject(this.r, this.exports[i], i, this.exportClass(i), this.nameTable, this.header.version);
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
