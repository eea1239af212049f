/**
 * Array framing of UE1 packages: `TArray` is a compact-index count then the items; `TLazyArray`
 * (version > 61) puts the absolute file offset after the array first, so a loader can skip it.
 */
import type { ByteReader } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';

/**
 * Reads an array count and checks `count × itemSize` against the bytes left (and `end`) before
 * anything is allocated.
 *
 * ```ts
 * const n = readArrayCount(r, 8, 'faces', end);
 * ```
 */
export function readArrayCount(r: ByteReader, itemSize: number, field: string, end = r.length): number {
  const at = r.offset;
  const n = readCompactIndex(r, `${field}.count`);
  if (n < 0) throw r.error(`negative count ${n}`, `${field}.count`, 'BAD_COUNT', at);
  if (n * itemSize > end - r.offset)
    throw r.error(
      `count ${n} × ${itemSize} bytes exceeds the ${Math.max(0, end - r.offset)} byte(s) left`,
      `${field}.count`,
      'COUNT_TOO_LARGE',
      at,
    );
  return n;
}

/** A lazy array's header: its skip offset (version > 61, else -1) and count. */
export interface LazyArrayHeader {
  skip: number;
  count: number;
  /** Offset of the first item. */
  start: number;
}

/**
 * Reads a `TLazyArray` header; the skip offset must lie inside `[cursor, end]`.
 *
 * ```ts
 * const { count, skip, start } = readLazyArrayHeader(r, version, 4, 'verts', end);
 * ```
 */
export function readLazyArrayHeader(
  r: ByteReader,
  version: number,
  itemSize: number,
  field: string,
  end: number,
): LazyArrayHeader {
  let skip = -1;
  if (version > 61) {
    const at = r.offset;
    skip = r.i32(`${field}.skip`);
    if (skip < r.offset || skip > end)
      throw r.error(`lazy array end ${skip} is outside its object`, `${field}.skip`, 'BAD_OFFSET', at);
  }
  const count = readArrayCount(r, itemSize, field, end);
  return { skip, count, start: r.offset };
}

/** Skips a lazy array of fixed-size items (checks the skip offset when there is one). */
export function skipLazyArray(
  r: ByteReader,
  version: number,
  itemSize: number,
  field: string,
  end: number,
): number {
  const h = readLazyArrayHeader(r, version, itemSize, field, end);
  r.skip(h.count * itemSize, field);
  if (h.skip >= 0 && h.skip !== r.offset)
    throw r.error(
      `lazy array ends at ${r.offset}, its header says ${h.skip}`,
      `${field}.skip`,
      'BAD_OFFSET',
      h.start,
    );
  return h.count;
}
