import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ExportError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { exportUnreal } from '../src/export.js';
import { legacyFormat } from '../src/index.js';
import { parseUc, ucMesh, ucMeshNames } from '../src/uc.js';

describe('corpus .uc and other files', () => {
  const ucs = corpusFiles('unreal3d', ['.uc']);
  it('finds the 12 class files', () => expect(ucs.length).toBe(12));
  for (const path of ucs) {
    it(`${basename(path)}: every uncommented MESH SEQUENCE is found`, () => {
      const text = readFileSync(path, 'utf8');
      const uc = parseUc(text);
      const names = ucMeshNames(uc);
      expect(names.length).toBeGreaterThan(0);
      const expected = text.split(/\r?\n/).filter((l) => /^\s*#exec\s+mesh\s+sequence/i.test(l)).length;
      expect(names.reduce((n, m) => n + ucMesh(uc, m).sequences.length, 0)).toBe(expected);
      expect(legacyFormat.sniff(readBytes(path), basename(path))).toBe(false);
    });
  }
  it('Sporifier.uc imports two meshes with five sequences each', () => {
    const uc = parseUc(readFileSync(ucs.find((p) => p.endsWith('Sporifier.uc')) as string, 'utf8'));
    expect(ucMeshNames(uc)).toEqual(['Sporifier', 'Sporifier3P']);
    expect(
      ucMesh(uc, 'Sporifier3P').sequences.map((s) => [s.name, s.startFrame, s.numFrames, s.rate]),
    ).toEqual([
      ['All', 0, 73, 35],
      ['Still', 0, 1, 1],
      ['Fire', 0, 23, 30],
      ['Down', 23, 21, 55],
      ['Select', 44, 28, 55],
    ]);
    expect(ucMesh(uc, 'Sporifier').scale).toEqual([0.3, 0.3, 0.6]);
  });
  it('mar_rifle.source.txt is not a model', () => {
    const [txt] = corpusFiles('unreal3d', ['.source.txt']);
    expect(legacyFormat.sniff(readBytes(txt), basename(txt))).toBe(false);
  });
});

describe('export limits', () => {
  it('more than 16383 vertices is a TOO_MANY_VERTICES ExportError (u16 frameSize)', async () => {
    const doc = new Document();
    const n = 16384 * 3;
    const pos = new Float32Array(n * 3);
    for (let i = 0; i < pos.length; i++) pos[i] = (i * 7919) % 1000;
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos));
    doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
    const err = await exportUnreal(doc, { name: 'big', weld: false }).catch((e) => e);
    expect(err).toBeInstanceOf(ExportError);
    expect(err.code).toBe('TOO_MANY_VERTICES');
    expect(err.message).toMatch(/16383/);
  });
  it('an unknown variant is a BAD_OPTION ExportError', async () => {
    const doc = new Document();
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(9)));
    doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
    await expect(exportUnreal(doc, { variant: 'log2' as 'deusex' })).rejects.toMatchObject({
      code: 'BAD_OPTION',
    });
  });
});
