/** Options of {@link ByteWriter}. */
export interface ByteWriterOptions {
  /** Default byte order (default: little-endian). */
  littleEndian?: boolean;
  /** Initial capacity in bytes (default 1024). */
  capacity?: number;
  /** Text encoding of strings (default `utf8`). */
  encoding?: 'utf8' | 'latin1';
}

const utf8 = new TextEncoder();

/** Encodes text as UTF-8 or latin1 (code points above 255 become `?`). */
export function encodeText(s: string, encoding: 'utf8' | 'latin1' = 'utf8'): Uint8Array {
  if (encoding === 'utf8') return utf8.encode(s);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[i] = c < 256 ? c : 63;
  }
  return out;
}

/**
 * A growable little/big-endian byte sink. `finish()` returns exactly the bytes written.
 *
 * ```ts
 * const w = new ByteWriter();
 * w.string('UMDL');
 * w.u32(vertexCount);
 * w.f32Array(positions);
 * const bytes = w.finish();
 * ```
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  littleEndian: boolean;
  encoding: 'utf8' | 'latin1';

  constructor(options: ByteWriterOptions = {}) {
    this.buf = new Uint8Array(Math.max(16, options.capacity ?? 1024));
    this.view = new DataView(this.buf.buffer);
    this.littleEndian = options.littleEndian ?? true;
    this.encoding = options.encoding ?? 'utf8';
  }

  /** Bytes written so far (the write position). */
  get offset(): number {
    return this.pos;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.byteLength) return;
    let cap = this.buf.byteLength * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }
  i8(v: number): this {
    this.ensure(1);
    this.view.setInt8(this.pos++, v);
    return this;
  }
  u16(v: number, littleEndian = this.littleEndian): this {
    this.ensure(2);
    this.view.setUint16(this.pos, v, littleEndian);
    this.pos += 2;
    return this;
  }
  i16(v: number, littleEndian = this.littleEndian): this {
    this.ensure(2);
    this.view.setInt16(this.pos, v, littleEndian);
    this.pos += 2;
    return this;
  }
  u32(v: number, littleEndian = this.littleEndian): this {
    this.ensure(4);
    this.view.setUint32(this.pos, v, littleEndian);
    this.pos += 4;
    return this;
  }
  i32(v: number, littleEndian = this.littleEndian): this {
    this.ensure(4);
    this.view.setInt32(this.pos, v, littleEndian);
    this.pos += 4;
    return this;
  }
  f32(v: number, littleEndian = this.littleEndian): this {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, littleEndian);
    this.pos += 4;
    return this;
  }
  f64(v: number, littleEndian = this.littleEndian): this {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, littleEndian);
    this.pos += 8;
    return this;
  }
  u16be(v: number): this {
    return this.u16(v, false);
  }
  i16be(v: number): this {
    return this.i16(v, false);
  }
  u32be(v: number): this {
    return this.u32(v, false);
  }
  i32be(v: number): this {
    return this.i32(v, false);
  }
  f32be(v: number): this {
    return this.f32(v, false);
  }
  u16le(v: number): this {
    return this.u16(v, true);
  }
  i16le(v: number): this {
    return this.i16(v, true);
  }
  u32le(v: number): this {
    return this.u32(v, true);
  }
  i32le(v: number): this {
    return this.i32(v, true);
  }
  f32le(v: number): this {
    return this.f32(v, true);
  }

  /** Raw bytes. */
  bytes(b: Uint8Array): this {
    this.ensure(b.byteLength);
    this.buf.set(b, this.pos);
    this.pos += b.byteLength;
    return this;
  }

  /** `n` zero bytes. */
  zeros(n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
    return this;
  }

  /** Any typed array's elements in the writer's (or the given) byte order. */
  typedArray(
    a: ArrayBufferView & { readonly BYTES_PER_ELEMENT: number; readonly length: number },
    littleEndian = this.littleEndian,
  ): this {
    const size = a.BYTES_PER_ELEMENT;
    const src = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    if (size === 1 || littleEndian === LITTLE_ENDIAN_HOST) return this.bytes(src);
    this.ensure(src.byteLength);
    const dst = this.buf;
    const o = this.pos;
    for (let i = 0; i < src.byteLength; i += size) {
      for (let b = 0; b < size; b++) dst[o + i + b] = src[i + size - 1 - b];
    }
    this.pos += src.byteLength;
    return this;
  }
  u16Array(a: Uint16Array, littleEndian = this.littleEndian): this {
    return this.typedArray(a, littleEndian);
  }
  i16Array(a: Int16Array, littleEndian = this.littleEndian): this {
    return this.typedArray(a, littleEndian);
  }
  u32Array(a: Uint32Array, littleEndian = this.littleEndian): this {
    return this.typedArray(a, littleEndian);
  }
  i32Array(a: Int32Array, littleEndian = this.littleEndian): this {
    return this.typedArray(a, littleEndian);
  }
  f32Array(a: Float32Array, littleEndian = this.littleEndian): this {
    return this.typedArray(a, littleEndian);
  }

  /** Text without terminator or prefix. */
  string(s: string): this {
    return this.bytes(encodeText(s, this.encoding));
  }
  /** Text padded with NULs (or cut) to exactly `n` bytes. */
  fixedString(s: string, n: number): this {
    const b = encodeText(s, this.encoding).subarray(0, n);
    this.bytes(b);
    return this.zeros(n - b.byteLength);
  }
  /** NUL-terminated text. */
  cstring(s: string): this {
    return this.string(s).u8(0);
  }
  /** Text prefixed with its byte length as u8 (throws past 255 bytes). */
  pstring8(s: string): this {
    const b = encodeText(s, this.encoding);
    if (b.byteLength > 0xff)
      throw new RangeError(`string of ${b.byteLength} bytes does not fit a u8 length: "${s.slice(0, 40)}…"`);
    return this.u8(b.byteLength).bytes(b);
  }
  /** Text prefixed with its byte length as u16. */
  pstring16(s: string, littleEndian = this.littleEndian): this {
    const b = encodeText(s, this.encoding);
    if (b.byteLength > 0xffff)
      throw new RangeError(`string of ${b.byteLength} bytes does not fit a u16 length`);
    return this.u16(b.byteLength, littleEndian).bytes(b);
  }
  /** Text prefixed with its byte length as u32. */
  pstring32(s: string, littleEndian = this.littleEndian): this {
    const b = encodeText(s, this.encoding);
    return this.u32(b.byteLength, littleEndian).bytes(b);
  }

  /** Overwrites a u32 written earlier (e.g. a size known only at the end). */
  patchU32(at: number, v: number, littleEndian = this.littleEndian): this {
    if (at < 0 || at + 4 > this.pos)
      throw new RangeError(`patch at ${at} is outside the ${this.pos} bytes written`);
    this.view.setUint32(at, v, littleEndian);
    return this;
  }
  /** Overwrites a u16 written earlier. */
  patchU16(at: number, v: number, littleEndian = this.littleEndian): this {
    if (at < 0 || at + 2 > this.pos)
      throw new RangeError(`patch at ${at} is outside the ${this.pos} bytes written`);
    this.view.setUint16(at, v, littleEndian);
    return this;
  }

  /** The bytes written, as a new array of exactly that length. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
