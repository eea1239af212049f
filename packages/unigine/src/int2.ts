/**
 * UNIGINE's compact integers and NUL-terminated strings (`readInt2`/`writeInt2`, counts, strings).
 */
import { type ByteReader, type ByteWriter, decodeText, encodeText } from '@gltf-legacy/core';

/**
 * UNIGINE's compact signed integer (`Stream::readInt2` / `writeInt2`).
 *
 * Byte 0: bit 7 = more bytes follow, bit 6 = sign, bits 0-5 = value bits 0-5.
 * Byte n ≥ 1: bit 7 = more bytes follow, bits 0-6 = the next 7 value bits.
 * The value is the magnitude, negated when the sign bit is set. Writers emit the fewest bytes.
 */

/** Largest magnitude we accept (fits the 5-byte form and a JS int32 count). */
export const INT2_MAX = 0x7fffffff;

/**
 * Number of bytes {@link encodeInt2} uses for `v`.
 *
 * ```ts
 * int2Size(63); // 1
 * int2Size(64); // 2
 * ```
 */
export function int2Size(v: number): number {
  let m = Math.abs(v) >>> 6;
  let n = 1;
  while (m > 0) {
    m >>>= 7;
    n++;
  }
  return n;
}

/**
 * Encodes an integer in the compact form.
 *
 * ```ts
 * encodeInt2(146); // Uint8Array [0x92, 0x02]
 * encodeInt2(-5);  // Uint8Array [0x45]
 * ```
 */
export function encodeInt2(v: number): Uint8Array {
  if (!Number.isInteger(v) || Math.abs(v) > INT2_MAX) throw new RangeError(`int2 value out of range: ${v}`);
  const out = new Uint8Array(int2Size(v));
  let m = Math.abs(v);
  let b = (m & 0x3f) | (v < 0 ? 0x40 : 0);
  m = Math.floor(m / 64);
  let i = 0;
  while (m > 0) {
    out[i++] = b | 0x80;
    b = m & 0x7f;
    m = Math.floor(m / 128);
  }
  out[i] = b;
  return out;
}

/**
 * Decodes a compact integer at `offset`. Returns the value and the bytes used, or null when the
 * bytes end first or the value exceeds {@link INT2_MAX}.
 *
 * ```ts
 * decodeInt2(new Uint8Array([0x91, 0x9d, 0x01]), 0); // { value: 10065, length: 3 }
 * ```
 */
export function decodeInt2(bytes: Uint8Array, offset: number): { value: number; length: number } | null {
  if (offset >= bytes.length) return null;
  let b = bytes[offset];
  const negative = (b & 0x40) !== 0;
  let m = b & 0x3f;
  let shift = 6;
  let i = offset + 1;
  while (b & 0x80) {
    if (i >= bytes.length || shift > 27) return null;
    b = bytes[i++];
    m += (b & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (m > INT2_MAX) return null;
  return { value: negative ? -m : m, length: i - offset };
}

/** Reads a compact integer through a bounds-checked reader (FormatError `BAD_INT2` when invalid). */
export function readInt2(r: ByteReader, field?: string): number {
  const at = r.offset;
  const d = decodeInt2(r.bytes, at);
  if (!d) {
    if (at >= r.length) r.need(1, field);
    const end = r.bytes.subarray(at, at + 5);
    const truncated = end.length < 5 && end.every((x) => (x & 0x80) !== 0);
    throw r.error(
      truncated
        ? 'compact integer runs past the end of the file'
        : 'compact integer is too long or too large',
      field,
      truncated ? 'TRUNCATED' : 'BAD_INT2',
      at,
    );
  }
  r.offset = at + d.length;
  return d.value;
}

/** Reads a compact integer that must be a count (≥ 0), checked against the bytes left. */
export function readCount(r: ByteReader, bytesPerItem: number, field: string): number {
  const at = r.offset;
  const n = readInt2(r, field);
  if (n < 0) throw r.error(`negative count ${n}`, field, 'BAD_COUNT', at);
  return r.count(n, bytesPerItem, field);
}

/** Writes a compact integer. */
export function writeInt2(w: ByteWriter, v: number): void {
  w.bytes(encodeInt2(v));
}

/** Thrown internally when a string is not valid UTF-8, to re-read the file as latin1. */
export class NotUtf8 extends Error {}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a string: compact length including the terminating NUL, then the bytes and the NUL.
 * With `encoding = 'utf8'`, invalid UTF-8 throws {@link NotUtf8} (the caller re-reads as latin1).
 */
export function readString(r: ByteReader, field: string, encoding: 'utf8' | 'latin1'): string {
  const at = r.offset;
  const n = readCount(r, 1, field);
  if (n < 1) throw r.error('string length is 0 (it must count the terminating NUL)', field, 'BAD_STRING', at);
  const b = r.bytesView(n, field);
  if (b[n - 1] !== 0) throw r.error('string does not end with NUL', field, 'BAD_STRING', at);
  const body = b.subarray(0, n - 1);
  if (encoding === 'latin1') return decodeText(body, 'latin1');
  try {
    return strictUtf8.decode(body);
  } catch {
    throw new NotUtf8();
  }
}

/** Writes a string as compact length (with NUL) + bytes + NUL. */
export function writeString(w: ByteWriter, s: string, encoding: 'utf8' | 'latin1'): void {
  const b = encodeText(s, encoding);
  writeInt2(w, b.length + 1);
  w.bytes(b);
  w.u8(0);
}
