import { encodeCompactIndex } from '../src/index.js';

/** One export of a test package: class/outer as object references, the object's bytes. */
export interface TestExport {
  classRef: number;
  name: number;
  /** The bytes, or a function of the export's file offset (lazy arrays hold absolute offsets). */
  data: Uint8Array | ((offset: number) => Uint8Array);
  outer?: number;
  flags?: number;
}

/** One import: name indices and the outer reference. */
export interface TestImport {
  classPackage: number;
  className: number;
  outer: number;
  name: number;
}

/** The parts one after another. */
export const cat = (parts: (Uint8Array | number[])[]) => {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of arrays) {
    out.set(a, o);
    o += a.length;
  }
  return out;
};
/** A little-endian int32. */
export const i32 = (v: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, v, true);
  return b;
};

/**
 * A small version-69 package laid out as UCC does: header, names, export data, imports, exports.
 *
 * ```ts
 * const bytes = buildPackage({ names: ['None', 'Core', 'Package'], imports: [], exports: [] });
 * ```
 */
export function buildPackage(p: {
  names: string[];
  imports: TestImport[];
  exports: TestExport[];
  version?: number;
}): Uint8Array {
  const HEADER = 64;
  const names = cat(
    p.names.flatMap((n) => [encodeCompactIndex(n.length + 1), new TextEncoder().encode(`${n}\0`), i32(0)]),
  );
  const nameOffset = HEADER;
  let offset = nameOffset + names.length;
  const dataOffsets = p.exports.map((e) => {
    const at = offset;
    offset += (typeof e.data === 'function' ? e.data(0) : e.data).length;
    return at;
  });
  const datas = p.exports.map((e, k) => (typeof e.data === 'function' ? e.data(dataOffsets[k]) : e.data));
  const imports = cat(
    p.imports.flatMap((i) => [
      encodeCompactIndex(i.classPackage),
      encodeCompactIndex(i.className),
      i32(i.outer),
      encodeCompactIndex(i.name),
    ]),
  );
  const importOffset = offset;
  const exportOffset = importOffset + imports.length;
  const exports = cat(
    p.exports.flatMap((e, k) => [
      encodeCompactIndex(e.classRef),
      encodeCompactIndex(0),
      i32(e.outer ?? 0),
      encodeCompactIndex(e.name),
      i32(e.flags ?? 0),
      encodeCompactIndex(datas[k].length),
      ...(datas[k].length ? [encodeCompactIndex(dataOffsets[k])] : []),
    ]),
  );
  const header = cat([
    [0xc1, 0x83, 0x2a, 0x9e],
    [(p.version ?? 69) & 0xff, 0, 0, 0],
    i32(0),
    i32(p.names.length),
    i32(nameOffset),
    i32(p.exports.length),
    i32(exportOffset),
    i32(p.imports.length),
    i32(importOffset),
    new Uint8Array(16),
    i32(1),
    i32(p.exports.length),
    i32(p.names.length),
  ]);
  return cat([header, names, ...datas, imports, exports]);
}
