import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.js';

const quiet = { out: () => {}, err: () => {} };

describe.skipIf(!hasCorpus('textured'))('Urho3D export flags', () => {
  it('--pak lz4 packs the prefab, model, material and texture into one ULZ4 package that converts back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-pak-'));
    const prefab = join(corpusRoot(), 'textured/urho/Urho3D/bin/Data/Objects/SnowCrate.xml');
    expect(await main(['node', 'gltf-legacy', 'convert', prefab, '-o', join(dir, 'crate.glb')], quiet)).toBe(
      0,
    );
    const args = ['node', 'gltf-legacy', 'convert', join(dir, 'crate.glb'), '--to', 'urho3d'];
    expect(await main([...args, '-o', join(dir, 'pak', 'SnowCrate.xml'), '--pak', 'lz4'], quiet)).toBe(0);
    const pak = join(dir, 'pak', 'SnowCrate.pak');
    expect(existsSync(pak)).toBe(true);
    expect(new TextDecoder().decode(readFileSync(pak).subarray(0, 4))).toBe('ULZ4');
    const text = readFileSync(pak, 'latin1');
    for (const entry of [
      'Objects/SnowCrate.xml',
      'Materials/NinjaSnowWar/SnowCrate.xml',
      'Textures/NinjaSnowWar/SnowCrate.dds',
    ])
      expect(text, entry).toContain(entry);
    expect(await main([...args, '-o', join(dir, 'bad', 'x.xml'), '--pak', 'zip'], quiet)).toBe(2);
    expect(await main([...args, '-o', join(dir, 'bad', 'x.xml'), '--texture-format', 'gif'], quiet)).toBe(2);
  });
});
