import type { Document } from '@gltf-transform/core';
import { WarningCollector } from '@gltf-legacy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countOverInfluenced, limitInfluences } from '../src/index.js';
import { docWith } from './helpers.js';

function skinned(
  document: Document,
  prim: ReturnType<typeof docWith>['prim'],
  joints: number[],
  weights: number[],
) {
  const sets = joints.length / 4 / prim.getAttribute('POSITION')!.getCount();
  const n = prim.getAttribute('POSITION')!.getCount();
  for (let s = 0; s < sets; s++) {
    const j = new Uint16Array(n * 4);
    const w = new Float32Array(n * 4);
    for (let v = 0; v < n; v++)
      for (let c = 0; c < 4; c++) {
        j[v * 4 + c] = joints[v * sets * 4 + s * 4 + c];
        w[v * 4 + c] = weights[v * sets * 4 + s * 4 + c];
      }
    prim.setAttribute(`JOINTS_${s}`, document.createAccessor().setType('VEC4').setArray(j));
    prim.setAttribute(`WEIGHTS_${s}`, document.createAccessor().setType('VEC4').setArray(w));
  }
}

describe('limitInfluences', () => {
  it('keeps the 2 largest of 8 influences, renormalized, and counts the vertex', async () => {
    const { document, prim } = docWith([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const w = [0.05, 0.4, 0.05, 0.1, 0.1, 0.2, 0.05, 0.05];
    skinned(
      document,
      prim,
      [...[0, 1, 2, 3, 4, 5, 6, 7], ...Array(8).fill(0), ...Array(8).fill(0)],
      [...w, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    );
    const warnings = new WarningCollector();
    await document.transform(limitInfluences({ maxInfluences: 2, warnings }));
    expect(prim.getAttribute('JOINTS_1')).toBeNull();
    const j = prim.getAttribute('JOINTS_0')!.getArray()!;
    const ww = prim.getAttribute('WEIGHTS_0')!.getArray()!;
    expect(Array.from(j.slice(0, 2))).toEqual([1, 5]);
    expect(ww[0]).toBeCloseTo(0.4 / 0.6, 6);
    expect(ww[1]).toBeCloseTo(0.2 / 0.6, 6);
    expect(ww[2] + ww[3]).toBe(0);
    expect(warnings.list()).toEqual([expect.objectContaining({ code: 'WEIGHTS_TRUNCATED', count: 1 })]);
  });

  it('leaves a primitive that fits untouched (same accessor objects, same bytes)', async () => {
    const { document, prim } = docWith([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    skinned(
      document,
      prim,
      Array(12)
        .fill(0)
        .map((_, i) => i % 4),
      [0.7, 0.3, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0],
    );
    const before = prim.getAttribute('WEIGHTS_0');
    await document.transform(limitInfluences({ maxInfluences: 4 }));
    expect(prim.getAttribute('WEIGHTS_0')).toBe(before);
  });

  it('property: every vertex keeps ≤ N influences summing to 1, the N largest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.array(
          fc.array(fc.float({ min: Math.fround(0.01), max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }),
          { minLength: 3, maxLength: 6 },
        ),
        async (max, verts) => {
          const n = verts.length;
          const { document, prim } = docWith(Array(n * 3).fill(0));
          skinned(
            document,
            prim,
            verts.flatMap(() => [0, 1, 2, 3, 4, 5, 6, 7]),
            verts.flat(),
          );
          await document.transform(limitInfluences({ maxInfluences: max }));
          expect(countOverInfluenced(prim, max)).toBe(0);
          const sets = Math.ceil(max / 4);
          for (let v = 0; v < n; v++) {
            let sum = 0;
            for (let s = 0; s < sets; s++) {
              const w = prim.getAttribute(`WEIGHTS_${s}`)!.getArray()!;
              for (let c = 0; c < 4; c++) sum += w[v * 4 + c];
            }
            expect(sum).toBeCloseTo(1, 5);
            const kept = prim.getAttribute('JOINTS_0')!.getArray()![v * 4];
            expect(verts[v][kept]).toBe(Math.max(...verts[v].map(Math.fround)));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
