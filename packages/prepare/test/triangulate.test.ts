import { Primitive } from '@gltf-transform/core';
import { WarningCollector } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { triangulate, triangulateNeeded } from '../src/index.js';
import { docWith, triangleSet } from './helpers.js';

// A quad as a strip (0,1,2,3) and as a fan: both are the two triangles of the list below.
const QUAD = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];

describe('triangulate', () => {
  it('rewrites a non-indexed strip as the same triangles, keeping every vertex', async () => {
    const { document, prim } = docWith(QUAD, undefined, Primitive.Mode.TRIANGLE_STRIP);
    const warnings = new WarningCollector();
    expect(triangulateNeeded(document, [Primitive.Mode.TRIANGLES])).toBe(true);
    await document.transform(triangulate({ warnings }));
    expect(prim.getMode()).toBe(Primitive.Mode.TRIANGLES);
    expect(Array.from(prim.getIndices()!.getArray()!)).toEqual([0, 1, 2, 2, 1, 3]);
    expect(prim.getAttribute('POSITION')!.getCount()).toBe(4);
    expect(warnings.list().map((w) => w.code)).toEqual(['PRIMITIVE_TRIANGULATED']);
  });

  it('rewrites an indexed fan as a list with the same winding', async () => {
    const { document, prim } = docWith(QUAD, [0, 1, 3, 2], Primitive.Mode.TRIANGLE_FAN);
    await document.transform(triangulate());
    const list = docWith(QUAD, [0, 1, 3, 0, 3, 2]).prim;
    expect(triangleSet(prim)).toEqual(triangleSet(list));
  });

  it('drops points and lines (one PRIMITIVE_DROPPED each) and unhooks a mesh left empty', async () => {
    const { document, node } = docWith(QUAD, undefined, Primitive.Mode.LINES);
    const warnings = new WarningCollector();
    await document.transform(triangulate({ warnings }));
    expect(node.getMesh()).toBeNull();
    expect(warnings.list()).toEqual([expect.objectContaining({ code: 'PRIMITIVE_DROPPED', count: 1 })]);
  });

  it('keeps what the format stores natively, and reports nothing to do', async () => {
    const { document, prim } = docWith(QUAD, undefined, Primitive.Mode.TRIANGLE_STRIP);
    const modes = [Primitive.Mode.TRIANGLES, Primitive.Mode.TRIANGLE_STRIP];
    expect(triangulateNeeded(document, modes)).toBe(false);
    await document.transform(triangulate({ modes }));
    expect(prim.getMode()).toBe(Primitive.Mode.TRIANGLE_STRIP);
  });

  it('makes a strip of fewer than 3 vertices an empty triangle list (no RangeError)', async () => {
    const { document, prim } = docWith([0, 0, 0, 1, 0, 0], undefined, Primitive.Mode.TRIANGLE_STRIP);
    const warnings = new WarningCollector();
    await document.transform(triangulate({ warnings }));
    expect(prim.getMode()).toBe(Primitive.Mode.TRIANGLES);
    expect(prim.getIndices()!.getCount()).toBe(0);
    expect(warnings.has('PRIMITIVE_TRIANGULATED')).toBe(true);
  });
});
