import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INT2_MAX,
  decodeInt2,
  encodeInt2,
  int2Size,
  readInt2,
  readString,
  writeInt2,
  writeString,
} from '../src/int2.js';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');

describe('int2 compact integer', () => {
  it('matches the values seen in the samples', () => {
    expect(hex(encodeInt2(6))).toBe('06');
    expect(hex(encodeInt2(146))).toBe('92 02');
    expect(hex(encodeInt2(864))).toBe('a0 0d');
    expect(hex(encodeInt2(189))).toBe('bd 02');
    expect(hex(encodeInt2(10065))).toBe('91 9d 01');
    expect(hex(encodeInt2(34349))).toBe('ad 98 04');
    expect(hex(encodeInt2(187221))).toBe('95 ed 16');
  });

  it('puts the sign in bit 6 of the first byte', () => {
    expect(hex(encodeInt2(-1))).toBe('41');
    expect(hex(encodeInt2(-63))).toBe('7f');
    expect(hex(encodeInt2(-64))).toBe('c0 01');
    expect(decodeInt2(new Uint8Array([0x45]), 0)).toEqual({ value: -5, length: 1 });
  });

  it('round-trips every value in −300000…300000 with the minimal length', () => {
    const buf = new Uint8Array(8);
    for (let v = -300000; v <= 300000; v++) {
      const e = encodeInt2(v);
      buf.set(e);
      const d = decodeInt2(buf, 0);
      if (!d || d.value !== v || d.length !== e.length)
        throw new Error(`int2 ${v}: ${hex(e)} → ${JSON.stringify(d)}`);
    }
  });

  it('changes length exactly at the range boundaries (6, 13, 20, 27 bits)', () => {
    const bounds: [number, number][] = [
      [0, 1],
      [63, 1],
      [64, 2],
      [8191, 2],
      [8192, 3],
      [1048575, 3],
      [1048576, 4],
      [134217727, 4],
      [134217728, 5],
      [INT2_MAX, 5],
    ];
    for (const [v, n] of bounds) {
      expect(int2Size(v), `${v}`).toBe(n);
      expect(encodeInt2(v).length).toBe(n);
      expect(encodeInt2(-v).length).toBe(n);
      expect(decodeInt2(encodeInt2(v), 0)?.value).toBe(v);
      expect(decodeInt2(encodeInt2(-v), 0)?.value).toBe(v === 0 ? 0 : -v);
    }
  });

  it('round-trips any 32-bit magnitude (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -INT2_MAX, max: INT2_MAX }), (v) => {
        const e = encodeInt2(v);
        const d = decodeInt2(e, 0);
        return d !== null && d.value === v && d.length === e.length && e.length === int2Size(v);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads through ByteReader and writes through ByteWriter', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -INT2_MAX, max: INT2_MAX }), { maxLength: 50 }), (values) => {
        const w = new ByteWriter();
        for (const v of values) writeInt2(w, v);
        const r = new ByteReader(w.finish());
        return values.every((v) => readInt2(r) === v) && r.eof;
      }),
    );
  });

  it('refuses out-of-range values and bad encodings', () => {
    expect(() => encodeInt2(INT2_MAX + 1)).toThrow(RangeError);
    expect(() => encodeInt2(1.5)).toThrow(RangeError);
    // truncated: continuation bit set on the last byte
    expect(() => readInt2(new ByteReader(new Uint8Array([0x80, 0x80])), 'n')).toThrow(
      expect.objectContaining({ code: 'TRUNCATED' }),
    );
    // six bytes: too long
    expect(() => readInt2(new ByteReader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0x01])), 'n')).toThrow(
      expect.objectContaining({ code: 'BAD_INT2' }),
    );
    // five bytes whose value exceeds 2^31 − 1
    expect(() => readInt2(new ByteReader(new Uint8Array([0xbf, 0xff, 0xff, 0xff, 0x7f])), 'n')).toThrow(
      FormatError,
    );
    expect(() => readInt2(new ByteReader(new Uint8Array([])), 'n')).toThrow(
      expect.objectContaining({ code: 'TRUNCATED' }),
    );
  });

  it('reads and writes strings with the NUL counted', () => {
    const w = new ByteWriter();
    writeString(w, 'plane', 'utf8');
    expect(hex(w.finish())).toBe('06 70 6c 61 6e 65 00');
    expect(readString(new ByteReader(w.finish()), 's', 'utf8')).toBe('plane');
    expect(() => readString(new ByteReader(new Uint8Array([0x00])), 's', 'utf8')).toThrow(
      expect.objectContaining({ code: 'BAD_STRING' }),
    );
    expect(() => readString(new ByteReader(new Uint8Array([0x02, 0x41, 0x42])), 's', 'utf8')).toThrow(
      expect.objectContaining({ code: 'BAD_STRING' }),
    );
  });
});
