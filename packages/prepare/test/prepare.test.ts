import { Primitive } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { LEGACY_LIMITS_DEFAULTS, dequantizeAttributes, prepare, stageWarningCodes } from '../src/index.js';
import { docWith } from './helpers.js';

describe('prepare', () => {
  it('returns the caller’s document itself when nothing needs changing (no clone, no warning)', async () => {
    const { document } = docWith([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
    const result = await prepare(document, LEGACY_LIMITS_DEFAULTS);
    expect(result.document).toBe(document);
    expect(result.changed).toBe(false);
    expect(result.warnings.size).toBe(0);
  });

  it('works on a clone: the caller’s strip stays a strip, the result is a list', async () => {
    const { document, prim } = docWith(
      [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0],
      undefined,
      Primitive.Mode.TRIANGLE_STRIP,
    );
    const result = await prepare(document, { nodeTree: false });
    expect(prim.getMode()).toBe(Primitive.Mode.TRIANGLE_STRIP);
    expect(result.document).not.toBe(document);
    expect(result.steps).toEqual(['triangulate']);
    const out = result.document.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(out.getMode()).toBe(Primitive.Mode.TRIANGLES);
    expect(result.warnings.list().map((w) => w.code)).toEqual(['PRIMITIVE_TRIANGULATED']);
  });

  it('dequantizes normalized SHORT positions to their float values', async () => {
    const { document, prim } = docWith([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    prim
      .getAttribute('POSITION')!
      .setArray(new Int16Array([0, 0, 0, 32767, 0, 0, 0, -32767, 0]))
      .setNormalized(true);
    await document.transform(dequantizeAttributes());
    expect(Array.from(prim.getAttribute('POSITION')!.getArray()!)).toEqual([0, 0, 0, 1, 0, 0, 0, -1, 0]);
  });

  it('stageWarningCodes keeps the distinct stage codes, sorted, and nothing else', () => {
    const list = [
      { code: 'WEIGHTS_TRUNCATED' },
      { code: 'TEXTURE_MISSING' },
      { code: 'ANIMATION_RESAMPLED' },
      { code: 'WEIGHTS_TRUNCATED' },
    ];
    expect(stageWarningCodes(list)).toEqual(['ANIMATION_RESAMPLED', 'WEIGHTS_TRUNCATED']);
  });
});

describe('prepare: callerMaterial', () => {
  it('maps a material of the prepared clone back to the caller’s own', async () => {
    const { document, prim } = docWith(
      [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0],
      undefined,
      Primitive.Mode.TRIANGLE_STRIP,
    );
    const a = document.createMaterial('a');
    const b = document.createMaterial('b');
    prim.setMaterial(b);
    const result = await prepare(document, {});
    const cloned = result.document.getRoot().listMeshes()[0].listPrimitives()[0].getMaterial();
    expect(cloned).not.toBe(b);
    expect(result.callerMaterial(cloned)).toBe(b);
    expect(result.callerMaterial(null)).toBeNull();
    expect((await prepare(docWith([0, 0, 0, 1, 0, 0, 0, 1, 0]).document, {})).callerMaterial(a)).toBe(a);
  });
});
