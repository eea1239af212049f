import { join } from 'node:path';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { inspectFile } from '../src/inspect.js';

const T = () => join(corpusRoot(), 'textured');

describe.skipIf(!hasCorpus('textured'))('inspect lists materials with the textures they resolved', () => {
  it('an Unreal mesh: the skin found through Classes/*.uc', async () => {
    const report = await inspectFile(join(T(), 'unreal3d/MushMatch/Models/Sporifier_d.3d'));
    const materials = report.sections.find((s) => s.title === 'Materials');
    expect(materials?.columns?.slice(0, 3)).toEqual(['material', 'alpha', 'base colour']);
    expect(materials?.rows?.map((r) => String(r[2]))).toContain('Textures/JSporifier.pcx');
    expect(report.sections.find((s) => s.title === 'Not found')).toBeUndefined();
  });

  it('a Grimrock model: resolved DDS files, and the base-game textures it could not find', async () => {
    const report = await inspectFile(
      join(T(), 'grimrock/eob1-waterdeep/mod_assets/models/monsters/snail_red.model'),
    );
    const rows = report.sections.find((s) => s.title === 'Materials')?.rows ?? [];
    expect(rows.map((r) => [r[0], r[2]])).toEqual([
      ['snair', 'mod_assets/textures/monsters/snail_red_dif.dds'],
      ['snair_shell', 'mod_assets/textures/monsters/snail_red_dif.dds'],
    ]);
    const missing = report.sections.find((s) => s.title === 'Not found')?.rows ?? [];
    expect(missing.map((r) => r[0])).toEqual(Array(4).fill('TEXTURE_MISSING'));
    expect(missing.map((r) => String(r[2])).join('\n')).toContain('assets/textures/monsters/snail_spec.dds');
  });
});

describe.skipIf(!hasCorpus('textured'))('--material and --materials reach the importers', () => {
  it('urho3d: --material picks the material XML of a lone .mdl', async () => {
    const { main } = await import('../src/index.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-material-'));
    const out = join(dir, 'm.glb');
    const args = [
      'node',
      'gltf-legacy',
      'convert',
      join(T(), 'urho/Urho3D/bin/Data/Models/Mushroom.mdl'),
      '-o',
      out,
    ];
    const code = await main([...args, '--material', 'Materials/NinjaSnowWar/SnowCrate.xml'], {
      out: () => {},
      err: () => {},
    });
    expect(code).toBe(0);
    const rows = (await inspectFile(out)).sections.find((s) => s.title === 'Materials')?.rows ?? [];
    expect(rows.map((r) => [r[0], r[2]])).toEqual([['SnowCrate', 'Textures/NinjaSnowWar/SnowCrate.dds']]);
  });
});
