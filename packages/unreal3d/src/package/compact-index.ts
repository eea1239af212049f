/**
 * The UE1 compact index (`FCompactIndex`): a signed integer in 1–5 bytes. Byte 0 holds the sign
 * (0x80), a continuation bit (0x40) and 6 value bits; each further byte a continuation bit (0x80)
 * and 7 value bits, least significant first. 6 + 4·7 = 34 bits cover every int32, so a sixth byte
 * is malformed.
 */
import type { ByteReader } from '@gltf-legacy/core';

/** Longest compact index: 5 bytes. */
export const COMPACT_INDEX_MAX_BYTES = 5;

/**
 * Reads one compact index; more than 5 bytes or a value past ±2³¹ is `BAD_COMPACT_INDEX`.
 *
 * ```ts
 * const count = readCompactIndex(r, 'names.count');
 * ```
 */
export function readCompactIndex(r: ByteReader, field?: string): number {
  const at = r.offset;
  const bytes = r.bytes;
  // fast path: 5 bytes available, decoded without a bounds check per byte
  if (at + COMPACT_INDEX_MAX_BYTES <= bytes.length) {
    let b = bytes[at];
    let value = b & 0x3f;
    let n = 1;
    if (b & 0x40) {
      b = bytes[at + 1];
      value |= (b & 0x7f) << 6;
      n = 2;
      if (b & 0x80) {
        b = bytes[at + 2];
        value |= (b & 0x7f) << 13;
        n = 3;
        if (b & 0x80) {
          b = bytes[at + 3];
          value |= (b & 0x7f) << 20;
          n = 4;
          if (b & 0x80) {
            b = bytes[at + 4];
            value += (b & 0x7f) * 0x8000000;
            n = 5;
            if (b & 0x80) throw r.error('compact index runs past 5 bytes', field, 'BAD_COMPACT_INDEX', at);
          }
        }
      }
    }
    if (value > 0x7fffffff)
      throw r.error(`compact index ${value} is past 2^31`, field, 'BAD_COMPACT_INDEX', at);
    r.offset = at + n;
    return bytes[at] & 0x80 && value ? -value : value;
  }
  let b = r.u8(field);
  const negative = (b & 0x80) !== 0;
  let value = b & 0x3f;
  if (b & 0x40) {
    let shift = 6;
    let n = 1;
    do {
      if (n === COMPACT_INDEX_MAX_BYTES)
        throw r.error('compact index runs past 5 bytes', field, 'BAD_COMPACT_INDEX', at);
      b = r.u8(field);
      n++;
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
  }
  if (value > 0x7fffffff)
    throw r.error(`compact index ${value} is past 2^31`, field, 'BAD_COMPACT_INDEX', at);
  return negative && value ? -value : value;
}

/**
 * Encodes a compact index (the shortest form, as the engine writes it).
 *
 * ```ts
 * encodeCompactIndex(-65); // Uint8Array [0xc1, 0x01]
 * ```
 */
export function encodeCompactIndex(value: number): Uint8Array {
  if (!Number.isInteger(value) || Math.abs(value) > 0x7fffffff)
    throw new RangeError(`not a compact index: ${value}`);
  const out: number[] = [];
  let v = Math.abs(value);
  let b = (value < 0 ? 0x80 : 0) | (v & 0x3f);
  v = Math.floor(v / 64);
  if (v) b |= 0x40;
  out.push(b);
  while (v) {
    b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v) b |= 0x80;
    out.push(b);
  }
  return Uint8Array.from(out);
}
