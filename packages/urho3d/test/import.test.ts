import { basename } from 'node:path';
import { corpusFiles, readBytes, loadWithThree } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { readAni } from '../src/ani.js';
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
    const glb = await new NodeIO().writeBinary(document);
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
