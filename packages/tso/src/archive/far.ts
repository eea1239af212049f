/**
 * FAR archives of either version as one model: reading by version, listing as core's container
 * entries, reading one entry, and the FileSet a conversion unpacks.
 */
import {
  type ContainerEntriesOptions,
  type ContainerEntry,
  entryLimits,
  type FileSet,
  FormatError,
  type UnpackLimits,
  unpackLimits,
} from '@gltf-legacy/core';
import { contentFileName, TSO_TYPE_IDS } from '../outfit.js';
import { type Far1File, readFar1, type ReadFar1Options } from './far1.js';
import { farVersion, hasFarMagic, storedOffset } from './far-common.js';
import { type Far3Entry, type Far3File, isFar3Compressed, readFar3 } from './far3.js';
import { readFar3Entry } from './far3-entry.js';

export type FarFile = Far1File | Far3File;

/** True when `bytes` start like a FAR archive this package reads (`FAR!byAZ`, version 1 or 3). */
export function isFar(bytes: Uint8Array): boolean {
  const v = farVersion(bytes);
  return v === 1 || v === 3;
}

/**
 * Reads a FAR archive of version 1 (`1a`/`1b`) or 3. Nothing is decompressed.
 *
 * ```ts
 * const far = readFar(bytes, 'avatardata.dat');
 * far.version; // 1 | 3
 * ```
 */
export function readFar(bytes: Uint8Array, file?: string, options: ReadFar1Options = {}): FarFile {
  const v = farVersion(bytes);
  if (v === 3) return readFar3(bytes, file);
  if (v === 1) return readFar1(bytes, file, options);
  // the signature without a whole header: the version or manifest offset is cut short
  if (v === undefined && hasFarMagic(bytes)) return readFar3(bytes, file);
  if (v === undefined)
    throw new FormatError('not a FAR archive (no FAR!byAZ signature)', {
      code: 'BAD_MAGIC',
      file,
      offset: 0,
      field: 'magic',
    });
  throw new FormatError(`FAR version ${v}; versions 1 and 3 are read`, {
    code: 'UNSUPPORTED_VERSION',
    file,
    offset: 8,
    field: 'version',
  });
}

/** File extension of a TSO type id (those the avatar content uses). */
const TYPE_EXTENSIONS: Record<number, string> = {
  [TSO_TYPE_IDS.animation]: 'anim',
  [TSO_TYPE_IDS.mesh]: 'mesh',
  [TSO_TYPE_IDS.binding]: 'bnd',
  [TSO_TYPE_IDS.appearance]: 'apr',
  [TSO_TYPE_IDS.texture]: 'png',
};

/** The extension of an entry: its name's, else its type id's, else `bin`. */
export function farEntryExtension(name: string, typeId?: number): string {
  const dot = name.lastIndexOf('.');
  if (dot > 0 && dot < name.length - 1) return name.slice(dot + 1).toLowerCase();
  return (typeId !== undefined && TYPE_EXTENSIONS[typeId]) || 'bin';
}

/**
 * The path of a FAR3 entry: its name, or when it has none the content name FreeSO's tree uses
 * (`<file id><type id>.ext`).
 */
export function far3EntryPath(e: Far3Entry): string {
  return e.name || contentFileName('', e.fileId, e.typeId, farEntryExtension('', e.typeId)).slice(1);
}

/**
 * The unpacked bytes of entry `index` (FAR1: a view; FAR3: RefPack decompressed), bounded by
 * `limits` (`UNPACKED_TOO_LARGE`).
 *
 * ```ts
 * const bytes = readFarEntry(far, 0, 'cpanel.dat');
 * ```
 */
export function readFarEntry(
  far: FarFile,
  index: number,
  file?: string,
  limits: Readonly<UnpackLimits> = unpackLimits(),
): Uint8Array {
  if (far.version === 3) return readFar3Entry(far, far.entries[index], file, limits);
  return far.entries[index].data;
}

/**
 * A FAR archive's entries as core's container entries: path (the stored name), sizes,
 * compression (`refpack`/`none`), kind (the extension) and, for FAR3, `ids` `{ typeId, fileId }`.
 *
 * ```ts
 * for (const e of farEntries(readFar(bytes, 'x.dat'), 'x.dat')) console.log(e.path, e.ids, e.read().length);
 * ```
 */
export function farEntries(far: FarFile, file?: string, options?: ContainerEntriesOptions): ContainerEntry[] {
  const limits = entryLimits(options);
  if (far.version === 1)
    return far.entries.map((e) => ({
      path: e.name,
      size: e.size,
      packedSize: e.data.length,
      offset: storedOffset(e),
      compression: 'none',
      kind: farEntryExtension(e.name),
      read: () => e.data,
    }));
  return far.entries.map((e, i) => ({
    path: far3EntryPath(e),
    size: e.size,
    packedSize: e.packedSize,
    offset: storedOffset(e),
    compression: isFar3Compressed(e) ? 'refpack' : 'none',
    kind: farEntryExtension(e.name, e.typeId),
    ids: { typeId: e.typeId, fileId: e.fileId },
    read: () => readFarEntry(far, i, file, limits),
  }));
}

/**
 * Every entry of a FAR archive as a FileSet for a conversion: FAR3 entries named as in FreeSO's
 * content tree, `NAME.<file id><type id>.ext` (so an outfit's links by id resolve inside it);
 * FAR1 entries by their names. Sizes are checked against `limits` before anything is
 * decompressed; the first of two entries with one name is kept.
 *
 * ```ts
 * const files = unpackFar(bytes, 'avatar.dat'); // Map('woodaxe.5d34f33e0000000c.apr' → bytes, …)
 * ```
 */
export function unpackFar(
  bytes: Uint8Array,
  file?: string,
  limits: Readonly<UnpackLimits> = unpackLimits(),
): FileSet {
  const far = readFar(bytes, file);
  let total = 0;
  for (const e of far.entries) total += e.size;
  if (total > limits.maxTotalBytes)
    throw new FormatError(
      `the archive unpacks to ${total} bytes, more than the limit of ${limits.maxTotalBytes} per package (raise it with --max-unpacked)`,
      { code: 'UNPACKED_TOO_LARGE', file, field: 'entries[*].size' },
    );
  const out: FileSet = new Map();
  far.entries.forEach((e, i) => {
    const name = far.version === 3 ? far3ContentName(far.entries[i]) : e.name;
    if (!out.has(name)) out.set(name, readFarEntry(far, i, file, limits));
  });
  return out;
}

/** A FAR3 entry's name in FreeSO's content-tree form: `NAME.<file id><type id>.ext`. */
export function far3ContentName(e: Far3Entry): string {
  const ext = farEntryExtension(e.name, e.typeId);
  const base = e.name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return contentFileName(stem.replace(/\.[0-9a-f]{16}$/i, ''), e.fileId, e.typeId, ext);
}
