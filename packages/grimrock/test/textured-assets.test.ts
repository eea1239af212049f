import { join } from 'node:path';
import { textureSourcePath, KeptBytesExtension } from '@gltf-legacy/core';
import { decodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  firstByteDiff,
  folderResources,
  readBytes,
  TEST_ASSETS,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS, type Specular } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readMaterialsLua } from '../src/index.js';

const ROOT = join(TEST_ASSETS, 'grimrock/crate_mod');
const MODEL = 'mod_assets/models/crate.model';
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);

describe('test-assets/grimrock/crate_mod (a mod folder made by make-textured-assets.mjs)', () => {
  it('resourceRoot is the folder holding mod_assets', () => {
    expect(legacyFormat.resourceRoot!(join(ROOT, MODEL).split('\\').join('/'))).toBe(
      ROOT.split('\\').join('/'),
    );
  });

  it('imports textured, validates, and exports back byte for byte', async () => {
    const bytes = readBytes(join(ROOT, MODEL));
    const { document, warnings } = await legacyFormat.import(new Map([['crate.model', bytes]]), {
      main: 'crate.model',
      resources: folderResources(ROOT),
      resourcePath: MODEL,
    });
    expect(warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'TEXTURE_MISSING',
        'material "crate" (mod_assets/scripts/materials.lua line 10) normalMap: texture not found (tried assets/textures/common/crate_normal.dds, assets/textures/common/crate_normal.tga)',
      ],
    ]);
    const m = document.getRoot().listMaterials()[0];
    const base = m.getBaseColorTexture()!;
    expect(textureSourcePath(base)).toBe('mod_assets/textures/crate_dif.dds');
    const want = decodeTexture(readBytes(join(ROOT, 'mod_assets/textures/crate_dif.dds')));
    expect(firstByteDiff(fromGltfImage(base.getImage()!, 'image/png').data, want.data)).toBe(-1);
    expect(
      textureSourcePath(m.getExtension<Specular>('KHR_materials_specular')!.getSpecularColorTexture()!),
    ).toBe('mod_assets/textures/crate_spec.dds');
    const glb = await io.writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const { files } = await legacyFormat.export!(await io.readBinary(glb), { name: 'crate' });
    expect([...files.keys()].sort()).toEqual([
      'crate.model',
      'crate_materials.lua',
      'mod_assets/textures/crate_dif.dds',
      'mod_assets/textures/crate_spec.dds',
    ]);
    expect(firstByteDiff(files.get('crate.model')!, bytes)).toBe(-1);
    for (const k of ['mod_assets/textures/crate_dif.dds', 'mod_assets/textures/crate_spec.dds'])
      expect(firstByteDiff(files.get(k)!, readBytes(join(ROOT, k))), k).toBe(-1);
    const source = readMaterialsLua(readBytes(join(ROOT, 'mod_assets/scripts/materials.lua')));
    const written = readMaterialsLua(files.get('crate_materials.lua')!);
    expect(written.definitions.map((d) => d.text)).toEqual([source.definitions[0].text]);
  });
});
