import { join } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusRoot, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  decodeLuaString,
  formatDefineMaterial,
  glossinessToRoughness,
  grimrockModRoot,
  luaString,
  readMaterialsLua,
  roughnessToGlossiness,
  writeMaterialsLua,
} from '../src/index.js';

const MOD = join(corpusRoot(), 'textured/grimrock/eob1-waterdeep/mod_assets');
const materialsLua = () => readBytes(join(MOD, 'scripts/materials.lua'));
const pluginLua = () => readBytes(join(MOD, 'plugins/skeleton_warrior_axe/skeleton_warrior_axe.lua'));

describe('readMaterialsLua: the real files', () => {
  it('reads every defineMaterial of materials.lua with its fields, and writes the bytes back', () => {
    const bytes = materialsLua();
    const file = readMaterialsLua(bytes, 'mod_assets/scripts/materials.lua');
    expect(file.definitions).toHaveLength(30);
    expect(file.skipped).toEqual([]);
    expect(file.encoding).toBe('utf8');
    const slug = file.definitions.find((d) => d.name === 'basic_slug_material')!;
    expect(slug).toMatchObject({
      diffuseMap: 'mod_assets/textures/monsters/slug_dif.tga',
      specularMap: 'mod_assets/textures/monsters/slug_spec.tga',
      normalMap: 'mod_assets/textures/monsters/slug_normal.tga',
      doubleSided: false,
      lighting: true,
      alphaTest: false,
      blendMode: 'Opaque',
      textureAddressMode: 'Wrap',
      glossiness: 50,
      depthBias: 0,
    });
    expect(slug.fields.map((f) => f.key)).toEqual([
      'name',
      'diffuseMap',
      'specularMap',
      'normalMap',
      'doubleSided',
      'lighting',
      'alphaTest',
      'blendMode',
      'textureAddressMode',
      'glossiness',
      'depthBias',
    ]);
    expect(slug.text.startsWith('defineMaterial{\n\tname = "basic_slug_material",')).toBe(true);
    expect(slug.text.endsWith('depthBias = 0,\n}')).toBe(true);
    expect(new TextDecoder().decode(bytes).slice(slug.start, slug.end)).toBe(slug.text);
    // Commented-out fields are not fields.
    const portal = file.definitions.find((d) => d.name === 'eob_dwarven_wall_portal')!;
    expect(portal.diffuseMap).toBeUndefined();
    expect(portal.normalMap).toBe('mod_assets/textures/env/eob_dwarven_wall_portal_normal.tga');
    expect(file.definitions.filter((d) => d.blendMode === 'Translucent').map((d) => d.name)).toEqual([
      'eob_sewers_glowing_red',
      'giant_spider_web',
      'giant_spider_web_broken',
    ]);
    expect(firstByteDiff(writeMaterialsLua(file), bytes)).toBe(-1);
  });

  it('skips defineObject and defineAnimationEvent in a plugin file', () => {
    const bytes = pluginLua();
    const file = readMaterialsLua(bytes, 'skeleton_warrior_axe.lua');
    expect(file.definitions.map((d) => d.name)).toEqual(['rusted_great_axe']);
    expect(file.definitions[0].line).toBe(120);
    expect(file.definitions[0].glossiness).toBe(35);
    expect(firstByteDiff(writeMaterialsLua(file), bytes)).toBe(-1);
  });
});

describe('readMaterialsLua: Lua forms and hostile text', () => {
  it('keeps other fields, expressions and nested tables; reads defineMaterial(...) and calls in loops', () => {
    const text = [
      'local base = "mod_assets/textures/"',
      'defineMaterial({ name = "a", diffuseMap = base .. "a.tga", glossiness = -2, shadeTex = "x.tga",',
      '  shadeTexAngle = 0.5, ["odd key"] = { 1, 2, k = false }, [3] = nil })',
      'for i = 1, 2 do defineMaterial{ name = "loop", blendMode = [[Additive]] } end',
      'defineMaterial(someTable)',
      "defineMaterial{ name = 'q\\\"\\65\\n' }",
    ].join('\n');
    const file = readMaterialsLua(text, 'forms.lua');
    expect(file.definitions.map((d) => d.name)).toEqual(['a', 'loop', 'q"A\n']);
    expect(file.skipped).toEqual([5]);
    const a = file.definitions[0];
    expect(a.diffuseMap).toBeUndefined();
    expect(a.fields[1]).toEqual({ key: 'diffuseMap', value: { lua: 'base .. "a.tga"' } });
    expect(a.glossiness).toBe(-2);
    expect(a.fields.find((f) => f.key === 'odd key')?.value).toEqual({
      table: [
        { key: null, value: 1 },
        { key: null, value: 2 },
        { key: 'k', value: false },
      ],
    });
    expect(a.fields.find((f) => f.key === 3)?.value).toBeNull();
    expect(file.definitions[1].blendMode).toBe('Additive');
    // Generated text reads back to the same fields.
    const again = readMaterialsLua(formatDefineMaterial(a.fields), 'again.lua');
    expect(again.definitions[0].fields).toEqual(a.fields);
  });

  it('a syntax error is a FormatError LUA_SYNTAX naming the line', () => {
    const err = (() => {
      try {
        readMaterialsLua('defineMaterial{\n  name = "x",\n  glossiness = ,\n}', 'bad.lua');
      } catch (e) {
        return e as FormatError;
      }
    })();
    expect(err).toBeInstanceOf(FormatError);
    expect(err!.code).toBe('LUA_SYNTAX');
    expect(err!.field).toBe('line 3');
    expect(err!.message).toContain('bad.lua');
  });

  it('bounds text size, nesting and definition count', () => {
    expect(() => readMaterialsLua('defineMaterial{}'.repeat(10), 'n.lua', { maxDefinitions: 5 })).toThrow(
      expect.objectContaining({ code: 'COUNT_TOO_LARGE' }),
    );
    expect(() =>
      readMaterialsLua(`-- defineMaterial\n${' '.repeat(100)}`, 'big.lua', { maxLength: 50 }),
    ).toThrow(expect.objectContaining({ code: 'LUA_TOO_LARGE' }));
    const deep = `defineMaterial{ name = "d", x = ${'{'.repeat(100_000)}${'}'.repeat(100_000)} }`;
    expect(() => readMaterialsLua(deep, 'deep.lua')).toThrow(FormatError);
    // Tables deeper than 32 levels are kept as their source text.
    const d40 = `defineMaterial{ name = "d", x = ${'{'.repeat(40)}${'}'.repeat(40)} }`;
    const def = readMaterialsLua(d40, 'd40.lua').definitions[0];
    expect(JSON.stringify(def.fields[1].value)).toContain('"lua":"{{{{{{{{');
  });

  it('keeps Latin-1 bytes exactly', () => {
    const bytes = Uint8Array.from([
      ...new TextEncoder().encode('-- caf'),
      0xe9,
      0x80,
      0x0a,
      ...new TextEncoder().encode('defineMaterial{ name = "m" }\n'),
    ]);
    const file = readMaterialsLua(bytes, 'latin1.lua');
    expect(file.encoding).toBe('latin1');
    expect(file.definitions[0].name).toBe('m');
    expect(firstByteDiff(writeMaterialsLua(file), bytes)).toBe(-1);
  });
});

describe('material value mapping', () => {
  it('glossiness ⇄ roughness', () => {
    expect(glossinessToRoughness(undefined)).toBe(1);
    expect(glossinessToRoughness(0)).toBe(1);
    expect(glossinessToRoughness(30)).toBeCloseTo(0.25, 6);
    expect(glossinessToRoughness(5)).toBeCloseTo(Math.sqrt(2 / 7), 6);
    for (const g of [0, 5, 20, 25, 30, 35, 40, 50, 70, 80, 90])
      expect(roughnessToGlossiness(glossinessToRoughness(g))).toBe(g);
  });

  it('Lua strings quote and decode back', () => {
    for (const s of ['plain', 'say "hi"', 'a\\b', 'tab\tnew\nline', 'é', '\u0001'])
      expect(decodeLuaString(luaString(s))).toBe(s);
  });

  it('resource root: the folder holding mod_assets, else the model folder', () => {
    expect(grimrockModRoot('/m/eob/mod_assets/models/monsters/slug.model')).toBe('/m/eob');
    expect(grimrockModRoot('eob/Mod_Assets/plugins/x/models/a.model')).toBe('eob');
    expect(grimrockModRoot('mod_assets/a.model')).toBe('');
    expect(grimrockModRoot('out/hero.model')).toBe('out');
  });
});
