import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BYTE_UV_MAX_ERROR,
  decodeByteUV,
  decodeDeusExArray,
  decodeNormalU16,
  decodeNormalsU16,
  decodeQ15,
  decodeRangeU16,
  decodeSnorm16,
  decodeUnrealPacked,
  decodeUnrealPackedArray,
  decodeWeightU16,
  encodeByteUV,
  encodeDeusExArray,
  encodeNormalU16,
  encodeNormalsU16,
  encodeQ15,
  encodeRangeU16,
  encodeSnorm16,
  encodeUnrealPacked,
  encodeUnrealPackedArray,
  encodeWeightU16,
  NORMAL_U16_MAX_ERROR,
  rangeU16Float32Safe,
  rangeU16MaxError,
  SNORM16_MAX_ERROR,
  unrealPackedFits,
  WEIGHT_U16_MAX_ERROR,
} from '../src/index.js';

const f = Math.fround;

/** Codes in [lo, hi] for which `roundTrip(q) !== q` (at most 5 listed); one assertion per codec keeps this fast. */
function mismatches(lo: number, hi: number, roundTrip: (q: number) => number): number[] {
  const bad: number[] = [];
  for (let q = lo; q <= hi && bad.length < 5; q++) if (roundTrip(q) !== q) bad.push(q);
  return bad;
}

describe('encode(decode(q)) === q for every 16-bit code, also through float32', () => {
  it('normal u16', () => {
    expect(mismatches(0, 65535, (q) => encodeNormalU16(decodeNormalU16(q)))).toEqual([]);
    expect(mismatches(0, 65535, (q) => encodeNormalU16(f(decodeNormalU16(q))))).toEqual([]);
  });
  it('range u16 for a few real ranges', () => {
    for (const [min, size] of [
      [0, 1],
      [-3.25, 7.5],
      [f(-0.123), f(0.456)],
      [100, 2],
    ]) {
      expect(rangeU16Float32Safe(min, size)).toBe(true);
      expect(mismatches(0, 65535, (q) => encodeRangeU16(f(decodeRangeU16(q, min, size)), min, size))).toEqual(
        [],
      );
    }
  });
  it('a range too narrow for float32 is detected, and does lose codes', () => {
    const [min, size] = [100, 1e-3];
    expect(rangeU16Float32Safe(min, size)).toBe(false);
    let lost = 0;
    for (let q = 0; q <= 65535; q++)
      if (encodeRangeU16(f(decodeRangeU16(q, min, size)), min, size) !== q) lost++;
    expect(lost).toBeGreaterThan(0);
  });
  it('snorm i16 (quaternion component), including −32768', () => {
    expect(mismatches(-32768, 32767, (q) => encodeSnorm16(f(decodeSnorm16(q))))).toEqual([]);
  });
  it('u16 weight', () => {
    expect(mismatches(0, 65535, (q) => encodeWeightU16(f(decodeWeightU16(q))))).toEqual([]);
  });
  it('Q1.15', () => {
    expect(mismatches(0, 65535, (q) => encodeQ15(f(decodeQ15(q))))).toEqual([]);
    expect(decodeQ15(0x8000)).toBe(1);
  });
  it('byte UV', () => {
    expect(mismatches(0, 255, (b) => encodeByteUV(f(decodeByteUV(b))))).toEqual([]);
    expect(decodeByteUV(128)).toBe(0.5);
  });
});

describe('worst-case errors hold (property)', () => {
  it('normal', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1, noNaN: true }), (n) => {
        expect(Math.abs(decodeNormalU16(encodeNormalU16(n)) - n)).toBeLessThanOrEqual(
          NORMAL_U16_MAX_ERROR + 1e-12,
        );
      }),
    );
  });
  it('range', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: 1e-3, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (min, size, t) => {
          const v = min + size * t;
          expect(Math.abs(decodeRangeU16(encodeRangeU16(v, min, size), min, size) - v)).toBeLessThanOrEqual(
            rangeU16MaxError(size) * (1 + 1e-9) + 1e-12,
          );
        },
      ),
    );
  });
  it('snorm, weight, byte UV', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1, noNaN: true }), (v) => {
        expect(Math.abs(decodeSnorm16(encodeSnorm16(v)) - v)).toBeLessThanOrEqual(SNORM16_MAX_ERROR + 1e-12);
        const w = Math.abs(v);
        expect(Math.abs(decodeWeightU16(encodeWeightU16(w)) - w)).toBeLessThanOrEqual(
          WEIGHT_U16_MAX_ERROR + 1e-12,
        );
        const u = Math.min(w, 0.999999);
        const e = u - decodeByteUV(encodeByteUV(u));
        expect(e).toBeGreaterThanOrEqual(0);
        expect(e).toBeLessThan(BYTE_UV_MAX_ERROR);
      }),
    );
  });
  it('clamps out-of-range input and maps NaN to a fixed code', () => {
    expect(encodeNormalU16(2)).toBe(65535);
    expect(encodeNormalU16(-2)).toBe(0);
    expect(encodeSnorm16(3)).toBe(32767);
    expect(encodeByteUV(1.5)).toBe(255);
    expect(encodeByteUV(-0.1)).toBe(0);
    expect(encodeWeightU16(Number.NaN)).toBe(0);
    expect(encodeRangeU16(5, 0, 0)).toBe(0);
  });
  it('bulk forms match the scalar codecs', () => {
    const q = Uint16Array.from([0, 1, 32767, 32768, 65535]);
    const d = decodeNormalsU16(q);
    expect([...encodeNormalsU16(d)]).toEqual([...q]);
    expect(d[0]).toBe(-1);
    expect(d[4]).toBe(1);
  });
});

describe('Unreal 11/11/10 packing', () => {
  it('decodes the field edges', () => {
    const out = [0, 0, 0];
    for (const [x, y, z] of [
      [-1024, -1024, -512],
      [1023, 1023, 511],
      [-512, 511, -1],
      [0, -1, 0],
      [511, -512, 255],
    ]) {
      const v = encodeUnrealPacked(x, y, z);
      decodeUnrealPacked(v, out);
      expect(out).toEqual([x, y, z]);
    }
    // raw bit layout: X in bits 0–10, Y in 11–21, Z in 22–31
    expect(encodeUnrealPacked(1, 0, 0)).toBe(1);
    expect(encodeUnrealPacked(0, 1, 0)).toBe(1 << 11);
    expect(encodeUnrealPacked(0, 0, 1)).toBe(1 << 22);
    expect(encodeUnrealPacked(-1, 0, 0)).toBe(0x7ff);
    expect(encodeUnrealPacked(0, 0, -512)).toBe(0x80000000);
  });
  it('clamps and reports values outside the fields', () => {
    expect(unrealPackedFits(1023.4, 0, 511.4)).toBe(true);
    expect(unrealPackedFits(1023.6, 0, 0)).toBe(false);
    expect(unrealPackedFits(0, 0, -512.6)).toBe(false);
    const { packed, clamped } = encodeUnrealPackedArray([2000, 0, 0, 0, 0, 0]);
    expect(clamped).toBe(1);
    expect([...decodeUnrealPackedArray(packed)]).toEqual([1023, 0, 0, 0, 0, 0]);
  });
  it('encode(decode(v)) === v for every u32 (property) and bulk equals scalar', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 64 }), (vals) => {
        const packed = Uint32Array.from(vals);
        const xyz = decodeUnrealPackedArray(packed);
        const out = [0, 0, 0];
        for (let i = 0; i < vals.length; i++) {
          decodeUnrealPacked(vals[i], out);
          expect(out).toEqual([xyz[i * 3], xyz[i * 3 + 1], xyz[i * 3 + 2]]);
          expect(encodeUnrealPacked(out[0], out[1], out[2])).toBe(vals[i]);
        }
        expect([...encodeUnrealPackedArray(xyz).packed]).toEqual(vals);
      }),
    );
  });
  it('Deus Ex 3×i16 + pad round-trips, pads kept', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 8, maxLength: 8 }),
        (vals) => {
          const words = Int16Array.from(vals);
          const xyz = decodeDeusExArray(words);
          expect(xyz.length).toBe(6);
          const { words: back, clamped } = encodeDeusExArray(xyz, [words[3], words[7]]);
          expect(clamped).toBe(0);
          expect([...back]).toEqual(vals);
        },
      ),
    );
  });
});
