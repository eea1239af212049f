import { basename } from 'node:path';
import { corpusFiles, readBytes, loadWithThree } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { readAni, writeAni } from '../src/ani.js';
import { readMdl } from '../src/mdl.js';

const dir = (f: string) => f.slice(0, f.lastIndexOf('/'));
const mdls = corpusFiles('urho', ['.mdl']);
const anis = corpusFiles('urho', ['.ani']);

function filesFor(main: string) {
  const siblings = [...mdls, ...anis].map((f) => basename(f));
  const comps = legacyFormat.companions!(basename(main), siblings);
  const files = new Map<string, Uint8Array>([[basename(main), readBytes(main)]]);
  for (const c of comps) files.set(c, readBytes(`${dir(main)}/${c}`));
  return files;
}

describe('Jack in three.js', () => {
  it('Jack.mdl + Jack_Walk.ani loads as a skinned, animated character', async () => {
    const jack = mdls.find((f) => basename(f) === 'Jack.mdl')!;
    const files = filesFor(jack);
    expect([...files.keys()]).toEqual(['Jack.mdl', 'Jack_Walk.ani']);
    const { document } = await legacyFormat.import(files, { main: 'Jack.mdl' });
    const glb = await new NodeIO().registerExtensions(legacyFormat.gltfExtensions).writeBinary(document);
    const gltf = await loadWithThree(glb);
    const skinned: any[] = [];
    gltf.scene.traverse((o: any) => {
      if (o.isSkinnedMesh) skinned.push(o);
    });
    expect(skinned.length).toBeGreaterThan(0);
    expect(skinned[0].skeleton.bones.length).toBe(readMdl(readBytes(jack)).bones.length);
    expect(gltf.animations.length).toBe(1);
    const ani = readAni(files.get('Jack_Walk.ani')!);
    expect(gltf.animations[0].duration).toBeCloseTo(ani.length, 3);
  });
});

describe('inspect', () => {
  it('summarises a model, an animation and a package', () => {
    const jack = mdls.find((f) => basename(f) === 'Jack.mdl')!;
    const s = legacyFormat.inspect!(new Map([['Jack.mdl', readBytes(jack)]]), { main: 'Jack.mdl' });
    expect(s[0].facts).toMatchObject({
      magic: 'UMDL',
      vertices: 4640,
      geometries: 2,
      lodLevels: 14,
      bones: 67,
    });
    const walk = anis.find((f) => basename(f) === 'Jack_Walk.ani')!;
    const a = legacyFormat.inspect!(new Map([['Jack_Walk.ani', readBytes(walk)]]));
    expect(a[0].facts).toMatchObject({ name: 'Walk', tracks: 54, keys: 1728 });
    const pak = corpusFiles('urho', ['.pak']).find((f) => basename(f) === 'Data_299299.pak')!;
    const p = legacyFormat.inspect!(new Map([['Data.pak', readBytes(pak)]]));
    expect(p[0].facts).toMatchObject({ magic: 'ULZ4', entries: 156 });
    expect(p[1].rows!.length).toBe(156);
  });
  it('sniffs by magic, not extension', () => {
    const jack = mdls.find((f) => basename(f) === 'Jack.mdl')!;
    expect(legacyFormat.sniff(readBytes(jack), 'whatever.bin')).toBe(true);
    expect(legacyFormat.sniff(new TextEncoder().encode('glTF....'), 'x.mdl')).toBe(false);
  });
});

describe('companions that do not fit', () => {
  it('an animation naming no bone of the model is a warning, not an error', async () => {
    const jack = mdls.find((f) => basename(f) === 'Jack.mdl')!;
    const mutant = anis.find((f) => basename(f) === 'Mutant_Run.ani')!;
    const files = new Map([
      ['Jack.mdl', readBytes(jack)],
      ['Mutant_Run.ani', readBytes(mutant)],
    ]);
    const { document, warnings } = await legacyFormat.import(files, { main: 'Jack.mdl' });
    const codes = warnings.map((w) => w.code);
    expect(codes).toContain('ANIMATION_DROPPED');
    expect(codes).toContain('ANIMATION_TRACK_UNMATCHED');
    expect(document.getRoot().listAnimations().length).toBe(0);
  });
  it('a partially matching animation keeps the matching tracks and warns about the rest', async () => {
    const jack = mdls.find((f) => basename(f) === 'Jack.mdl')!;
    const walk = readAni(readBytes(anis.find((f) => basename(f) === 'Jack_Walk.ani')!));
    for (const t of walk.tracks.slice(0, 3)) t.name = `NoSuchBone_${t.name}`;
    const { document, warnings } = await legacyFormat.import(
      new Map([
        ['Jack.mdl', readBytes(jack)],
        ['Jack_Walk.ani', writeAni(walk)],
      ]),
      { main: 'Jack.mdl' },
    );
    const w = warnings.find((x) => x.code === 'ANIMATION_TRACK_UNMATCHED')!;
    expect(w.message).toMatch(/^3 track\(s\)/);
    const targets = new Set(
      document
        .getRoot()
        .listAnimations()[0]
        .listChannels()
        .map((c) => c.getTargetNode()!.getName()),
    );
    expect(targets.size).toBe(51);
  });
});
