import { FormatError } from './errors.js';

/** Options of {@link ByteReader}. */
export interface ByteReaderOptions {
  /** File name used in error messages. */
  file?: string;
  /** Default byte order of multi-byte reads (default: little-endian). */
  littleEndian?: boolean;
  /** Text encoding of strings (default `utf8`, falling back to latin1 for invalid UTF-8). */
  encoding?: 'utf8' | 'latin1';
}

type TypedArrayCtor<T> = {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Decodes bytes as UTF-8, or latin1 if they are not valid UTF-8. */
export function decodeText(bytes: Uint8Array, encoding: 'utf8' | 'latin1' = 'utf8'): string {
  if (encoding === 'latin1') return latin1.decode(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/**
 * A bounds-checked cursor over bytes. Every read checks the bytes left first and throws a
 * {@link FormatError} naming the file, offset and field path; counts are checked against the
 * remaining bytes with {@link ByteReader.count} before anything is allocated.
 *
 * ```ts
 * const r = new ByteReader(bytes, { file: 'Jack.mdl' });
 * r.expectMagic('UMDL', 'magic');
 * const n = r.count(r.u32('vertexBufferCount'), 12, 'vertexBuffers');
 * const positions = r.f32Array(n * 3, 'positions'); // zero-copy view when aligned
 * ```
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly file?: string;
  littleEndian: boolean;
  encoding: 'utf8' | 'latin1';
  offset = 0;
  private readonly path: string[] = [];

  constructor(bytes: Uint8Array, options: ByteReaderOptions = {}) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.file = options.file;
    this.littleEndian = options.littleEndian ?? true;
    this.encoding = options.encoding ?? 'utf8';
  }

  /** Total length in bytes. */
  get length(): number {
    return this.bytes.byteLength;
  }

  /** Bytes left after the cursor. */
  get remaining(): number {
    return this.bytes.byteLength - this.offset;
  }

  /** True when the cursor is at the end. */
  get eof(): boolean {
    return this.offset >= this.bytes.byteLength;
  }

  /** The field path for a field name, including the enclosing {@link scope}s. */
  fieldPath(field?: string): string | undefined {
    if (!this.path.length) return field;
    const base = this.path.join('.');
    if (!field) return base;
    return field.startsWith('[') ? base + field : `${base}.${field}`;
  }

  /**
   * Runs `fn` with `name` added to the field path of errors, e.g.
   * `r.scope('geometries[2]', () => r.u32('indexCount'))` reports `geometries[2].indexCount`.
   */
  scope<T>(name: string, fn: () => T): T {
    this.path.push(name);
    try {
      return fn();
    } finally {
      this.path.pop();
    }
  }

  /** A {@link FormatError} at `offset` (default: the cursor) for `field`. */
  error(message: string, field?: string, code = 'FORMAT_ERROR', offset = this.offset): FormatError {
    return new FormatError(message, { code, file: this.file, offset, field: this.fieldPath(field) });
  }

  /** Throws `TRUNCATED` unless `n` more bytes can be read. */
  need(n: number, field?: string): void {
    if (n < 0 || !Number.isFinite(n) || this.offset + n > this.bytes.byteLength) {
      throw this.error(
        `needs ${n} byte(s) but only ${Math.max(0, this.remaining)} remain (file truncated or a count is wrong)`,
        field,
        'TRUNCATED',
      );
    }
  }

  /**
   * Validates a count read from the file: `n` items of `bytesPerItem` bytes must fit in the
   * remaining bytes. Returns `n`. Call it before allocating anything sized by `n`.
   */
  count(n: number, bytesPerItem: number, field?: string): number {
    if (!Number.isInteger(n) || n < 0) {
      throw this.error(`invalid count ${n}`, field, 'BAD_COUNT');
    }
    if (n * bytesPerItem > this.remaining) {
      throw this.error(
        `count ${n} × ${bytesPerItem} bytes exceeds the ${this.remaining} byte(s) left`,
        field,
        'COUNT_TOO_LARGE',
      );
    }
    return n;
  }

  /** Moves the cursor to an absolute offset (bounds-checked). */
  seek(offset: number, field?: string): void {
    if (offset < 0 || offset > this.bytes.byteLength || !Number.isInteger(offset)) {
      throw this.error(
        `seek to ${offset} is outside the file (${this.bytes.byteLength} bytes)`,
        field,
        'BAD_OFFSET',
      );
    }
    this.offset = offset;
  }

  /** Skips `n` bytes. */
  skip(n: number, field?: string): void {
    this.need(n, field);
    this.offset += n;
  }

  u8(field?: string): number {
    this.need(1, field);
    return this.bytes[this.offset++];
  }
  i8(field?: string): number {
    this.need(1, field);
    return this.view.getInt8(this.offset++);
  }
  u16(field?: string, littleEndian = this.littleEndian): number {
    this.need(2, field);
    const v = this.view.getUint16(this.offset, littleEndian);
    this.offset += 2;
    return v;
  }
  i16(field?: string, littleEndian = this.littleEndian): number {
    this.need(2, field);
    const v = this.view.getInt16(this.offset, littleEndian);
    this.offset += 2;
    return v;
  }
  u32(field?: string, littleEndian = this.littleEndian): number {
    this.need(4, field);
    const v = this.view.getUint32(this.offset, littleEndian);
    this.offset += 4;
    return v;
  }
  i32(field?: string, littleEndian = this.littleEndian): number {
    this.need(4, field);
    const v = this.view.getInt32(this.offset, littleEndian);
    this.offset += 4;
    return v;
  }
  f32(field?: string, littleEndian = this.littleEndian): number {
    this.need(4, field);
    const v = this.view.getFloat32(this.offset, littleEndian);
    this.offset += 4;
    return v;
  }
  f64(field?: string, littleEndian = this.littleEndian): number {
    this.need(8, field);
    const v = this.view.getFloat64(this.offset, littleEndian);
    this.offset += 8;
    return v;
  }
  u16be(field?: string): number {
    return this.u16(field, false);
  }
  i16be(field?: string): number {
    return this.i16(field, false);
  }
  u32be(field?: string): number {
    return this.u32(field, false);
  }
  i32be(field?: string): number {
    return this.i32(field, false);
  }
  f32be(field?: string): number {
    return this.f32(field, false);
  }
  u16le(field?: string): number {
    return this.u16(field, true);
  }
  i16le(field?: string): number {
    return this.i16(field, true);
  }
  u32le(field?: string): number {
    return this.u32(field, true);
  }
  i32le(field?: string): number {
    return this.i32(field, true);
  }
  f32le(field?: string): number {
    return this.f32(field, true);
  }

  /** Reads a finite f32 (rejects NaN and ±Infinity with `BAD_FLOAT`). */
  f32Finite(field?: string, littleEndian = this.littleEndian): number {
    const at = this.offset;
    const v = this.f32(field, littleEndian);
    if (!Number.isFinite(v)) throw this.error(`value is ${v}, not a finite number`, field, 'BAD_FLOAT', at);
    return v;
  }

  /** `n` raw bytes as a view (no copy). */
  bytesView(n: number, field?: string): Uint8Array {
    this.count(n, 1, field);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** `n` raw bytes as an independent copy. */
  bytesCopy(n: number, field?: string): Uint8Array {
    return this.bytesView(n, field).slice();
  }

  private typed<T extends ArrayBufferView>(
    ctor: TypedArrayCtor<T>,
    n: number,
    field: string | undefined,
    littleEndian: boolean,
    copy: boolean,
  ): T {
    const size = ctor.BYTES_PER_ELEMENT;
    this.count(n, size, field);
    const start = this.bytes.byteOffset + this.offset;
    let out: T;
    if (size === 1 || littleEndian === LITTLE_ENDIAN_HOST) {
      if (!copy && start % size === 0) {
        out = new ctor(this.bytes.buffer, start, n);
      } else {
        out = new ctor(n);
        new Uint8Array(out.buffer).set(this.bytes.subarray(this.offset, this.offset + n * size));
      }
    } else {
      // Byte-swapped read: one DataView getter per value (much faster than a byte loop).
      out = new ctor(n);
      swapInto(out as unknown as SwappableArray, this.view, this.offset, n);
    }
    this.offset += n * size;
    return out;
  }

  /**
   * Bulk reads of `n` values. Returns a zero-copy view over the input when the data is aligned
   * and in host byte order, else one copy. Pass `copy: true` to always get an independent array.
   */
  u8Array(n: number, field?: string, copy = false): Uint8Array {
    return this.typed(Uint8Array, n, field, true, copy);
  }
  i8Array(n: number, field?: string, copy = false): Int8Array {
    return this.typed(Int8Array, n, field, true, copy);
  }
  u16Array(n: number, field?: string, copy = false, littleEndian = this.littleEndian): Uint16Array {
    return this.typed(Uint16Array, n, field, littleEndian, copy);
  }
  i16Array(n: number, field?: string, copy = false, littleEndian = this.littleEndian): Int16Array {
    return this.typed(Int16Array, n, field, littleEndian, copy);
  }
  u32Array(n: number, field?: string, copy = false, littleEndian = this.littleEndian): Uint32Array {
    return this.typed(Uint32Array, n, field, littleEndian, copy);
  }
  i32Array(n: number, field?: string, copy = false, littleEndian = this.littleEndian): Int32Array {
    return this.typed(Int32Array, n, field, littleEndian, copy);
  }
  f32Array(n: number, field?: string, copy = false, littleEndian = this.littleEndian): Float32Array {
    return this.typed(Float32Array, n, field, littleEndian, copy);
  }

  /** A fixed-length string of `n` bytes, cut at the first NUL. */
  fixedString(n: number, field?: string): string {
    const b = this.bytesView(n, field);
    const end = b.indexOf(0);
    return decodeText(end < 0 ? b : b.subarray(0, end), this.encoding);
  }

  /** A NUL-terminated string (the NUL is consumed). `maxLength` bounds the search. */
  cstring(field?: string, maxLength = Number.POSITIVE_INFINITY): string {
    const start = this.offset;
    const limit = Math.min(this.bytes.byteLength, start + maxLength);
    let end = start;
    while (end < limit && this.bytes[end] !== 0) end++;
    if (end >= this.bytes.byteLength)
      throw this.error('string has no terminating NUL before the end of the file', field, 'TRUNCATED', start);
    if (end >= limit)
      throw this.error(`string is longer than ${maxLength} bytes`, field, 'STRING_TOO_LONG', start);
    this.offset = end + 1;
    return decodeText(this.bytes.subarray(start, end), this.encoding);
  }

  /** A string prefixed with its length as u8. */
  pstring8(field?: string): string {
    const n = this.u8(field);
    return decodeText(this.bytesView(n, field), this.encoding);
  }
  /** A string prefixed with its length as u16 (reader byte order unless given). */
  pstring16(field?: string, littleEndian = this.littleEndian): string {
    const n = this.u16(field, littleEndian);
    return decodeText(this.bytesView(n, field), this.encoding);
  }
  /** A string prefixed with its length as u32 (reader byte order unless given). */
  pstring32(field?: string, littleEndian = this.littleEndian): string {
    const n = this.u32(field, littleEndian);
    return decodeText(this.bytesView(n, field), this.encoding);
  }

  /** Reads `magic.length` bytes and throws `BAD_MAGIC` unless they spell `magic`. */
  expectMagic(magic: string, field = 'magic'): void {
    const at = this.offset;
    const b = this.bytesView(magic.length, field);
    for (let i = 0; i < magic.length; i++) {
      if (b[i] !== magic.charCodeAt(i)) {
        throw this.error(`expected magic "${magic}", found "${printable(b)}"`, field, 'BAD_MAGIC', at);
      }
    }
  }

  /** Peeks `n` bytes as latin1 text without moving the cursor (for magic checks). */
  peekString(n: number): string {
    return latin1.decode(this.bytes.subarray(this.offset, this.offset + n));
  }
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type SwappableArray = Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** Reads `n` values in the byte order opposite to the host's into `out`. */
function swapInto(out: SwappableArray, view: DataView, offset: number, n: number): void {
  const le = !LITTLE_ENDIAN_HOST;
  if (out instanceof Uint16Array) for (let i = 0; i < n; i++) out[i] = view.getUint16(offset + 2 * i, le);
  else if (out instanceof Int16Array) for (let i = 0; i < n; i++) out[i] = view.getInt16(offset + 2 * i, le);
  else if (out instanceof Uint32Array)
    for (let i = 0; i < n; i++) out[i] = view.getUint32(offset + 4 * i, le);
  else if (out instanceof Int32Array) for (let i = 0; i < n; i++) out[i] = view.getInt32(offset + 4 * i, le);
  else if (out instanceof Float32Array)
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(offset + 4 * i, le);
  else for (let i = 0; i < n; i++) out[i] = view.getFloat64(offset + 8 * i, le);
}

/** Bytes as printable ASCII, other bytes escaped (for error messages). */
export function printable(b: Uint8Array): string {
  let s = '';
  for (const c of b)
    s += c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  return s;
}
