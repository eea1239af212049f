import { readInfluences } from '@gltf-legacy/core';
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { twoInfluences } from '../src/export.js';

/** A primitive with `sets` JOINTS_n/WEIGHTS_n pairs of random (often repeated, often zero) influences. */
function primitive(n: number, joints: number[], weights: number[], sets: number) {
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
  for (let s = 0; s < sets; s++) {
    const j = new Uint16Array(n * 4);
    const w = new Float32Array(n * 4);
    for (let i = 0; i < n * 4; i++) {
      j[i] = joints[(s * n * 4 + i) % joints.length];
      w[i] = weights[(s * n * 4 + i) % weights.length];
    }
    prim
      .setAttribute(`JOINTS_${s}`, doc.createAccessor().setBuffer(buffer).setType('VEC4').setArray(j))
      .setAttribute(`WEIGHTS_${s}`, doc.createAccessor().setBuffer(buffer).setType('VEC4').setArray(w));
  }
  return prim;
}

describe('twoInfluences (export fast path)', () => {
  it("equals core's readInfluences(prim, 2): joints, float32 weights and truncation count", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.oneof(fc.constant(0), fc.constant(0.25), fc.float({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 2 }),
        (n, joints, weights, sets) => {
          const prim = primitive(n, joints, weights, sets);
          const core = readInfluences(prim, 2)!;
          const fast = twoInfluences(prim)!;
          expect(Array.from(fast.joints)).toEqual(Array.from(core.joints));
          expect(Array.from(fast.weights)).toEqual(Array.from(core.weights));
          expect(fast.truncated).toBe(core.truncated);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equals readInfluences on what the shared stage leaves: at most two non-zero weights per vertex', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
            fc.array(fc.oneof(fc.constant(0.5), fc.float({ min: 0, max: 1, noNaN: true })), {
              minLength: 2,
              maxLength: 2,
            }),
            fc.integer({ min: 0, max: 3 }),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        (vertices) => {
          const joints: number[] = [];
          const weights: number[] = [];
          for (const [j, w, slot] of vertices) {
            joints.push(...j);
            const row = [0, 0, 0, 0];
            row[slot] = w[0];
            row[(slot + 1 + (slot % 2)) % 4] = w[1]; // the second weight in another slot
            weights.push(...row);
          }
          const prim = primitive(vertices.length, joints, weights, 1);
          const core = readInfluences(prim, 2)!;
          const fast = twoInfluences(prim)!;
          expect(Array.from(fast.joints)).toEqual(Array.from(core.joints));
          expect(Array.from(fast.weights)).toEqual(Array.from(core.weights));
          expect(fast.truncated).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('without JOINTS_0/WEIGHTS_0 there are no influences', () => {
    expect(twoInfluences(primitive(3, [0], [1], 0))).toBeNull();
  });
});
