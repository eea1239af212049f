import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Influences, accessorFloats, readInfluences, sortInfluencesDesc } from '../src/index.js';
import type { Primitive } from '@gltf-transform/core';

/** The array-based readInfluences as it was before the typed-array rewrite: the reference. */
function readInfluencesReference(prim: Primitive, max: number): Influences | null {
  const sets: [Float32Array, Float32Array, number][] = [];
  for (let s = 0; ; s++) {
    const j = prim.getAttribute(`JOINTS_${s}`);
    const w = prim.getAttribute(`WEIGHTS_${s}`);
    if (!j || !w) break;
    sets.push([accessorFloats(j), accessorFloats(w), j.getElementSize()]);
  }
  if (!sets.length) return null;
  const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
  const joints = new Uint16Array(n * max);
  const weights = new Float32Array(n * max);
  const cj: number[] = [];
  const cw: number[] = [];
  let truncated = 0;
  let renormalized = 0;
  for (let v = 0; v < n; v++) {
    cj.length = 0;
    cw.length = 0;
    for (const [js, ws, size] of sets) {
      for (let k = 0; k < size; k++) {
        const wt = ws[v * size + k];
        if (!(wt > 0)) continue;
        const jt = js[v * size + k];
        const at = cj.indexOf(jt);
        if (at >= 0) cw[at] += wt;
        else {
          cj.push(jt);
          cw.push(wt);
        }
      }
    }
    for (let a = 0; a < cw.length; a++) {
      let best = a;
      for (let b = a + 1; b < cw.length; b++) if (cw[b] > cw[best]) best = b;
      if (best !== a) {
        [cw[a], cw[best]] = [cw[best], cw[a]];
        [cj[a], cj[best]] = [cj[best], cj[a]];
      }
    }
    if (cw.length > max) truncated++;
    const k = Math.min(max, cw.length);
    let sum = 0;
    for (let i = 0; i < cw.length; i++) sum += cw[i];
    let kept = 0;
    for (let i = 0; i < k; i++) kept += cw[i];
    if (Math.abs(sum - 1) > 1e-3 && cw.length) renormalized++;
    for (let i = 0; i < k; i++) {
      joints[v * max + i] = cj[i];
      weights[v * max + i] = kept > 0 ? cw[i] / kept : 0;
    }
  }
  return { joints, weights, max, truncated, renormalized };
}

const weight = fc.oneof(
  fc.constant(0),
  fc.constant(-0),
  fc.constant(0.25),
  fc.constant(0.5),
  fc.constant(-0.1),
  fc.constant(Number.NaN),
  fc.float({ min: 0, max: 1, noNaN: true }),
  fc.float({ noNaN: false }),
);

/** A primitive with JOINTS_n/WEIGHTS_n sets of random sizes, sometimes shorter than POSITION. */
const primitiveArb = fc
  .record({
    n: fc.integer({ min: 0, max: 12 }),
    sets: fc.array(
      fc.record({
        type: fc.constantFrom('VEC4', 'VEC2', 'SCALAR') as fc.Arbitrary<'VEC4' | 'VEC2' | 'SCALAR'>,
        joints: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 60 }),
        weights: fc.array(weight, { minLength: 1, maxLength: 60 }),
        short: fc.integer({ min: 0, max: 10 }),
        jointsU8: fc.boolean(),
      }),
      { minLength: 0, maxLength: 3 },
    ),
    max: fc.integer({ min: 1, max: 8 }),
  })
  .map(({ n, sets, max }) => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const prim = doc.createPrimitive().setAttribute(
      'POSITION',
      doc
        .createAccessor()
        .setBuffer(buffer)
        .setType('VEC3')
        .setArray(new Float32Array(n * 3)),
    );
    sets.forEach((set, s) => {
      const size = set.type === 'VEC4' ? 4 : set.type === 'VEC2' ? 2 : 1;
      // Occasionally a short accessor (hostile files): reads past its end give undefined.
      const jn = Math.max(0, n - (set.short === 1 ? 1 : 0)) * size;
      const wn = Math.max(0, n - (set.short === 2 ? 1 : 0)) * size;
      const j = set.jointsU8 ? new Uint8Array(jn) : new Uint16Array(jn);
      const w = new Float32Array(wn);
      for (let i = 0; i < jn; i++) j[i] = set.joints[i % set.joints.length];
      for (let i = 0; i < wn; i++) w[i] = set.weights[i % set.weights.length];
      prim
        .setAttribute(`JOINTS_${s}`, doc.createAccessor().setBuffer(buffer).setType(set.type).setArray(j))
        .setAttribute(`WEIGHTS_${s}`, doc.createAccessor().setBuffer(buffer).setType(set.type).setArray(w));
    });
    return { prim, max };
  });

describe('readInfluences (typed arrays) equals the array-based reference', () => {
  it('same joints, same weight bits, same counts on random weights (ties, zeros, NaN, >4, JOINTS_0/1)', () => {
    fc.assert(
      fc.property(primitiveArb, ({ prim, max }) => {
        const a = readInfluences(prim, max);
        const b = readInfluencesReference(prim, max);
        if (!b) {
          expect(a).toBeNull();
          return;
        }
        expect(a).not.toBeNull();
        expect([...a!.joints]).toEqual([...b.joints]);
        expect(new Uint8Array(a!.weights.buffer)).toEqual(new Uint8Array(b.weights.buffer));
        expect([a!.max, a!.truncated, a!.renormalized]).toEqual([b.max, b.truncated, b.renormalized]);
      }),
      { numRuns: 600 },
    );
  });

  it('sortInfluencesDesc puts the k largest first like a full selection sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0.1, 0.2, 0.3, 0.5), { minLength: 0, maxLength: 10 }),
        fc.integer({ min: 0, max: 12 }),
        (ws, k) => {
          const w = Float64Array.from(ws);
          const j = Float64Array.from(ws, (_, i) => i);
          sortInfluencesDesc(w, j, w.length, k);
          const fw = [...ws];
          const fj = ws.map((_, i) => i);
          for (let a = 0; a < fw.length; a++) {
            let best = a;
            for (let b = a + 1; b < fw.length; b++) if (fw[b] > fw[best]) best = b;
            [fw[a], fw[best]] = [fw[best], fw[a]];
            [fj[a], fj[best]] = [fj[best], fj[a]];
          }
          const top = Math.min(k, ws.length);
          expect([...w.slice(0, top)]).toEqual(fw.slice(0, top));
          expect([...j.slice(0, top)]).toEqual(fj.slice(0, top));
        },
      ),
    );
  });
});
