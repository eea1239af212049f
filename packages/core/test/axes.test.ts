import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  axesDeterminant,
  axisMap,
  composeAxes,
  convertMat4,
  convertQuaternions,
  convertTangents,
  convertVec3,
  flipWinding,
  inverseAxes,
  mirrorAxis,
} from '../src/index.js';

const f32 = fc.float({ noNaN: true, noDefaultInfinity: true });
const maps = fc
  .tuple(
    fc.constantFrom<[number, number, number]>(
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ),
    fc.tuple(fc.constantFrom(1, -1), fc.constantFrom(1, -1), fc.constantFrom(1, -1)),
  )
  .map(([a, s]) => axisMap(a, s));

describe('axis helpers', () => {
  it('mirror twice is the identity, bit for bit (vectors, tangents, quaternions, matrices, winding)', () => {
    fc.assert(
      fc.property(fc.array(f32, { minLength: 16, maxLength: 16 }), fc.constantFrom(0, 1, 2), (vals, axis) => {
        const m = mirrorAxis(axis as 0 | 1 | 2);
        for (const conv of [convertVec3, convertTangents, convertQuaternions, convertMat4]) {
          const a = Float32Array.from(vals);
          conv(m, a);
          conv(m, a);
          expect([...a].map((x) => (Object.is(x, 0) ? 0 : x))).toEqual(
            [...Float32Array.from(vals)].map((x) => (Object.is(x, 0) ? 0 : x)),
          );
        }
        const idx = Uint16Array.from(vals.map((_, i) => i));
        flipWinding(idx);
        expect(idx[1]).toBe(2);
        flipWinding(idx);
        expect([...idx]).toEqual(vals.map((_, i) => i));
      }),
    );
  });

  it('mirroring X negates x of positions and y, z of quaternions', () => {
    const p = new Float32Array([1, 2, 3]);
    convertVec3(mirrorAxis(0), p);
    expect([...p]).toEqual([-1, 2, 3]);
    const q = new Float32Array([0.1, 0.2, 0.3, 0.9]);
    convertQuaternions(mirrorAxis(0), q);
    expect([...q]).toEqual([Math.fround(0.1), Math.fround(-0.2), Math.fround(-0.3), Math.fround(0.9)]);
    const t = new Float32Array([1, 0, 0, 1]);
    convertTangents(mirrorAxis(0), t);
    expect([...t]).toEqual([-1, 0, 0, -1]);
  });

  it('Z-up → Y-up (x, z, −y) rotates: determinant +1, winding kept', () => {
    const zup = axisMap([0, 2, 1], [1, 1, -1]);
    expect(axesDeterminant(zup)).toBe(1);
    const v = new Float64Array([0, 0, 1]); // up in Z-up
    convertVec3(zup, v);
    expect([...v]).toEqual([0, 1, -0]);
  });

  it('inverse undoes any signed permutation and compose matches sequential application', () => {
    fc.assert(
      fc.property(maps, maps, fc.array(f32, { minLength: 3, maxLength: 3 }), (a, b, vals) => {
        const v = Float64Array.from(vals);
        convertVec3(a, v);
        convertVec3(inverseAxes(a), v);
        expect([...v]).toEqual([...Float64Array.from(vals)].map((x) => x));
        const s = Float64Array.from(vals);
        convertVec3(a, s);
        convertVec3(b, s);
        const c = Float64Array.from(vals);
        convertVec3(composeAxes(a, b), c);
        expect([...c]).toEqual([...s]);
      }),
    );
  });

  it('matrix conversion agrees with converting the basis vectors (rotation about Z by 90°)', () => {
    // column-major: x → y, y → −x
    const m = new Float64Array([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1]);
    const map = axisMap([0, 2, 1], [1, 1, -1]);
    convertMat4(map, m);
    // In the new basis: translation converts as a vector
    const t = new Float64Array([5, 6, 7]);
    convertVec3(map, t);
    expect([m[12], m[13], m[14]]).toEqual([...t]);
    // M' applied to converted x axis equals converted (M x)
    const x = new Float64Array([1, 0, 0]);
    convertVec3(map, x);
    const mx = [0, 1, 2].map((r) => m[r] * x[0] + m[4 + r] * x[1] + m[8 + r] * x[2]);
    const expected = new Float64Array([0, 1, 0]);
    convertVec3(map, expected);
    expect(mx.map((v) => v + 0)).toEqual([...expected].map((v) => v + 0));
  });
});
