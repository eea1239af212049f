import { join } from 'node:path';
import { corpusRoot, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { readAniv } from '../src/aniv.js';
import { exportUnreal } from '../src/export.js';
import { importUnrealFiles } from '../src/index.js';
import { parseUc, ucMesh } from '../src/uc.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const dir = join(corpusRoot(), 'unreal3d');
const boxFiles = () =>
  new Map([
    ['box_d.3d', readBytes(join(dir, 'box_d.3d'))],
    ['box_a.3d', readBytes(join(dir, 'box_a.3d'))],
    ['box.uc', readBytes(join(dir, 'box.uc'))],
  ]);

describe('variants and encodings', () => {
  it('box: standard → Deus Ex keeps every frame (×32/×64, scale compensated) and comes back identical', async () => {
    const { document } = await importUnrealFiles(boxFiles(), { main: 'box_d.3d' });
    const doc = await io.readBinary(await io.writeBinary(document));
    const dx = await exportUnreal(doc, { name: 'box', variant: 'deusex' });
    const aniv = readAniv(dx.files.get('box_a.3d') as Uint8Array, 'box_a.3d', { numVertices: 8 });
    expect(aniv.layout).toBe('deusex');
    expect(aniv.numFrames).toBe(30);
    const uc = ucMesh(parseUc(new TextDecoder().decode(dx.files.get('box.uc'))), 'box');
    expect(uc.scale).toEqual([0.1 / 32, 0.1 / 32, 0.2 / 64]);
    expect(uc.sequences.map((s) => [s.name, s.numFrames])).toEqual([['All', 30]]);
    // And back to the standard layout: byte-identical to the corpus files.
    const { document: dxDoc } = await importUnrealFiles(dx.files, { main: 'box_d.3d' });
    const std = await exportUnreal(dxDoc, { name: 'box', variant: 'standard' });
    expect(std.warnings).toEqual([]);
    expect(
      firstByteDiff(std.files.get('box_a.3d') as Uint8Array, boxFiles().get('box_a.3d') as Uint8Array),
    ).toBe(-1);
    expect(
      firstByteDiff(std.files.get('box_d.3d') as Uint8Array, boxFiles().get('box_d.3d') as Uint8Array),
    ).toBe(-1);
  });
  it('a latin1 .uc comes back byte-identical', async () => {
    const files = boxFiles();
    const uc = files.get('box.uc') as Uint8Array;
    const latin = new Uint8Array([...new TextEncoder().encode('// Modèle créé\r\n'), ...uc]);
    latin[6] = 0xe8; // 'è' in latin1 (invalid as UTF-8)
    const fixed = new Uint8Array([...latin.subarray(0, 7), ...latin.subarray(8)]);
    files.set('box.uc', fixed);
    const { document } = await importUnrealFiles(files, { main: 'box_d.3d' });
    const out = await exportUnreal(await io.readBinary(await io.writeBinary(document)), { name: 'box' });
    expect(firstByteDiff(out.files.get('box.uc') as Uint8Array, fixed)).toBe(-1);
  });
  it('renaming an animation renames the MESH SEQUENCE (frames unchanged)', async () => {
    const { document } = await importUnrealFiles(boxFiles(), { main: 'box_d.3d' });
    document.getRoot().listAnimations()[0].setName('Spin Around');
    const out = await exportUnreal(document, { name: 'box' });
    const uc = ucMesh(parseUc(new TextDecoder().decode(out.files.get('box.uc'))), 'box');
    expect(uc.sequences.map((s) => [s.name, s.startFrame, s.numFrames])).toEqual([['Spin_Around', 0, 30]]);
    expect(
      firstByteDiff(out.files.get('box_a.3d') as Uint8Array, boxFiles().get('box_a.3d') as Uint8Array),
    ).toBe(-1);
  });
});
