import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accumulateFaceNormals } from '../src/index.js';

/** The loop unigine's export had: corners (a, b, c) in place. */
function sumsABC(pos: Float32Array, idx: Uint32Array): Float32Array {
  const out = new Float32Array(pos.length);
  for (let i = 0; i + 2 < idx.length; i += 3) {
    const a = idx[i] * 3;
    const b = idx[i + 1] * 3;
    const c = idx[i + 2] * 3;
    const ux = pos[b] - pos[a];
    const uy = pos[b + 1] - pos[a + 1];
    const uz = pos[b + 2] - pos[a + 2];
    const vx = pos[c] - pos[a];
    const vy = pos[c + 1] - pos[a + 1];
    const vz = pos[c + 2] - pos[a + 2];
    const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) out[v + k] += n[k];
  }
  return out;
}

/** The loop unreal3d's import had: corners (a, c, b) with Y and Z swapped, a triangle mask. */
function sumsSwapped(pos: Float32Array, tris: Uint16Array, rendered: Uint8Array | null): Float32Array {
  const out = new Float32Array(pos.length);
  for (let i = 0; i < tris.length / 3; i++) {
    if (rendered && !rendered[i]) continue;
    const a = tris[i * 3] * 3;
    const b = tris[i * 3 + 1] * 3;
    const c = tris[i * 3 + 2] * 3;
    const ax = pos[a];
    const ay = pos[a + 2];
    const az = pos[a + 1];
    const e1x = pos[c] - ax;
    const e1y = pos[c + 2] - ay;
    const e1z = pos[c + 1] - az;
    const e2x = pos[b] - ax;
    const e2y = pos[b + 2] - ay;
    const e2z = pos[b + 1] - az;
    const n = [e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x];
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) out[v + k] += n[k];
  }
  return out;
}

const mesh = fc.integer({ min: 1, max: 8 }).chain((nv) =>
  fc.record({
    pos: fc.array(fc.oneof(fc.float({ noNaN: true, min: -1e6, max: 1e6 }), fc.constant(0), fc.constant(-0)), {
      minLength: nv * 3,
      maxLength: nv * 3,
    }),
    tris: fc
      .array(fc.integer({ min: 0, max: nv - 1 }), { maxLength: 30 })
      .map((t) => t.slice(0, t.length - (t.length % 3))),
    mask: fc.option(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 12 })),
  }),
);

const bits = (a: Float32Array) => [...new Uint32Array(a.buffer)];

describe('accumulateFaceNormals', () => {
  it('equals the unigine loop bit for bit (Uint32 indices)', () => {
    fc.assert(
      fc.property(mesh, ({ pos, tris }) => {
        const p = Float32Array.from(pos);
        const idx = Uint32Array.from(tris);
        const out = new Float32Array(p.length);
        accumulateFaceNormals(p, idx, out);
        expect(bits(out)).toEqual(bits(sumsABC(p, idx)));
      }),
    );
  });

  it('equals the unreal3d loop (a, c, b, Y/Z swapped, masked) with Y and Z swapped back, bit for bit', () => {
    fc.assert(
      fc.property(mesh, ({ pos, tris, mask }) => {
        const p = Float32Array.from(pos);
        const idx = Uint16Array.from(tris);
        const m = mask ? Uint8Array.from(mask) : null;
        const out = new Float32Array(p.length);
        accumulateFaceNormals(p, idx, out, m);
        const ref = sumsSwapped(p, idx, m);
        const swapped = new Float32Array(out.length);
        for (let i = 0; i < out.length; i += 3) {
          swapped[i] = out[i];
          swapped[i + 1] = out[i + 2];
          swapped[i + 2] = out[i + 1];
        }
        expect(bits(swapped)).toEqual(bits(ref));
      }),
    );
  });

  it('sums a unit right triangle to twice its area on +Z at each corner', () => {
    const out = new Float32Array(9);
    accumulateFaceNormals(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint16Array([0, 1, 2]), out);
    expect([...out]).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });
});
