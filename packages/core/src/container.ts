/**
 * Containers (packages, archives) as a list of entries. `LegacyFormat.unpack` gives a `FileSet`,
 * which cannot hold two entries with one path and decompresses everything at once;
 * `LegacyFormat.entries` lists what the container holds (as stored: paths are untrusted) with
 * sizes, compression and ids, and decompresses one entry only when its `read()` is called.
 */
import type { UnpackLimits } from './resources.js';
import { unpackLimits } from './resources.js';

/** One entry of a container, as its table describes it. */
export interface ContainerEntry {
  /**
   * The entry's path inside the container as stored (`Models/Box.mdl`, `avatar/heads.apr`), or a
   * name made up from its ids when the container stores none. Untrusted: may be absolute, climb
   * out with `..` or hold a NUL; resolve it with `resolveReference(path, '')` before using it.
   */
  path: string;
  /** Unpacked size in bytes, as the table states it. */
  size: number;
  /** Stored (packed) size in bytes. */
  packedSize: number;
  /** Offset of the stored bytes from the start of the container. */
  offset: number;
  /** How the stored bytes are compressed: `none`, `lz4`, `refpack`, `zlib`, … */
  compression: string;
  /** What the entry holds, when the container says or the reader sniffs it (`bmp`, `mesh`, …). */
  kind?: string;
  /** Numeric ids the container finds the entry by (FAR3 `typeId`/`fileId`, a path hash, …). */
  ids?: Readonly<Record<string, number>>;
  /**
   * The entry's unpacked bytes. Throws a `FormatError` on damaged data and `UNPACKED_TOO_LARGE`
   * above the limits the entries were listed with.
   */
  read(): Uint8Array;
}

/** Options of `LegacyFormat.entries`. */
export interface ContainerEntriesOptions {
  /** Bounds on what `read()` may unpack (default: core's {@link unpackLimits} at listing time). */
  limits?: Readonly<UnpackLimits>;
}

/** The limits of `options` or the ones in force. */
export function entryLimits(options?: ContainerEntriesOptions): Readonly<UnpackLimits> {
  return options?.limits ?? unpackLimits();
}

/**
 * Distinct paths for entries that may share one (case-insensitively, as on the games' Windows
 * file systems): the first keeps its path, the next ones become `name~2.ext`, `name~3.ext`, …
 * Returns the new path per index, in order.
 *
 * ```ts
 * distinctPaths(['a/x.bmp', 'A/X.bmp', 'b.tga']); // ['a/x.bmp', 'A/X~2.bmp', 'b.tga']
 * ```
 */
export function distinctPaths(paths: readonly string[]): string[] {
  const taken = new Set(paths.map((p) => p.toLowerCase()));
  const seen = new Set<string>();
  return paths.map((p) => {
    const key = p.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      return p;
    }
    const slash = p.lastIndexOf('/');
    const dot = p.lastIndexOf('.');
    const cut = dot > slash + 1 ? dot : p.length;
    for (let n = 2; ; n++) {
      const q = `${p.slice(0, cut)}~${n}${p.slice(cut)}`;
      const k = q.toLowerCase();
      if (!taken.has(k) && !seen.has(k)) {
        seen.add(k);
        return q;
      }
    }
  });
}
