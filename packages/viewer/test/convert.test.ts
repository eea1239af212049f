import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  addToPool,
  convertModel,
  exportModel,
  exportTargets,
  type FilePool,
  listModels,
  modelBase,
} from '../src/convert.js';
import { FORMATS, formatById, sniff } from '../src/registry.js';
import { corpusNamed } from './helpers.js';

const named = (paths: string[]): [string, Uint8Array][] =>
  paths.map((p) => [p.slice(p.lastIndexOf('/') + 1), readBytes(p)]);

describe('browser conversion layer (runs in Node too)', () => {
  test('registry holds the five formats; sniffing is by bytes, not names', () => {
    expect(FORMATS.map((f) => f.id).sort()).toEqual(['grimrock', 'tso', 'unigine', 'unreal3d', 'urho3d']);
    const [jack] = corpusNamed('urho', ['Jack.mdl']);
    const kind = sniff(readBytes(jack), 'renamed.bin');
    expect(typeof kind === 'object' && kind.id).toBe('urho3d');
    expect(
      exportTargets()
        .map((f) => f.id)
        .sort(),
    ).toEqual(['grimrock', 'tso', 'unigine', 'unreal3d', 'urho3d']);
  });

  test('Jack.mdl + Jack_Walk.ani: one model, the .ani is its companion; .glb validates', async () => {
    const pool: FilePool = new Map();
    addToPool(pool, named(corpusNamed('urho', ['Jack_Walk.ani', 'Jack.mdl'])));
    expect(listModels(pool)).toEqual([{ name: 'Jack.mdl', format: 'urho3d' }]);
    const m = await convertModel(pool, 'Jack.mdl');
    expect(m.files).toEqual(['Jack.mdl', 'Jack_Walk.ani']);
    expect(m.stats.animations).toBe(1);
    expect(m.stats.joints).toBeGreaterThan(10);
    const report = await validateGlb(m.glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    // the .glb is what NodeIO reads back, with the same counts
    const back = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(m.glb);
    expect(back.getRoot().listAnimations()).toHaveLength(1);
  });

  test('a .pak is unpacked into the pool and its models listed', () => {
    const pool: FilePool = new Map();
    const added = addToPool(pool, named(corpusNamed('urho', ['Data_299299.pak'])));
    expect(added.length).toBeGreaterThan(1);
    expect(pool.has('Data_299299.pak')).toBe(false);
    const models = listModels(pool);
    expect(models.length).toBeGreaterThan(0);
    // models and the prefabs/scenes (Objects/*.xml, Scenes/*.xml) that convert on their own
    for (const m of models) expect(m.name.toLowerCase(), m.name).toMatch(/\.(mdl|xml)$/);
    expect(models.some((m) => m.name.toLowerCase().endsWith('.mdl'))).toBe(true);
  });

  test('a Grimrock .dat mod archive: unpacked into the pool, its model converts with its textures (issue 27)', async () => {
    const pool: FilePool = new Map();
    const dat = join(import.meta.dirname, '../../../test-assets/grimrock/crate_mod/crate_mod.dat');
    addToPool(pool, [['crate_mod.dat', readBytes(dat)]]);
    expect(pool.has('crate_mod.dat')).toBe(false);
    expect(listModels(pool)).toEqual([{ name: 'mod_assets/models/crate.model', format: 'grimrock' }]);
    const m = await convertModel(pool, 'mod_assets/models/crate.model');
    const report = await validateGlb(m.glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const back = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(m.glb);
    // base colour and specular from the archive's DDS (the normal map is a base-game file)
    expect(back.getRoot().listTextures()).toHaveLength(2);
  });

  test('export to every legacy format from an imported Unreal model (files named after the model)', async () => {
    const pool: FilePool = new Map();
    addToPool(pool, named(corpusNamed('unreal3d', ['Skull_d.3d', 'Skull_a.3d', 'Skull.uc'])));
    const m = await convertModel(pool, 'Skull_d.3d');
    expect(m.files.sort()).toEqual(['Skull.uc', 'Skull_a.3d', 'Skull_d.3d']);
    const base = modelBase(m.name, formatById(m.format));
    expect(base).toBe('Skull');
    const outcomes: Record<string, string> = {};
    for (const f of exportTargets()) {
      try {
        const { files } = await exportModel(m.document, f.id, base);
        const main = [...files.keys()].find((n) => n.toLowerCase().endsWith(f.mainExtension.toLowerCase()));
        expect(main, `${f.id}: ${[...files.keys()]}`).toBeDefined();
        const kind = sniff(files.get(main as string) as Uint8Array, main as string);
        expect(typeof kind === 'object' && kind.id).toBe(f.id);
        outcomes[f.id] = 'ok';
      } catch (e) {
        // a format that cannot hold the model must say so with a coded error
        expect((e as { code?: string }).code, `${f.id}: ${(e as Error).message}`).toBeTruthy();
        outcomes[f.id] = (e as { code: string }).code;
      }
    }
    expect(outcomes.unreal3d).toBe('ok');
    expect(outcomes.urho3d).toBe('ok');
    // exporting did not change the shown document
    expect((await convertModel(pool, 'Skull_d.3d')).stats).toEqual(m.stats);
  });

  test('a UE1 package (.u) opens as its meshes: each listed, converted with its skin, 0 validator errors', async () => {
    const pool: FilePool = new Map();
    const pkgs = corpusNamed('archives', ['HeadHunter.u', 'KillConfirmed.u', 'Gibber.u']);
    addToPool(pool, named(pkgs));
    expect(listModels(pool)).toEqual([
      { name: 'Skull_d.3d', format: 'unreal3d' },
      { name: 'dogTag_d.3d', format: 'unreal3d' },
    ]);
    for (const name of ['Skull_d.3d', 'dogTag_d.3d']) {
      const m = await convertModel(pool, name);
      expect(
        m.warnings.map((w) => w.code),
        name,
      ).not.toContain('TEXTURE_MISSING');
      expect(m.document.getRoot().listTextures(), name).toHaveLength(1);
      const report = await validateGlb(m.glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    }
  });

  test('the five format packages use no Node APIs (they run in the browser unchanged)', () => {
    const root = join(import.meta.dirname, '../..');
    const offenders: string[] = [];
    for (const id of ['grimrock', 'tso', 'unigine', 'unreal3d', 'urho3d']) {
      const dir = join(root, id, 'src');
      for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
        const src = readFileSync(join(dir, f), 'utf8');
        if (/from 'node:|require\(|\bBuffer\.|\bprocess\./.test(src)) offenders.push(`${id}/src/${f}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  test('glTF inputs: a multi-buffer .gltf becomes one .glb; Draco/meshopt files give COMPRESSION_UNSUPPORTED', async () => {
    const pool: FilePool = new Map();
    addToPool(pool, named(corpusNamed('gltf', ['SimpleSkin.gltf', 'BoxMeshopt.glb'])));
    const skin = await convertModel(pool, 'SimpleSkin.gltf');
    expect(skin.stats.joints).toBe(2);
    const report = await validateGlb(skin.glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    await expect(convertModel(pool, 'BoxMeshopt.glb')).rejects.toMatchObject({
      code: 'COMPRESSION_UNSUPPORTED',
    });
  });
});
