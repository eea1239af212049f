/**
 * A `.dat` archive as a list of container entries (the shape of core's `ContainerEntry`, used by
 * `gltf-legacy extract`): each entry under its recovered path, else `unnamed/<hash>.<kind>`.
 * Paths come from the archive's own texts, so listing unpacks the entries (within the unpack
 * limits) to recover them; `read()` then hands out the bytes, or throws `ENCRYPTED_ENTRY`.
 */
import { FormatError, type UnpackLimits } from '@gltf-legacy/core';
import { type GrimrockArchive, readGrimrockArchive, unnamedPath } from './archive.js';
import { hex8 } from './entry.js';

/** One entry as `gltf-legacy extract` lists it (structurally core's `ContainerEntry`). */
export interface GrimrockContainerEntry {
  path: string;
  size: number;
  packedSize: number;
  offset: number;
  compression: 'none' | 'zlib' | 'encrypted';
  kind?: string;
  ids: Readonly<Record<string, number>>;
  read(): Uint8Array;
}

/**
 * The entries of an archive already read.
 *
 * ```ts
 * const list = archiveEntries(readGrimrockArchive(bytes, 'Fetch Quest.dat'));
 * list[14].path; // 'mod_assets/grim_bed/textures/env/grim_bed_dif1.dds'
 * ```
 */
export function archiveEntries(a: GrimrockArchive): GrimrockContainerEntry[] {
  return a.entries.map((e) => ({
    path: e.path ?? unnamedPath(e),
    size: e.size,
    packedSize: e.compressedSize || e.size,
    offset: e.offset,
    compression: e.storage === 'stored' ? 'none' : e.storage,
    kind: e.kind,
    ids: { hash: e.hash, index: e.index },
    read(): Uint8Array {
      if (e.data) return e.data;
      throw new FormatError(
        `entry ${e.index} (hash 0x${hex8(e.hash)}) is encrypted (flags ${e.flags}), as in the base game's archives; gltf-legacy ships no keys`,
        { code: 'ENCRYPTED_ENTRY', file: a.file, offset: e.row + 16, field: `entries[${e.index}].flags` },
      );
    },
  }));
}

/**
 * The entries of a `.dat` (see {@link archiveEntries}), or undefined when `bytes` are not an
 * archive (a `.model` or `.animation` of this format).
 */
export function grimrockArchiveEntries(
  bytes: Uint8Array,
  name: string,
  options: { limits?: Readonly<UnpackLimits> } = {},
): GrimrockContainerEntry[] | undefined {
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (bytes.length < 8 || (magic !== 'GRA2' && magic !== 'GRAR')) return undefined;
  return archiveEntries(readGrimrockArchive(bytes, name, { limits: options.limits }));
}
