/**
 * The shared export stage in the Grimrock exporter (issue 17): on every file of corpus/gltf the
 * export reports exactly the stage codes `prepare(document, GRIMROCK_LIMITS)` reports (the
 * Grimrock slice of tools/export-matrix), strips come out as the same triangles, and every code
 * the package emits is listed once (core's shared table or the package's own).
 */
import { join } from 'node:path';
import { Primitive } from '@gltf-transform/core';
import { Document } from '@gltf-transform/core';
import { SHARED_WARNING_CODES } from '@gltf-legacy/core';
import { TEST_ASSETS, emittedWarningCodes, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  exportGrimrock,
  GRIMROCK_LIMITS,
  importGrimrock,
  legacyFormat,
  readModel,
  WARNING_CODES,
} from '../src/index.js';

describe('shared export stage', () => {
  it('legacyFormat declares GRIMROCK_LIMITS', () => {
    expect(legacyFormat.limits).toBe(GRIMROCK_LIMITS);
    expect(GRIMROCK_LIMITS.modes).toEqual([Primitive.Mode.TRIANGLES]);
    expect(GRIMROCK_LIMITS.maxInfluences).toBe(4);
    expect(GRIMROCK_LIMITS.animation).toEqual({ sampling: 'grid', fps: 30, interpolations: ['LINEAR'] });
  });

  it('the package lists only codes core does not', () => {
    for (const code of Object.keys(WARNING_CODES))
      expect(Object.keys(SHARED_WARNING_CODES), code).not.toContain(code);
    // every code the sources emit is in one of the two tables
    const emitted = emittedWarningCodes(new URL('../src/', import.meta.url));
    expect(emitted.size).toBeGreaterThan(20);
    for (const code of emitted)
      expect(code in WARNING_CODES || code in SHARED_WARNING_CODES, code).toBe(true);
  });

  it('a triangle strip becomes the same triangles (PRIMITIVE_TRIANGULATED, from the stage)', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]));
    const red = doc.createMaterial('red');
    const strip = doc
      .createPrimitive()
      .setMode(Primitive.Mode.TRIANGLE_STRIP)
      .setAttribute('POSITION', pos)
      .setMaterial(red);
    doc.createScene().addChild(doc.createNode('quad').setMesh(doc.createMesh('quad').addPrimitive(strip)));
    const { files, warnings, materials } = await exportGrimrock(doc, { name: 'q' });
    // the stage mapped a clone; the materials named are the caller's own
    expect(materials).toEqual([red]);
    expect(warnings.map((w) => w.code)).toContain('PRIMITIVE_TRIANGULATED');
    const mesh = readModel(files.get('q.model')!).nodes.find((n) => n.meshEntity)!.meshEntity!.mesh;
    // glTF strip (0 1 2) (2 1 3), winding reversed for the X mirror: (0 2 1) (2 3 1)
    expect(Array.from(mesh.indices)).toEqual([0, 2, 1, 2, 3, 1]);
    expect(mesh.segments[0].count).toBe(2);
    // the caller's document is untouched
    expect(strip.getMode()).toBe(Primitive.Mode.TRIANGLE_STRIP);
  });

  it('clips of different rates (24 and 30 fps) each keep their rate and bytes', async () => {
    const lever = (n: string) => readBytes(join(TEST_ASSETS, 'grimrock', n));
    const files = new Map([
      ['lever.model', lever('lever.model')],
      ['lever_pull.animation', lever('lever_pull.animation')], // v1, 30 fps
      ['lever_push.animation', lever('lever_push.animation')], // v2, 24 fps
    ]);
    const { document } = importGrimrock(files, { main: 'lever.model' });
    const { files: out, warnings } = await exportGrimrock(document, { name: 'lever' });
    expect(warnings.map((w) => w.code)).not.toContain('ANIMATION_RESAMPLED');
    for (const name of ['lever.model', 'lever_pull.animation', 'lever_push.animation'])
      expect(firstByteDiff(out.get(name)!, files.get(name)!), name).toBe(-1);
  });
  // Every corpus/gltf file against prepare(limits): tools/export-matrix, for all five formats at once.
});
