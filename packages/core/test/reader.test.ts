import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, FormatError } from '../src/index.js';

describe('ByteReader', () => {
  it('reads little- and big-endian integers and floats', () => {
    const b = new Uint8Array([0x01, 0x02, 0x03, 0x04, 0xff, 0xff, 0x00, 0x00, 0x80, 0x3f]);
    const r = new ByteReader(b);
    expect(r.u16()).toBe(0x0201);
    r.seek(0);
    expect(r.u16be()).toBe(0x0102);
    r.seek(0);
    expect(r.u32()).toBe(0x04030201);
    r.seek(0);
    expect(r.u32be()).toBe(0x01020304);
    expect(r.i16()).toBe(-1);
    expect(r.f32()).toBe(1);
    expect(r.remaining).toBe(0);
    expect(r.eof).toBe(true);
  });

  it('throws a FormatError naming file, offset and field path when truncated', () => {
    const r = new ByteReader(new Uint8Array(5), { file: 'x.mdl' });
    r.u32('a');
    let err: unknown;
    try {
      r.scope('geometries[2]', () => r.scope('lods[0]', () => r.u16('indexCount')));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FormatError);
    const fe = err as FormatError;
    expect(fe.code).toBe('TRUNCATED');
    expect(fe.file).toBe('x.mdl');
    expect(fe.offset).toBe(4);
    expect(fe.field).toBe('geometries[2].lods[0].indexCount');
    expect(fe.message).toContain('x.mdl');
    expect(fe.message).toContain('offset 4');
    // a failed read does not move the cursor
    expect(r.offset).toBe(4);
  });

  it('count() rejects counts the remaining bytes cannot hold, exactly at the boundary', () => {
    const r = new ByteReader(new Uint8Array(12));
    expect(r.count(3, 4, 'n')).toBe(3);
    expect(() => r.count(4, 4, 'n')).toThrow(/exceeds/);
    expect(() => r.count(-1, 4, 'n')).toThrow(FormatError);
    expect(() => r.count(1.5, 4, 'n')).toThrow(FormatError);
    expect(() => r.count(0xffffffff, 12, 'n')).toThrowError(
      expect.objectContaining({ code: 'COUNT_TOO_LARGE' }),
    );
  });

  it('bulk reads are zero-copy views when aligned, copies when not', () => {
    const buf = new Uint8Array(17);
    new DataView(buf.buffer).setFloat32(0, 1.5, true);
    new DataView(buf.buffer).setFloat32(5, 2.5, true);
    const r = new ByteReader(buf);
    const a = r.f32Array(1);
    expect(a[0]).toBe(1.5);
    expect(a.buffer).toBe(buf.buffer);
    r.seek(5);
    const b = r.f32Array(1);
    expect(b[0]).toBe(2.5);
    expect(b.buffer).not.toBe(buf.buffer);
    r.seek(0);
    const c = r.f32Array(1, 'c', true);
    expect(c.buffer).not.toBe(buf.buffer);
  });

  it('big-endian bulk reads swap bytes', () => {
    const r = new ByteReader(new Uint8Array([0x01, 0x02, 0x03, 0x04]), { littleEndian: false });
    expect([...r.u16Array(2)]).toEqual([0x0102, 0x0304]);
    r.seek(0);
    expect([...r.u32Array(1)]).toEqual([0x01020304]);
  });

  it('reads NUL-terminated, fixed and length-prefixed strings', () => {
    const w = new ByteWriter();
    w.cstring('Bip01').pstring8('héllo').pstring16('ab', false).pstring32('xyz').fixedString('tex', 8);
    const r = new ByteReader(w.finish());
    expect(r.cstring()).toBe('Bip01');
    expect(r.pstring8()).toBe('héllo');
    expect(r.pstring16(undefined, false)).toBe('ab');
    expect(r.pstring32()).toBe('xyz');
    expect(r.fixedString(8)).toBe('tex');
    expect(r.eof).toBe(true);
  });

  it('rejects an unterminated string, a bad magic and a non-finite float', () => {
    expect(() => new ByteReader(new Uint8Array([65, 66])).cstring('name')).toThrowError(
      expect.objectContaining({ code: 'TRUNCATED' }),
    );
    expect(() => new ByteReader(new Uint8Array([65, 66, 67, 68])).expectMagic('UMDL')).toThrowError(
      expect.objectContaining({ code: 'BAD_MAGIC', offset: 0 }),
    );
    const nan = new ByteWriter().f32(Number.NaN).finish();
    expect(() => new ByteReader(nan).f32Finite('x')).toThrowError(
      expect.objectContaining({ code: 'BAD_FLOAT' }),
    );
  });

  it('falls back to latin1 for bytes that are not UTF-8', () => {
    const r = new ByteReader(new Uint8Array([0xe9, 0x00]));
    expect(r.cstring()).toBe('é');
  });
});

describe('ByteWriter', () => {
  it('grows and returns exactly the bytes written', () => {
    const w = new ByteWriter({ capacity: 16 });
    for (let i = 0; i < 1000; i++) w.u32(i);
    const out = w.finish();
    expect(out.byteLength).toBe(4000);
    expect(new ByteReader(out).u32Array(1000)[999]).toBe(999);
  });

  it('patches sizes written earlier and refuses patches outside the data', () => {
    const w = new ByteWriter();
    w.u32(0).u16(7);
    w.patchU32(0, 0xdeadbeef);
    expect(new ByteReader(w.finish()).u32()).toBe(0xdeadbeef);
    expect(() => w.patchU32(4, 1)).toThrow(RangeError);
  });

  it('round-trips every scalar type in both byte orders (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: -32768, max: 32767 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: -0x80000000, max: 0x7fffffff }),
        fc.float({ noNaN: true }),
        fc.boolean(),
        (a, b, c, d, e, le) => {
          const w = new ByteWriter({ littleEndian: le });
          w.u8(a)
            .i16(b)
            .u32(c)
            .i32(d)
            .f32(e)
            .u16(b & 0xffff);
          const r = new ByteReader(w.finish(), { littleEndian: le });
          expect(r.u8()).toBe(a);
          expect(r.i16()).toBe(b);
          expect(r.u32()).toBe(c);
          expect(r.i32()).toBe(d);
          expect(Object.is(r.f32(), Math.fround(e))).toBe(true);
          expect(r.u16()).toBe(b & 0xffff);
        },
      ),
    );
  });

  it('typed arrays round-trip big-endian', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 50 }), (vals) => {
        const a = Uint32Array.from(vals);
        const bytes = new ByteWriter({ littleEndian: false }).u32Array(a).finish();
        expect([...new ByteReader(bytes, { littleEndian: false }).u32Array(vals.length)]).toEqual(vals);
        // first byte is the most significant
        if (vals.length) expect(bytes[0]).toBe(vals[0] >>> 24);
      }),
    );
  });
});

describe('byte-swapped bulk reads', () => {
  it('match scalar big-endian reads for every type (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 64 }),
        fc.integer({ min: 0, max: 3 }),
        (raw, skip) => {
          const r = new ByteReader(raw, { littleEndian: false });
          const n4 = Math.max(0, Math.floor((raw.length - skip) / 4));
          const n2 = Math.max(0, Math.floor((raw.length - skip) / 2));
          const check = (read: () => ArrayLike<number>, scalar: () => number, n: number) => {
            r.seek(Math.min(skip, raw.length));
            const arr = read();
            r.seek(Math.min(skip, raw.length));
            for (let i = 0; i < n; i++)
              expect(
                Object.is(arr[i], scalar()) ||
                  (Number.isNaN(arr[i]) && Number.isNaN(r.view.getFloat32(r.offset - 4, false))),
              ).toBe(true);
          };
          check(
            () => r.u16Array(n2),
            () => r.u16be(),
            n2,
          );
          check(
            () => r.i16Array(n2),
            () => r.i16be(),
            n2,
          );
          check(
            () => r.u32Array(n4),
            () => r.u32be(),
            n4,
          );
          check(
            () => r.i32Array(n4),
            () => r.i32be(),
            n4,
          );
          check(
            () => r.f32Array(n4),
            () => r.f32be(),
            n4,
          );
        },
      ),
    );
  });
});
