import { basename, join } from 'node:path';
import {
  corpusFiles,
  corpusRoot,
  firstByteDiff,
  folderResources,
  hasCorpus,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  type TsoSkeleton,
  legacyFormat,
  readAnimation,
  writeAnimation,
  writeSkeleton,
} from '../src/index.js';
import { syntheticAdultSkeleton } from './fixtures.js';

/**
 * The six real TSO animations of the FreeSO content tree (no real skeleton ships with them: the
 * skeleton is our synthetic adult one plus every other bone the animation names, under ROOT).
 */
const AVATAR = 'textured/tso/FreeSO/TSOClient/FSO.Content.TSO/Content/Avatar';
const anims = corpusFiles(`${AVATAR}/Animations`, ['.anim']);
const io = new NodeIO();

function skeletonFor(boneNames: string[]): TsoSkeleton {
  const s = syntheticAdultSkeleton();
  const have = new Set(s.bones.map((b) => b.name.toLowerCase()));
  for (const name of boneNames) {
    if (have.has(name.toLowerCase())) continue;
    have.add(name.toLowerCase());
    s.bones.push({
      ...s.bones[1],
      name,
      parentName: 'ROOT',
      translation: new Float32Array([0, 0.25, 0]),
      rotation: new Float32Array([0, 0, 0, 1]),
    });
  }
  return s;
}

async function validGlb(doc: Parameters<NodeIO['writeBinary']>[0]) {
  const glb = await io.writeBinary(doc);
  const report = await validateGlb(glb);
  expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  return io.readBinary(glb);
}

describe.skipIf(!hasCorpus(AVATAR))('real TSO animations (textured/tso Animations/*.anim)', () => {
  it('has the 6 animations', () => expect(anims.length).toBe(6));

  it.each(anims.map((f) => [basename(f), f]))('%s parses and writes back byte-identical', (name, f) => {
    const bytes = readBytes(f);
    const anim = readAnimation(bytes, name);
    expect(anim.version).toBe(2);
    expect(anim.motions.length).toBeGreaterThan(20);
    expect(firstByteDiff(writeAnimation(anim), bytes)).toBe(-1);
    expect(legacyFormat.sniff(bytes, name)).toBe(true);
  });

  it.each(anims.map((f) => [basename(f), f]))(
    '%s without a mesh: valid .glb, one channel set per motion, the same .anim back',
    async (name, f) => {
      const bytes = readBytes(f);
      const anim = readAnimation(bytes, name);
      const { document, warnings } = await legacyFormat.import(new Map([[name, bytes]]), { main: name });
      expect(warnings).toEqual([]);
      const back = await validGlb(document);
      const a = back.getRoot().listAnimations()[0];
      expect(a.getName()).toBe(anim.name);
      const keyed = anim.motions.filter((m) => m.frameCount > 0);
      expect(a.listChannels().length).toBe(
        keyed.reduce((s, m) => s + (m.hasTranslation ? 1 : 0) + (m.hasRotation ? 1 : 0), 0),
      );
      const { files } = await legacyFormat.export!(back, { name: 'x' });
      expect(firstByteDiff(files.get(name)!, bytes)).toBe(-1);
    },
  );

  it.each(anims.map((f) => [basename(f), f]))(
    '%s on a skeleton with a mesh (.mesh main, and an outfit): valid skin, .anim and .skel back byte-identical',
    async (name, f) => {
      const bytes = readBytes(f);
      const anim = readAnimation(bytes, name);
      const skel = writeSkeleton(skeletonFor(anim.motions.map((m) => m.boneName)));
      const avatar = join(corpusRoot(), AVATAR);
      const resources = folderResources(avatar);
      const meshPath = 'Meshes/woodaxe.f5c2c18400000009.mesh';
      const aprPath = 'Appearances/woodaxe.5d34f33e0000000c.apr';
      for (const main of [meshPath, aprPath]) {
        const files = new Map([
          [basename(main), (await resources.read(main))!],
          ['adult.skel', skel],
          [name, bytes],
        ]);
        const { document, warnings } = await legacyFormat.import(files, {
          main: basename(main),
          resources,
          resourcePath: main,
        });
        expect(warnings, main).toEqual([]);
        const back = await validGlb(document);
        expect(back.getRoot().listTextures().length).toBe(1);
        expect(back.getRoot().listAnimations().length, main).toBe(1);
        const out = await legacyFormat.export!(back, { name: 'axe' });
        expect(firstByteDiff(out.files.get(`Animations/${name}`)!, bytes)).toBe(-1);
        expect(firstByteDiff(out.files.get('Skeletons/axe.skel')!, skel)).toBe(-1);
      }
    },
  );
});
