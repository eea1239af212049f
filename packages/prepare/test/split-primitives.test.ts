import { WarningCollector } from '@gltf-legacy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPrimitives, splitPrimitivesNeeded } from '../src/index.js';
import { docWith, triangleSet } from './helpers.js';

/** A strip-like grid of `n` vertices and its triangle list. */
function grid(n: number) {
  const positions: number[] = [];
  for (let i = 0; i < n; i++) positions.push(i >> 1, i & 1, 0);
  const indices: number[] = [];
  for (let i = 0; i + 2 < n; i++) indices.push(i, i + 1, i + 2);
  return { positions, indices };
}

describe('splitPrimitives', () => {
  it('splits at the vertex budget, keeping every triangle, material and morph target', async () => {
    const { positions, indices } = grid(40);
    const { document, mesh, prim } = docWith(positions, indices);
    const mat = document.createMaterial('skin');
    prim.setMaterial(mat);
    const delta = new Float32Array(positions.length).map((_, i) => i);
    prim.addTarget(
      document
        .createPrimitiveTarget()
        .setAttribute('POSITION', document.createAccessor().setType('VEC3').setArray(delta)),
    );
    const before = triangleSet(prim);
    const warnings = new WarningCollector();
    await document.transform(splitPrimitives({ maxVertices: 10, warnings }));
    const prims = mesh.listPrimitives();
    expect(prims.length).toBeGreaterThan(3);
    for (const p of prims) {
      expect(p.getAttribute('POSITION')!.getCount()).toBeLessThanOrEqual(10);
      expect(p.getMaterial()).toBe(mat);
      // the target's delta for each vertex is its original index × 3 + component
      const pos = p.getAttribute('POSITION')!.getArray()!;
      const d = p.listTargets()[0].getAttribute('POSITION')!.getArray()!;
      for (let v = 0; v < pos.length / 3; v++) {
        const original = pos[v * 3] * 2 + pos[v * 3 + 1];
        expect(d[v * 3]).toBe(original * 3);
      }
    }
    expect(prims.flatMap((p) => triangleSet(p)).sort()).toEqual(before);
    expect(warnings.list()[0].code).toBe('PRIMITIVE_SPLIT');
  });

  it('splits at the bone palette: no part uses more than 4 joints', async () => {
    const { positions, indices } = grid(30);
    const { document, mesh, prim } = docWith(positions, indices);
    const n = 30;
    const j = new Uint16Array(n * 4);
    const w = new Float32Array(n * 4);
    for (let v = 0; v < n; v++) {
      j[v * 4] = v >> 2; // 8 joints in all
      w[v * 4] = 1;
    }
    prim.setAttribute('JOINTS_0', document.createAccessor().setType('VEC4').setArray(j));
    prim.setAttribute('WEIGHTS_0', document.createAccessor().setType('VEC4').setArray(w));
    expect(splitPrimitivesNeeded(document, 65535, 4)).toBe(true);
    await document.transform(splitPrimitives({ maxBonesPerDraw: 4 }));
    for (const p of mesh.listPrimitives()) {
      const used = new Set(Array.from(p.getAttribute('JOINTS_0')!.getArray()!).filter((_, i) => i % 4 === 0));
      expect(used.size).toBeLessThanOrEqual(4);
    }
    expect(mesh.listPrimitives().length).toBeGreaterThan(1);
  });

  it('property: any triangle list comes back as the same triangles within budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 3, max: 60 }),
        fc.integer({ min: 3, max: 20 }),
        fc.integer(),
        async (n, max, seed) => {
          let s = seed >>> 0;
          const rand = () => (s = (s * 1103515245 + 12345) >>> 0) % n;
          const positions = Array.from({ length: n * 3 }, (_, i) => i);
          const indices = Array.from({ length: 3 * (1 + (seed & 15)) }, rand);
          const { document, mesh, prim } = docWith(positions, indices);
          const before = triangleSet(prim);
          await document.transform(splitPrimitives({ maxVertices: max }));
          const after = mesh.listPrimitives();
          for (const p of after)
            expect(p.getAttribute('POSITION')!.getCount()).toBeLessThanOrEqual(Math.max(max, 3));
          expect(after.flatMap((p) => triangleSet(p)).sort()).toEqual(before);
        },
      ),
      { numRuns: 80 },
    );
  });
});
