import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { textureSourcePath, KeptBytesExtension } from '@gltf-legacy/core';
import { decodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  corpusFiles,
  corpusRoot,
  firstByteDiff,
  folderResources,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS, type Specular } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  type DefineMaterialExtras,
  exportGrimrockWithMaterials,
  grimrockCompanions,
  importGrimrockWithMaterials,
  legacyFormat,
  readMaterialsLua,
} from '../src/index.js';

const ROOT = join(corpusRoot(), 'textured/grimrock/eob1-waterdeep');
const MOD = join(ROOT, 'mod_assets');
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);
const models = corpusFiles('textured/grimrock', ['.model']);
const resources = folderResources(ROOT);
const LUA = readMaterialsLua(readBytes(join(MOD, 'scripts/materials.lua')), 'materials.lua');
const PLUGIN_LUA = readMaterialsLua(
  readBytes(join(MOD, 'plugins/skeleton_warrior_axe/skeleton_warrior_axe.lua')),
  'skeleton_warrior_axe.lua',
);
const allDefinitions = [...LUA.definitions, ...PLUGIN_LUA.definitions];

async function importModel(path: string) {
  const name = basename(path);
  const files = new Map([[name, readBytes(path)]]);
  const dir = join(path, '..');
  const siblings = corpusFiles('textured/grimrock', ['.animation']).filter(
    (p) => join(p, '..', '..') === join(dir, '..'),
  );
  for (const c of grimrockCompanions(
    name,
    siblings.map((p) => basename(p)),
  ))
    files.set(c, readBytes(siblings.find((p) => basename(p) === c)!));
  const resourcePath = relative(ROOT, path).split('\\').join('/');
  return { files, ...(await legacyFormat.import(files, { main: name, resources, resourcePath })) };
}

/**
 * One import (and one .glb) per model for the whole file: importing a textured model encodes every
 * DDS as a PNG and computes its lossless-rebuild residual, ~1 s of CPU for the slug, and several
 * tests read the same model. The tests only read the document (they write it, or export the copy
 * read back from the .glb), so sharing it changes nothing they assert.
 */
const imports = new Map<string, ReturnType<typeof importModel>>();
function importOnce(path: string): ReturnType<typeof importModel> {
  let p = imports.get(path);
  if (!p) imports.set(path, (p = importModel(path)));
  return p;
}
const glbs = new Map<string, Promise<Uint8Array>>();
function glbOnce(path: string): Promise<Uint8Array> {
  let p = glbs.get(path);
  if (!p) glbs.set(path, (p = importOnce(path).then(({ document }) => io.writeBinary(document))));
  return p;
}

describe('textured grimrock: import with defineMaterial and DDS', () => {
  it('has the textured models', () => {
    expect(models.map((p) => basename(p)).sort()).toEqual([
      'door_portcullis.model',
      'rusted_great_axe.model',
      'skeleton_warrior_axe.model',
      'slug.model',
      'snail_red.model',
    ]);
  });

  for (const path of models) {
    it(`${basename(path)}: valid .glb whose base colour textures are the DDS pixels`, async () => {
      const { warnings } = await importOnce(path);
      const glb = await glbOnce(path);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const back = await io.readBinary(glb);
      const codes = warnings.map((w) => w.code);
      let textured = 0;
      for (const material of back.getRoot().listMaterials()) {
        const def = allDefinitions.find((d) => d.name === material.getName());
        if (!def) {
          expect(codes).toContain('MATERIAL_MISSING');
          continue;
        }
        const kept = (material.getExtras().grimrock as { defineMaterial: DefineMaterialExtras })
          .defineMaterial;
        expect(kept.text).toBe(def.text);
        expect(material.getMetallicFactor()).toBe(0);
        const texture = material.getBaseColorTexture();
        if (!texture) continue;
        textured++;
        const dds = join(ROOT, textureSourcePath(texture)!);
        expect(dds.endsWith('.dds')).toBe(true);
        const expected = decodeTexture(readBytes(dds), dds);
        const got = fromGltfImage(texture.getImage()!, texture.getMimeType());
        expect([got.width, got.height]).toEqual([expected.width, expected.height]);
        expect(firstByteDiff(got.data, expected.data)).toBe(-1);
      }
      if (basename(path) !== 'door_portcullis.model') expect(textured).toBeGreaterThan(0);
    });
  }

  it('slug: the whole definition maps to glTF', async () => {
    const { document, warnings } = await importOnce(join(MOD, 'models/monsters/slug.model'));
    const mat = document
      .getRoot()
      .listMaterials()
      .find((m) => m.getName() === 'basic_slug_material')!;
    expect(mat.getRoughnessFactor()).toBeCloseTo(Math.sqrt(2 / 52), 6);
    expect(mat.getAlphaMode()).toBe('OPAQUE');
    expect(mat.getDoubleSided()).toBe(false);
    expect(mat.getBaseColorTextureInfo()!.getWrapS()).toBe(10497);
    const spec = mat.getExtension<Specular>('KHR_materials_specular')!;
    expect(textureSourcePath(spec.getSpecularColorTexture()!)).toBe(
      'mod_assets/textures/monsters/slug_spec.dds',
    );
    expect(mat.getNormalTexture()).toBeNull();
    const missing = warnings.filter((w) => w.code === 'TEXTURE_MISSING').map((w) => w.message);
    expect(missing).toEqual([
      expect.stringContaining(
        'normalMap: texture not found (tried mod_assets/textures/monsters/slug_normal.dds, mod_assets/textures/monsters/slug_normal.tga)',
      ),
    ]);
    const kept = (mat.getExtras().grimrock as { defineMaterial: DefineMaterialExtras }).defineMaterial;
    expect(kept.file).toBe('mod_assets/scripts/materials.lua');
    expect(kept.textures).toEqual({
      diffuseMap: 'mod_assets/textures/monsters/slug_dif.dds',
      specularMap: 'mod_assets/textures/monsters/slug_spec.dds',
      normalMap: null,
    });
  });

  it('snail_red: base-game textures the mod does not ship are TEXTURE_MISSING', async () => {
    const { warnings } = await importOnce(join(MOD, 'models/monsters/snail_red.model'));
    const messages = warnings.filter((w) => w.code === 'TEXTURE_MISSING').map((w) => w.message);
    expect(messages.some((m) => m.includes('assets/textures/monsters/snail_spec.dds'))).toBe(true);
    expect(messages.some((m) => m.includes('assets/textures/monsters/snail_normal.dds'))).toBe(true);
  });

  it('the plugin material of rusted_great_axe comes from the plugin .lua', async () => {
    const { document } = await importOnce(
      join(MOD, 'plugins/skeleton_warrior_axe/models/rusted_great_axe.model'),
    );
    const mat = document
      .getRoot()
      .listMaterials()
      .find((m) => m.getName() === 'rusted_great_axe')!;
    const kept = (mat.getExtras().grimrock as { defineMaterial: DefineMaterialExtras }).defineMaterial;
    expect(kept.file).toBe('mod_assets/plugins/skeleton_warrior_axe/skeleton_warrior_axe.lua');
    expect(textureSourcePath(mat.getBaseColorTexture()!)).toBe(
      'mod_assets/plugins/skeleton_warrior_axe/textures/corrupt_great_axe_dif.dds',
    );
  });

  it('without resources nothing is read and no warning is added', async () => {
    const path = join(MOD, 'models/monsters/slug.model');
    const { document, warnings } = await importGrimrockWithMaterials(
      new Map([['slug.model', readBytes(path)]]),
      {
        main: 'slug.model',
      },
    );
    expect(document.getRoot().listTextures()).toHaveLength(0);
    expect(warnings.map((w) => w.code)).not.toContain('MATERIAL_MISSING');
  });
});

describe('textured grimrock: legacy → .glb on disk → legacy', () => {
  const out = mkdtempSync(join(tmpdir(), 'grimrock-textured-'));
  for (const path of models) {
    it(`${basename(path)}: model, textures and definitions come back byte for byte`, async () => {
      const { files } = await importOnce(path);
      const glbPath = join(out, `${basename(path)}.glb`);
      writeFileSync(glbPath, await glbOnce(path));
      const back = await io.readBinary(new Uint8Array(readFileSync(glbPath)));
      const name = basename(path).replace(/\.model$/, '');
      const { files: written, warnings } = await exportGrimrockWithMaterials(back, { name });
      expect(warnings.map((w) => w.code)).not.toContain('TEXTURE_DROPPED');
      for (const [n, bytes] of files) expect(firstByteDiff(written.get(n)!, bytes), n).toBe(-1);
      // Every texture embedded at import is written at its path, identical to the game's file.
      const textures = back.getRoot().listTextures();
      for (const t of textures) {
        const key = textureSourcePath(t)!;
        expect(firstByteDiff(written.get(key)!, readBytes(join(ROOT, key))), key).toBe(-1);
      }
      // The definitions: the exported Lua holds, for each material the model uses, exactly the
      // source text of its defineMaterial call.
      const lua = readMaterialsLua(written.get(`${name}_materials.lua`)!, `${name}_materials.lua`);
      for (const def of lua.definitions) {
        const original = allDefinitions.find((d) => d.name === def.name);
        if (original) expect(def.text).toBe(original.text);
      }
      const segmentMaterials = new Set(
        back
          .getRoot()
          .listMaterials()
          .map((m) => m.getName()),
      );
      expect(new Set(lua.definitions.map((d) => d.name))).toEqual(segmentMaterials);
      for (const k of written.keys()) expect(k.split('/')).not.toContain('..');
    });
  }
});
