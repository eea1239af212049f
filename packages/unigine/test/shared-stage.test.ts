/**
 * The shared export stage in the UNIGINE exporter (issue 17): on every file of corpus/gltf the
 * export reports exactly the stage codes `prepare(document, UNIGINE_LIMITS)` reports (the UNIGINE
 * slice of tools/export-matrix), strips come out as the same triangles, and every code the package emits is listed once
 * (core's shared table or the package's own `WARNING_CODES`).
 */
import { emittedWarningCodes } from '@gltf-legacy/test-utils';
import { Document, Primitive } from '@gltf-transform/core';
import { SHARED_WARNING_CODES } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { exportUnigine, legacyFormat, readMesh, UNIGINE_LIMITS, WARNING_CODES } from '../src/index.js';

describe('shared export stage', () => {
  it('legacyFormat declares UNIGINE_LIMITS', () => {
    expect(legacyFormat.limits).toBe(UNIGINE_LIMITS);
    expect(UNIGINE_LIMITS.modes).toEqual([Primitive.Mode.TRIANGLES]);
    expect(UNIGINE_LIMITS.maxInfluences).toBe(4);
    expect(UNIGINE_LIMITS.nodeTree).toBe(false);
    expect(UNIGINE_LIMITS.animation).toEqual({
      sampling: 'grid',
      fps: 30,
      interpolations: ['LINEAR', 'STEP'],
    });
  });

  it('the package lists only codes core does not, and every code it emits', () => {
    for (const code of Object.keys(WARNING_CODES))
      expect(Object.keys(SHARED_WARNING_CODES), code).not.toContain(code);
    const emitted = emittedWarningCodes(new URL('../src/', import.meta.url));
    expect(emitted.size).toBeGreaterThan(25);
    for (const code of emitted)
      expect(code in WARNING_CODES || code in SHARED_WARNING_CODES, code).toBe(true);
    // the retired names of steps the stage now names
    expect(emitted.has('PRIMITIVE_SKIPPED')).toBe(false);
  });

  it('a triangle strip becomes the same triangles (PRIMITIVE_TRIANGULATED, from the stage)', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]));
    const strip = doc.createPrimitive().setMode(Primitive.Mode.TRIANGLE_STRIP).setAttribute('POSITION', pos);
    const points = doc.createPrimitive().setMode(Primitive.Mode.POINTS).setAttribute('POSITION', pos);
    const mesh = doc.createMesh('quad').addPrimitive(strip).addPrimitive(points);
    doc.createScene().addChild(doc.createNode('quad').setMesh(mesh));
    const { files, warnings } = await exportUnigine(doc, { name: 'q' });
    const codes = warnings.map((w) => w.code);
    expect(codes).toContain('PRIMITIVE_TRIANGULATED');
    expect(codes).toContain('PRIMITIVE_DROPPED');
    const s = readMesh(files.get('q.mesh')!).surfaces;
    expect(s.length).toBe(1);
    // glTF strip (0 1 2) (2 1 3) in file axes (x, −z, y): corners as positions
    const p = s[0].targets[0];
    const corner = (c: number) => [p[c * 3], p[c * 3 + 2]].join(',');
    const tris = [];
    for (let i = 0; i < s[0].coordIndices.length; i += 3)
      tris.push([0, 1, 2].map((k) => corner(s[0].coordIndices[i + k])));
    expect(tris).toEqual([
      ['0,0', '1,0', '0,1'],
      ['0,1', '1,0', '1,1'],
    ]);
    // the caller's document is untouched
    expect(strip.getMode()).toBe(Primitive.Mode.TRIANGLE_STRIP);
    expect(mesh.listPrimitives().length).toBe(2);
  });
  // Every corpus/gltf file against prepare(limits): tools/export-matrix, for all five formats at once.
});
