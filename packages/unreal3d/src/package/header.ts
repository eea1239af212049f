/**
 * The header (`FPackageFileSummary`) of an Unreal Engine 1 package (`.u`, `.utx`, `.unr`, …):
 * the tag `C1 83 2A 9E`, the version, flags and the name/export/import tables' counts and offsets;
 * before version 68 a heritage table, from 68 a GUID and the generations.
 */
import type { ByteReader } from '@gltf-legacy/core';

/** `0x9E2A83C1`, the first 4 bytes (little-endian) of every Unreal package. */
export const PACKAGE_TAG = 0x9e2a83c1;
/**
 * Package versions the UE1 games wrote: Unreal 1 (61–63), Unreal Gold / UT99 (68–69, the v436
 * patch writes 69), Deus Ex and Rune (61–69). UE2 starts near 100.
 */
export const PACKAGE_VERSIONS = { min: 61, max: 69 } as const;

/** One generation of the package (the table counts at each save). */
export interface PackageGeneration {
  exportCount: number;
  nameCount: number;
}

/** The package header. */
export interface PackageHeader {
  version: number;
  licensee: number;
  flags: number;
  nameCount: number;
  nameOffset: number;
  exportCount: number;
  exportOffset: number;
  importCount: number;
  importOffset: number;
  /** 16 bytes, version ≥ 68. */
  guid?: Uint8Array;
  generations: PackageGeneration[];
  /** Bytes the header takes. */
  size: number;
}

/** True when the bytes start with the package tag. */
export function looksLikePackage(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0xc1 && bytes[1] === 0x83 && bytes[2] === 0x2a && bytes[3] === 0x9e
  );
}

/**
 * Reads the header; a version outside {@link PACKAGE_VERSIONS} is `UNSUPPORTED_VERSION`, a table
 * outside the file `BAD_OFFSET`/`COUNT_TOO_LARGE`.
 *
 * ```ts
 * const header = readPackageHeader(new ByteReader(bytes, { file: 'HeadHunter.u' }));
 * ```
 */
export function readPackageHeader(r: ByteReader): PackageHeader {
  return r.scope('header', () => {
    r.seek(0);
    const tag = r.u32('tag');
    if (tag !== PACKAGE_TAG)
      throw r.error(`not an Unreal package (tag 0x${tag.toString(16)})`, 'tag', 'BAD_MAGIC', 0);
    const version = r.u16('version');
    const licensee = r.u16('licensee');
    if (version < PACKAGE_VERSIONS.min || version > PACKAGE_VERSIONS.max) {
      throw r.error(
        `package version ${version} (licensee ${licensee}) is not an Unreal Engine 1 package (versions ${PACKAGE_VERSIONS.min}–${PACKAGE_VERSIONS.max}: Unreal, UT99, Deus Ex, Rune); later engines are not supported`,
        'version',
        'UNSUPPORTED_VERSION',
        4,
      );
    }
    const flags = r.u32('flags');
    const table = (name: string) => {
      const at = r.offset;
      const count = r.i32(`${name}Count`);
      const offset = r.i32(`${name}Offset`);
      if (count < 0 || count > r.length)
        throw r.error(`${name} count ${count} is impossible`, `${name}Count`, 'BAD_COUNT', at);
      if (count > 0 && (offset < 0 || offset >= r.length))
        throw r.error(
          `${name} table offset ${offset} is outside the file (${r.length} bytes)`,
          `${name}Offset`,
          'BAD_OFFSET',
          at + 4,
        );
      return { count, offset };
    };
    const names = table('name');
    const exports = table('export');
    const imports = table('import');
    const generations: PackageGeneration[] = [];
    let guid: Uint8Array | undefined;
    if (version < 68) {
      r.i32('heritageCount');
      r.i32('heritageOffset');
      generations.push({ exportCount: exports.count, nameCount: names.count });
    } else {
      guid = r.bytesCopy(16, 'guid');
      const n = r.count(r.i32('generationCount'), 8, 'generationCount');
      for (let i = 0; i < n; i++)
        generations.push({
          exportCount: r.i32(`generations[${i}].exportCount`),
          nameCount: r.i32(`generations[${i}].nameCount`),
        });
    }
    return {
      version,
      licensee,
      flags,
      nameCount: names.count,
      nameOffset: names.offset,
      exportCount: exports.count,
      exportOffset: exports.offset,
      importCount: imports.count,
      importOffset: imports.offset,
      guid,
      generations,
      size: r.offset,
    };
  });
}
