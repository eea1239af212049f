import { KeptBytesExtension } from '@gltf-legacy/core';
import { join } from 'node:path';
import {
  TEST_ASSETS,
  firstByteDiff,
  folderResources,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { decodeTexture } from '@gltf-legacy/textures';
import { type Material, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, type EmissiveStrength } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

const dir = join(TEST_ASSETS, 'unigine');
const io = new NodeIO().registerExtensions([...ALL_EXTENSIONS, KeptBytesExtension]);

async function importTwoSurfaces() {
  const files = new Map([['two_surfaces.mesh', readBytes(join(dir, 'two_surfaces.mesh'))]]);
  return legacyFormat.import(files, {
    main: 'two_surfaces.mesh',
    resources: folderResources(dir),
    resourcePath: 'two_surfaces.mesh',
  });
}

const byName = (ms: Material[], n: string) => {
  const m = ms.find((x) => x.getName() === n);
  if (!m) throw new Error(`no material ${n}`);
  return m;
};

describe('test-assets/unigine/two_surfaces.mat (scripts/make-material-assets.mjs)', () => {
  it('maps colours, gloss, the DXT1 texture, alpha test, blend, emission and two-sided', async () => {
    const { document, warnings } = await importTwoSurfaces();
    const mats = document.getRoot().listMaterials();
    const floor = byName(mats, 'floor');
    expect(floor.getBaseColorFactor()).toEqual([0.5, 0.75, 1, 1]);
    expect(floor.getRoughnessFactor()).toBe(0.75);
    expect(floor.getMetallicFactor()).toBe(0);
    expect(floor.getAlphaMode()).toBe('MASK');
    expect(floor.getAlphaCutoff()).toBe(0.5);
    const tex = floor.getBaseColorTexture();
    if (!tex) throw new Error('no texture');
    const rgba = decodeTexture(tex.getImage() as Uint8Array, 'x.png');
    const dds = decodeTexture(readBytes(join(dir, 'textures/floor_d.dds')), 'floor_d.dds');
    expect(firstByteDiff(rgba.data, dds.data)).toBe(-1);
    // DXT1 reference values: 565 colours expand to full 8-bit red/blue/green/white, index 1 of
    // (white, black) is black and index 2 is 2/3 of the way to white.
    const px = (x: number, y: number) => Array.from(rgba.data.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 4));
    expect([rgba.width, rgba.height]).toEqual([8, 8]);
    expect(px(0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(4, 0)).toEqual([0, 0, 255, 255]);
    expect(px(0, 4)).toEqual([0, 255, 0, 255]);
    expect(px(4, 4)).toEqual([255, 255, 255, 255]);
    expect(px(5, 4)).toEqual([0, 0, 0, 255]);
    expect(px(6, 4)[0]).toBeGreaterThanOrEqual(169);
    expect(px(6, 4)[0]).toBeLessThanOrEqual(171);
    const sign = byName(mats, 'sign');
    expect(sign.getAlphaMode()).toBe('BLEND');
    expect(sign.getDoubleSided()).toBe(true);
    expect(sign.getEmissiveFactor()).toEqual([1, 0.5, 0]);
    expect(
      sign.getExtension<EmissiveStrength>('KHR_materials_emissive_strength')?.getEmissiveStrength(),
    ).toBe(2);
    // the engine's mesh_base is not in the folder
    expect(warnings.map((w) => [w.code, w.count])).toEqual([
      ['MATERIAL_MISSING', 1],
      ['MATERIAL_MISSING', 1],
    ]);
    expect(warnings[0].message).toContain('inherits from "mesh_base"');
    const report = await validateGlb(await io.writeBinary(document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('→ .glb on disk → back: mesh, .mat and texture byte for byte', async () => {
    const { document } = await importTwoSurfaces();
    const back = await io.readBinary(await io.writeBinary(document));
    const out = await legacyFormat.export?.(back, { name: 'two_surfaces' });
    if (!out) throw new Error('no export');
    expect([...out.files.keys()].sort()).toEqual([
      'textures/floor_d.dds',
      'two_surfaces.mat',
      'two_surfaces.mesh',
    ]);
    for (const f of out.files.keys())
      expect(firstByteDiff(out.files.get(f) as Uint8Array, readBytes(join(dir, f))), f).toBe(-1);
    expect(out.warnings).toEqual([]);
  });

  it('an edited colour rewrites only that parameter; the texture stays the original file', async () => {
    const { document } = await importTwoSurfaces();
    byName(document.getRoot().listMaterials(), 'floor').setBaseColorFactor([1, 1, 1, 1]);
    const out = await legacyFormat.export?.(document, { name: 'two_surfaces' });
    if (!out) throw new Error('no export');
    const original = new TextDecoder().decode(readBytes(join(dir, 'two_surfaces.mat')));
    expect(new TextDecoder().decode(out.files.get('two_surfaces.mat'))).toBe(
      original.replace('0.5 0.75 1 1', '1 1 1 1'),
    );
    expect(
      firstByteDiff(
        out.files.get('textures/floor_d.dds') as Uint8Array,
        readBytes(join(dir, 'textures/floor_d.dds')),
      ),
    ).toBe(-1);
  });
});
