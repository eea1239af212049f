/** The unpacked bytes of a FAR3 entry: stored bytes as they are, RefPack entries decompressed. */
import { storedOffset } from './far-common.js';
import { type UnpackLimits, unpackLimits } from '@gltf-legacy/core';
import {
  type Far3Entry,
  type Far3File,
  far3Error,
  far3Stream,
  FAR3_PERSIST_HEADER,
  isFar3Compressed,
} from './far3.js';
import { REFPACK_MAX_RATIO, refpackDecompress, refpackHeader } from './refpack.js';

/**
 * The unpacked bytes of one entry. Bounded before anything is allocated: the manifest's size
 * against `limits.maxEntryBytes` (`UNPACKED_TOO_LARGE`) and against what the stream's bytes can
 * describe (`COUNT_TOO_LARGE`); the stream's own size must equal the manifest's (`BAD_SIZE`);
 * damaged streams are `BAD_REFPACK`/`TRUNCATED` (file, offset, field). A compressed entry whose
 * data holds no RefPack signature is read as stored, as FreeSO does.
 *
 * ```ts
 * const far = readFar3(bytes, 'cpanel.dat');
 * const bmp = readFar3Entry(far, far.entries[0], 'cpanel.dat'); // 'BM…', 1480 bytes
 * ```
 */
export function readFar3Entry(
  far: Far3File,
  entry: Far3Entry,
  file?: string,
  limits: Readonly<UnpackLimits> = unpackLimits(),
): Uint8Array {
  const index = far.entries.indexOf(entry);
  if (entry.size > limits.maxEntryBytes)
    throw far3Error(
      entry,
      index,
      file,
      `unpacks to ${entry.size} bytes, more than the limit of ${limits.maxEntryBytes} per entry (raise it with --max-unpacked)`,
      'UNPACKED_TOO_LARGE',
    );
  const stream = isFar3Compressed(entry) ? far3Stream(entry) : undefined;
  if (!stream) {
    if (entry.size > entry.stored.length)
      throw far3Error(
        entry,
        index,
        file,
        `needs ${entry.size} bytes but ${entry.stored.length} are stored`,
        'TRUNCATED',
      );
    return entry.stored.subarray(0, entry.size);
  }
  const ctx = {
    file,
    offset: storedOffset(entry) + FAR3_PERSIST_HEADER + 4,
    field: `entries[${index}].data`,
  };
  const header = refpackHeader(stream, ctx);
  if (header.size !== entry.size)
    throw far3Error(
      entry,
      index,
      file,
      `RefPack stream holds ${header.size} bytes, the manifest says ${entry.size}`,
      'BAD_SIZE',
    );
  if (entry.size > stream.length * REFPACK_MAX_RATIO)
    throw far3Error(
      entry,
      index,
      file,
      `claims ${entry.size} bytes, more than its ${stream.length} stored bytes can describe`,
      'COUNT_TOO_LARGE',
    );
  return refpackDecompress(stream, header.start, entry.size, ctx);
}
