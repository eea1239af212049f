import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundHalfUp } from '../src/index.js';

/** Math.round with −0 made +0: what roundHalfUp promises. */
const expected = (x: number) => Math.round(x) + 0;

describe('roundHalfUp', () => {
  it('equals Math.round (−0 as +0) on the edge cases', () => {
    const ulp = 2 ** -54;
    const cases = [
      0,
      -0,
      0.5,
      -0.5,
      1.5,
      -1.5,
      2.5,
      -2.5,
      0.49999999999999994,
      -0.49999999999999994,
      0.5 - ulp,
      0.5 + 2 ** -53,
      1.4999999999999998,
      -1.5000000000000002,
      126.5,
      -126.5,
      127.49999999999999,
      2 ** 52 - 0.5,
      2 ** 52 + 1,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      2 ** 60,
      -(2 ** 60),
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      Infinity,
      -Infinity,
    ];
    for (const x of cases) expect(Object.is(roundHalfUp(x), expected(x)), String(x)).toBe(true);
    expect(roundHalfUp(Number.NaN)).toBeNaN();
    // the one the plain floor(x + 0.5) gets wrong
    expect(Math.floor(0.49999999999999994 + 0.5)).toBe(1);
    expect(roundHalfUp(0.49999999999999994)).toBe(0);
  });

  it('equals Math.round (−0 as +0) on any double', () => {
    fc.assert(
      fc.property(
        fc.double(),
        (x) => Object.is(roundHalfUp(x), expected(x)) || (Number.isNaN(x) && Number.isNaN(roundHalfUp(x))),
      ),
      { numRuns: 20_000 },
    );
  });

  it('equals Math.round on halves and their neighbours at every scale the codecs use', () => {
    fc.assert(
      fc.property(fc.integer({ min: -70000, max: 70000 }), fc.integer({ min: -3, max: 3 }), (k, steps) => {
        // k + 0.5 and the doubles a few ulps either side of it
        let x = k + 0.5;
        const dir = steps < 0 ? -Infinity : Infinity;
        for (let i = 0; i < Math.abs(steps); i++) x = nextAfter(x, dir);
        return Object.is(roundHalfUp(x), expected(x));
      }),
      { numRuns: 20_000 },
    );
  });
});

/** The next double after `x` toward `to`. */
function nextAfter(x: number, to: number): number {
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  if (x === 0) return to > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  b[0] += to > x === x > 0 ? 1n : -1n;
  return f[0];
}
