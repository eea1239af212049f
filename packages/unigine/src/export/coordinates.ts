/**
 * Coordinate vertices (position + influences) of export: the imported pairing when it still
 * matches, else glTF vertices welded afresh.
 */
import type { Primitive } from '@gltf-transform/core';
import { CHUNK } from '../kernels.js';
import { UNUSED } from './common.js';

export function intArray(prim: Primitive, name: string, n: number): ArrayLike<number> | null {
  const a = prim.getAttribute(name);
  if (!a || a.getCount() !== n) return null;
  return a.getArray();
}

/** True when every glTF vertex mapped to one coordinate vertex has the same position and influences. */
export function coordsConsistent(
  coord: ArrayLike<number>,
  pos: Float32Array,
  infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null,
  n: number,
): boolean {
  // First vertex of each coordinate vertex: a typed table when the indices are in a sane range.
  let max = 0;
  for (let v = 0; v < n; v++) {
    const c = coord[v];
    if (!Number.isInteger(c) || c < 0) return false;
    if (c > max) max = c;
  }
  const table = max <= 4 * n + 16 ? new Int32Array(max + 1).fill(-1) : null;
  const first = table ? null : new Map<number, number>();
  const bits = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  for (let v = 0; v < n; v++) {
    const c = coord[v];
    const f = table ? table[c] : (first?.get(c) ?? -1);
    if (f < 0) {
      if (table) table[c] = v;
      else first?.set(c, v);
      continue;
    }
    for (let k = 0; k < 3; k++) if (bits[v * 3 + k] !== bits[f * 3 + k]) return false;
    if (infl) {
      if (infl.count[v] !== infl.count[f]) return false;
      for (let k = 0; k < infl.count[v]; k++) {
        if (
          infl.bones[v * 4 + k] !== infl.bones[f * 4 + k] ||
          infl.values[v * 4 + k] !== infl.values[f * 4 + k]
        )
          return false;
      }
    }
  }
  return true;
}

/**
 * Welds glTF vertices with bit-identical positions and identical influences (count, bones,
 * codes) into coordinate vertices, numbered in first-use order; vertices with
 * `triOf[v] === UNUSED` get UNUSED. Open-addressing hash table over typed arrays (no per-vertex
 * keys). Returns the number of coordinate vertices.
 */
export function weldCoordinates(
  pos: Float32Array,
  infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null,
  triOf: Uint32Array,
  coordOf: Uint32Array,
  n: number,
): number {
  const bits = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  const table = new Int32Array(cap).fill(-1); // representative vertex of each slot
  let numCoord = 0;
  for (let from = 0; from < n; from += CHUNK)
    numCoord = weldRange(bits, infl, triOf, coordOf, table, from, Math.min(n, from + CHUNK), numCoord);
  return numCoord;
}

/** {@link weldCoordinates} for vertices `from … to−1`; returns the coordinate count so far. */
function weldRange(
  bits: Uint32Array,
  infl: { count: Uint8Array; bones: Int16Array; values: Uint16Array } | null,
  triOf: Uint32Array,
  coordOf: Uint32Array,
  table: Int32Array,
  from: number,
  to: number,
  numCoord0: number,
): number {
  const hmask = table.length - 1;
  let numCoord = numCoord0;
  for (let v = from; v < to; v++) {
    if (triOf[v] === UNUSED) {
      coordOf[v] = UNUSED;
      continue;
    }
    let h = Math.imul(bits[v * 3] ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ bits[v * 3 + 1] ^ (h >>> 15), 0xc2b2ae35);
    h = Math.imul(h ^ bits[v * 3 + 2] ^ (h >>> 13), 0x27d4eb2f);
    if (infl) {
      const c = infl.count[v];
      h = Math.imul(h ^ c, 0x165667b1);
      for (let k = 0; k < c; k++)
        h = Math.imul(h ^ ((infl.bones[v * 4 + k] & 0xffff) | (infl.values[v * 4 + k] << 16)), 0x9e3779b1);
    }
    h ^= h >>> 16;
    let slot = h & hmask;
    for (;;) {
      const u = table[slot];
      if (u < 0) {
        table[slot] = v;
        coordOf[v] = numCoord++;
        break;
      }
      let same =
        bits[u * 3] === bits[v * 3] &&
        bits[u * 3 + 1] === bits[v * 3 + 1] &&
        bits[u * 3 + 2] === bits[v * 3 + 2];
      if (same && infl) {
        const c = infl.count[v];
        if (infl.count[u] !== c) same = false;
        for (let k = 0; k < c && same; k++)
          if (
            infl.bones[u * 4 + k] !== infl.bones[v * 4 + k] ||
            infl.values[u * 4 + k] !== infl.values[v * 4 + k]
          )
            same = false;
      }
      if (same) {
        coordOf[v] = coordOf[u];
        break;
      }
      slot = (slot + 1) & hmask;
    }
  }
  return numCoord;
}
