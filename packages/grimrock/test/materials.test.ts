import { join } from 'node:path';
import {
  FormatError,
  keepTextureSource,
  MemoryResources,
  ResourceError,
  textureSourcePath,
  KeptBytesExtension,
} from '@gltf-legacy/core';
import { encodePng, encodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  corpusRoot,
  firstByteDiff,
  readBytes,
  TEST_ASSETS,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { type DefineMaterialExtras, legacyFormat, readMaterialsLua } from '../src/index.js';

const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);
const CRATE = readBytes(join(TEST_ASSETS, 'grimrock/crate.model'));
const enc = (s: string) => new TextEncoder().encode(s);

/** A 4×4 PNG with a colour per pixel (and an alpha channel when `alpha`). */
function png(seed: number, alpha = false): Uint8Array {
  const data = new Uint8Array(64);
  for (let i = 0; i < 16; i++)
    data.set([(i * 16 + seed) & 255, (seed * 7) & 255, 255 - i * 8, alpha && i % 2 ? 0 : 255], i * 4);
  return encodePng({ width: 4, height: 4, data });
}

const CRATE_LUA = `-- crate
defineMaterial{
\tname = "crate",
\tdiffuseMap = "mod_assets/textures/crate_dif.png",
\tnormalMap = "assets/textures/base_game_normal.tga",
\tdoubleSided = false,
\tlighting = true,
\talphaTest = false,
\tblendMode = "Opaque",
\ttextureAddressMode = "Wrap",
\tglossiness = 20,
\tdepthBias = 0,
\tshadeTex = "mod_assets/textures/shade.tga",
}
`;

async function importCrate(
  lua: string | Record<string, string>,
  extra: [string, Uint8Array][] = [],
  options = {},
) {
  const luaFiles = typeof lua === 'string' ? { 'mod_assets/scripts/materials.lua': lua } : lua;
  const resources = new MemoryResources([
    ['mod_assets/models/crate.model', CRATE],
    ...Object.entries(luaFiles).map(([k, v]) => [k, enc(v)] as [string, Uint8Array]),
    ['mod_assets/textures/crate_dif.png', png(1)],
    ...extra,
  ]);
  return legacyFormat.import(new Map([['crate.model', CRATE]]), {
    main: 'crate.model',
    resources,
    resourcePath: 'mod_assets/models/crate.model',
    ...options,
  });
}

const crateMaterial = (doc: Document) => doc.getRoot().listMaterials()[0];
const keptOf = (doc: Document) =>
  (crateMaterial(doc).getExtras().grimrock as { defineMaterial: DefineMaterialExtras }).defineMaterial;

const DDS_ENCODER = (() => {
  try {
    encodeTexture({ width: 4, height: 4, data: new Uint8Array(64) }, 'dds');
    return true;
  } catch {
    return false;
  }
})();

describe('material import: references found in Lua', () => {
  for (const [label, ref, code] of [
    ['a path climbing out of the root', '../../../../etc/passwd', 'PATH_ESCAPE'],
    ['an absolute path', '/etc/passwd', 'PATH_ESCAPE'],
    ['a drive path', 'C:\\\\Windows\\\\win.ini', 'PATH_ESCAPE'],
    ['a URI', 'http://example.com/x.dds', 'EXTERNAL_URI'],
  ] as const) {
    it(`${label} is a ResourceError ${code}`, async () => {
      const err = await importCrate(`defineMaterial{ name = "crate", diffuseMap = "${ref}" }`).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(ResourceError);
      expect(err.code).toBe(code);
      expect(err.message).toContain('mod_assets/scripts/materials.lua');
    });
  }

  it('a materials option that leaves the root is refused', async () => {
    const err = await importCrate(CRATE_LUA, [], { materials: '../secret.lua' }).catch((e) => e);
    expect(err).toBeInstanceOf(ResourceError);
    expect(err.code).toBe('PATH_ESCAPE');
  });
});

describe('material import: mapping', () => {
  it('maps the definition, falls back from .dds to the named file, keeps everything in extras', async () => {
    const { document, warnings } = await importCrate(CRATE_LUA);
    const m = crateMaterial(document);
    expect(m.getName()).toBe('crate');
    expect(m.getRoughnessFactor()).toBeCloseTo(Math.sqrt(2 / 22), 6);
    expect(m.getMetallicFactor()).toBe(0);
    expect(textureSourcePath(m.getBaseColorTexture()!)).toBe('mod_assets/textures/crate_dif.png');
    expect(warnings.filter((w) => w.code === 'TEXTURE_MISSING').map((w) => w.message)).toEqual([
      expect.stringContaining(
        'tried assets/textures/base_game_normal.dds, assets/textures/base_game_normal.tga',
      ),
    ]);
    const kept = keptOf(document);
    expect(kept.file).toBe('mod_assets/scripts/materials.lua');
    expect(kept.line).toBe(2);
    expect(kept.fields.find((f) => f.key === 'shadeTex')?.value).toBe('mod_assets/textures/shade.tga');
    expect(kept.textures).toEqual({ diffuseMap: 'mod_assets/textures/crate_dif.png', normalMap: null });
    const report = await validateGlb(await io.writeBinary(document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('blend modes, alpha test, lighting, clamp and emissive', async () => {
    const cases = [
      ['blendMode = "Additive"', 'BLEND'],
      ['blendMode = "Modulative"', 'BLEND'],
      ['blendMode = "Translucent", alphaTest = true', 'BLEND'],
      ['blendMode = "Opaque", alphaTest = true', 'MASK'],
      ['blendMode = "Opaque"', 'OPAQUE'],
    ] as const;
    for (const [fields, mode] of cases) {
      const { document } = await importCrate(`defineMaterial{ name = "crate", ${fields} }`);
      expect(crateMaterial(document).getAlphaMode(), fields).toBe(mode);
      if (mode === 'MASK') expect(crateMaterial(document).getAlphaCutoff()).toBe(0.5);
    }
    const { document, warnings } = await importCrate(
      'defineMaterial{ name = "crate", lighting = false, doubleSided = true, textureAddressMode = "Clamp", emissiveMap = "mod_assets/textures/crate_dif.tga", diffuseMap = "mod_assets/textures/crate_dif.tga" }',
      [
        [
          'mod_assets/textures/crate_dif.dds',
          readBytes(
            join(
              corpusRoot(),
              'textured/grimrock/eob1-waterdeep/mod_assets/plugins/skeleton_warrior_axe/textures/corrupt_great_axe_dif.dds',
            ),
          ),
        ],
      ],
    );
    const m = crateMaterial(document);
    expect(warnings).toEqual([]);
    expect(m.getExtension('KHR_materials_unlit')).not.toBeNull();
    expect(m.getDoubleSided()).toBe(true);
    expect(m.getBaseColorTextureInfo()!.getWrapS()).toBe(33071);
    expect(m.getEmissiveTexture()).toBe(m.getBaseColorTexture()); // one texture for one file
    expect(m.getEmissiveFactor()).toEqual([1, 1, 1]);
    expect(document.getRoot().listTextures()).toHaveLength(1);
    const { warnings: w2 } = await importCrate(
      'defineMaterial{ name = "crate", textureAddressMode = "Mirror" }',
    );
    expect(w2.map((w) => w.code)).toEqual(['MATERIAL_VALUE_UNKNOWN']);
  });

  it('a name with no definition is MATERIAL_MISSING; a broken discovered file is a warning, a broken option file an error', async () => {
    const { warnings } = await importCrate('defineMaterial{ name = "other" }');
    expect(warnings.map((w) => w.code)).toEqual(['MATERIAL_MISSING']);
    expect(warnings[0].message).toContain('"crate"');
    const r = await importCrate({
      'mod_assets/scripts/broken.lua': 'defineMaterial{ name = ',
      'mod_assets/scripts/materials.lua': CRATE_LUA,
    });
    expect(r.warnings.map((w) => w.code)).toContain('MATERIAL_FILE_INVALID');
    expect(r.document.getRoot().listTextures()).toHaveLength(1);
    const err = await importCrate(
      { 'mod_assets/scripts/materials.lua': CRATE_LUA, 'extra/broken.lua': 'defineMaterial{ x = {' },
      [],
      { materials: 'extra/broken.lua' },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.code).toBe('LUA_SYNTAX');
  });

  it('Lua files are bounded in count, size and total size', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [
        `mod_assets/scripts/m${i}.lua`,
        `defineMaterial{ name = "crate", glossiness = ${i} }`,
      ]),
    );
    const limited = await importCrate(many, [], { maxLuaFiles: 3 });
    expect(limited.warnings.map((w) => w.code)).toContain('MATERIAL_FILES_LIMITED');
    expect(keptOf(limited.document).file).toBe('mod_assets/scripts/m2.lua');
    const big = await importCrate(many, [], { maxLuaBytes: 10 });
    expect(big.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['MATERIAL_FILE_SKIPPED', 'MATERIAL_MISSING']),
    );
    const total = await importCrate(many, [], { maxTotalLuaBytes: 100 });
    expect(total.warnings.filter((w) => w.code === 'MATERIAL_FILE_SKIPPED').length).toBeGreaterThan(0);
    expect(keptOf(total.document).file).toBe('mod_assets/scripts/m1.lua');
  });

  it('the materials option overrides the mod scripts', async () => {
    const { document } = await importCrate(
      {
        'mod_assets/scripts/materials.lua': CRATE_LUA,
        'mine/override.lua': 'defineMaterial{ name = "crate", glossiness = 90 }',
      },
      [],
      { materials: ['mine/override.lua'] },
    );
    expect(crateMaterial(document).getRoughnessFactor()).toBeCloseTo(Math.sqrt(2 / 92), 6);
    expect(keptOf(document).file).toBe('mine/override.lua');
  });
});

describe('material export', () => {
  async function roundTrip(doc: Document) {
    const back = await io.readBinary(await io.writeBinary(doc));
    return { back, ...(await legacyFormat.export!(back, { name: 'crate' })) };
  }

  it('unchanged: the definition text and the texture bytes come back', async () => {
    const { document } = await importCrate(CRATE_LUA);
    const { files, warnings } = await roundTrip(document);
    expect(warnings).toEqual([]);
    expect([...files.keys()].sort()).toEqual([
      'crate.model',
      'crate_materials.lua',
      'mod_assets/textures/crate_dif.png',
    ]);
    expect(firstByteDiff(files.get('crate.model')!, CRATE)).toBe(-1);
    expect(firstByteDiff(files.get('mod_assets/textures/crate_dif.png')!, png(1))).toBe(-1);
    const lua = readMaterialsLua(files.get('crate_materials.lua')!, 'crate_materials.lua');
    expect(lua.definitions.map((d) => d.text)).toEqual([readMaterialsLua(CRATE_LUA).definitions[0].text]);
  });

  it('edited values are written as new fields; untouched fields stay as written', async () => {
    const { document } = await importCrate(CRATE_LUA);
    const m = crateMaterial(document);
    m.setRoughnessFactor(0.25).setAlphaMode('BLEND').setDoubleSided(true).setNormalTexture(null);
    m.setName('crate');
    const { files } = await roundTrip(document);
    const def = readMaterialsLua(files.get('crate_materials.lua')!).definitions[0];
    expect(def).toMatchObject({
      name: 'crate',
      diffuseMap: 'mod_assets/textures/crate_dif.png',
      normalMap: 'assets/textures/base_game_normal.tga', // missing at import: kept
      glossiness: 30,
      blendMode: 'Translucent',
      alphaTest: false,
      doubleSided: true,
      textureAddressMode: 'Wrap',
      lighting: true,
    });
    expect(def.fields.find((f) => f.key === 'shadeTex')?.value).toBe('mod_assets/textures/shade.tga');
    // A texture found at import and removed since is removed from the Lua.
    const { document: d2 } = await importCrate(CRATE_LUA);
    crateMaterial(d2).setBaseColorTexture(null);
    const { files: f2 } = await roundTrip(d2);
    const def2 = readMaterialsLua(f2.get('crate_materials.lua')!).definitions[0];
    expect(def2.diffuseMap).toBeUndefined();
    expect([...f2.keys()].some((k) => k.endsWith('.png'))).toBe(false);
  });

  it('a kept texture path that leaves the output folder is not used as a file key', async () => {
    const { document } = await importCrate(CRATE_LUA);
    const t = crateMaterial(document).getBaseColorTexture()!;
    await keepTextureSource(t, '../../evil.png', png(1));
    const { files, warnings } = await legacyFormat.export!(document, { name: 'crate' });
    expect(warnings.map((w) => w.code)).toContain('TEXTURE_PATH_REFUSED');
    for (const k of files.keys()) expect(k.split('/')).not.toContain('..');
  });

  it('kept Lua from a .glb is written only when it is one definition of its fields', async () => {
    const { document } = await importCrate(CRATE_LUA);
    const m = crateMaterial(document);
    const kept = keptOf(document);
    const evil = `${kept.text}\nos.execute("rm -rf /")`;
    m.setExtras({
      grimrock: {
        defineMaterial: {
          ...kept,
          text: evil,
          fields: [
            ...kept.fields,
            { key: 'depthBias', value: { lua: '0 } os.execute("x") defineMaterial{ name = "y"' } },
          ],
        },
      },
    });
    const { files, warnings } = await legacyFormat.export!(document, { name: 'crate' });
    expect(warnings.map((w) => w.code)).toContain('MATERIAL_FIELD_DROPPED');
    const text = new TextDecoder().decode(files.get('crate_materials.lua')!);
    expect(text).not.toContain('os.execute');
    const lua = readMaterialsLua(text);
    expect(lua.definitions.map((d) => d.name)).toEqual(['crate']);
    expect(lua.definitions[0].glossiness).toBe(20);
    // A kept expression that is one expression is written back as it was.
    m.setExtras({
      grimrock: {
        defineMaterial: {
          ...kept,
          fields: [...kept.fields, { key: 'x', value: { lua: 'base .. "a.tga"' } }],
        },
      },
    });
    const again = await legacyFormat.export!(document, { name: 'crate' });
    expect(new TextDecoder().decode(again.files.get('crate_materials.lua')!)).toContain(
      '\tx = base .. "a.tga",',
    );
  });

  it.runIf(DDS_ENCODER)('an edited image is written as DDS at the path the Lua names', async () => {
    const { document } = await importCrate(CRATE_LUA);
    const t = crateMaterial(document).getBaseColorTexture()!;
    t.setImage(png(99, true));
    const { files } = await roundTrip(document);
    const dds = files.get('mod_assets/textures/crate_dif.dds')!;
    expect(new TextDecoder().decode(dds.subarray(0, 4))).toBe('DDS ');
    const def = readMaterialsLua(files.get('crate_materials.lua')!).definitions[0];
    expect(def.diffuseMap).toBe('mod_assets/textures/crate_dif.png');
    const resources = new MemoryResources([...files, ['mod_assets/models/crate.model', CRATE]]);
    const again = await legacyFormat.import(new Map([['crate.model', CRATE]]), {
      main: 'crate.model',
      resources,
      resourcePath: 'crate.model',
      materials: 'crate_materials.lua',
    });
    const back = crateMaterial(again.document).getBaseColorTexture()!;
    expect(textureSourcePath(back)).toBe('mod_assets/textures/crate_dif.dds');
    expect(fromGltfImage(back.getImage()!, 'image/png').width).toBe(4);
  });
});
