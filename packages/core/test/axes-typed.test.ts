import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AxisMap, axisMap, convertQuaternions, convertVec3, flipWinding } from '../src/index.js';

const mapArb: fc.Arbitrary<AxisMap> = fc
  .record({
    axis: fc.constantFrom<[number, number, number]>(
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ),
    sign: fc.tuple(fc.constantFrom(1, -1), fc.constantFrom(1, -1), fc.constantFrom(1, -1)),
  })
  .map(({ axis, sign }) => axisMap(axis, sign));
const values = fc.array(fc.oneof(fc.float(), fc.constant(-0), fc.constant(Number.NaN)), { maxLength: 40 });

function bits(a: ArrayLike<number>): string[] {
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  return Array.from(a, (x) => {
    f[0] = x;
    return `${u[1]}:${u[0]}`;
  });
}

describe('typed-array paths of the axis helpers equal the generic path bit for bit', () => {
  it('convertVec3 / convertQuaternions on Float32Array, Float64Array and number[]', () => {
    fc.assert(
      fc.property(mapArb, values, fc.constantFrom(3, 4), fc.constantFrom(0, 1), (m, v, stride, offset) => {
        const plain = Array.from(Float32Array.from(v));
        const f32 = Float32Array.from(v);
        const f64 = Float64Array.from(plain);
        convertVec3(m, plain, stride, offset);
        convertVec3(m, f32, stride, offset);
        convertVec3(m, f64, stride, offset);
        expect(bits(f32)).toEqual(bits(plain));
        expect(bits(f64)).toEqual(bits(plain));
        convertQuaternions(m, plain, stride + 1);
        convertQuaternions(m, f32, stride + 1);
        convertQuaternions(m, f64, stride + 1);
        expect(bits(f32)).toEqual(bits(plain));
        expect(bits(f64)).toEqual(bits(plain));
      }),
    );
  });

  it('flipWinding on Uint32Array, Uint16Array and number[]', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 65535 }), { maxLength: 40 }), (idx) => {
        const plain = [...idx];
        const u32 = Uint32Array.from(idx);
        const u16 = Uint16Array.from(idx);
        flipWinding(plain);
        flipWinding(u32);
        flipWinding(u16);
        expect([...u32]).toEqual(plain);
        expect([...u16]).toEqual(plain);
      }),
    );
  });
});
