/**
 * A TSO game folder as a resource tree: every file found by its (file id, type id) across every
 * FAR3 archive and every loose content file (`NAME.<file id><type id>.ext`) under the resource
 * root, the way the game's content system finds them — by id, wherever the archive is.
 */
import {
  extName,
  FormatError,
  type ResourceReader,
  type UnpackLimits,
  unpackLimits,
  type WarningCollector,
} from '@gltf-legacy/core';
import { contentIdTag, parseContentName } from '../outfit.js';
import { far3ContentName, isFar, readFar } from './far.js';
import { readFar3Entry } from './far3-entry.js';

/** Names of files that may be FAR archives (TSO's are `.dat`, The Sims' `.far`). */
export const FAR_ARCHIVE_EXTENSIONS: readonly string[] = ['.dat', '.far'];

/** Where a file with given ids lives: a loose file or an entry of an archive. */
export interface IdSource {
  /** Root-relative path: the loose file's, or `ARCHIVE/NAME.<ids>.ext` for an archive entry. */
  path: string;
  /** The archive (root-relative) when the file is an entry of one. */
  archive?: string;
  /** The file's bytes (an archive entry is decompressed on this call). */
  read(): Promise<Uint8Array | undefined>;
}

/** Every file under a root by its `.<file id><type id>.` tag (see `contentIdTag`). */
export type TsoIdIndex = Map<string, IdSource>;

/** Options of {@link buildIdIndex}. */
export interface IdIndexOptions {
  /** Bounds on each decompressed entry (default: core's `unpackLimits()`). */
  limits?: Readonly<UnpackLimits>;
  /** Receives `ARCHIVE_IGNORED` for an archive that does not read. */
  warnings?: WarningCollector;
}

/**
 * Indexes every loose content file and every FAR3 entry below the root of `resources` by its
 * ids. Loose files come first, then archives in path order; the first file with an id wins.
 * Archives are read once here (their manifests); entries are decompressed when read.
 *
 * ```ts
 * const index = await buildIdIndex(resources);
 * const mesh = await index.get(contentIdTag(0xf5c2c184, 9))?.read();
 * ```
 */
export async function buildIdIndex(
  resources: ResourceReader,
  options: IdIndexOptions = {},
): Promise<TsoIdIndex> {
  const limits = options.limits ?? unpackLimits();
  const index: TsoIdIndex = new Map();
  let paths: string[];
  try {
    paths = await resources.list('', { recursive: true });
  } catch {
    return index; // a root that cannot be listed holds nothing to find
  }
  const archives: string[] = [];
  for (const path of paths) {
    if (FAR_ARCHIVE_EXTENSIONS.includes(extName(path))) archives.push(path);
    const id = parseContentName(path);
    if (!id) continue;
    const tag = contentIdTag(id.fileId, id.typeId);
    if (!index.has(tag)) index.set(tag, { path, read: () => resources.read(path) });
  }
  for (const archive of archives) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await resources.read(archive);
    } catch (e) {
      options.warnings?.warn(
        'ARCHIVE_IGNORED',
        `"${archive}" could not be read (${(e as Error).message}); ignored`,
      );
      continue;
    }
    if (!bytes || !isFar(bytes)) continue;
    let far: ReturnType<typeof readFar>;
    try {
      far = readFar(bytes, archive);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      options.warnings?.warn(
        'ARCHIVE_IGNORED',
        `"${archive}" is not a readable FAR archive (${e.message}); ignored`,
      );
      continue;
    }
    if (far.version !== 3) continue; // FAR1 entries have names only, no ids
    const f3 = far;
    for (const e of f3.entries) {
      const tag = contentIdTag(e.fileId, e.typeId);
      if (index.has(tag)) continue;
      index.set(tag, {
        path: `${archive}/${far3ContentName(e)}`,
        archive,
        read: async () => readFar3Entry(f3, e, archive, limits),
      });
    }
  }
  return index;
}
