import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  TEST_ASSETS,
  firstByteDiff,
  loadWithThree,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readAnim, readMesh, writeAnim, writeMesh } from '../src/index.js';

const dir = join(TEST_ASSETS, 'unigine');
const names = readdirSync(dir)
  .filter((n) => /\.(mesh|anim)$/.test(n))
  .sort();

describe('test-assets/unigine (written by scripts/make-test-assets.mjs)', () => {
  it('has the four samples', () => {
    expect(names).toEqual(['morph_box.mesh', 'strip.mesh', 'strip_wave.anim', 'two_surfaces.mesh']);
  });

  it.each(names)('%s is byte-stable and imports without validator errors', async (name) => {
    const bytes = readBytes(join(dir, name));
    const again = name.endsWith('.mesh') ? writeMesh(readMesh(bytes)) : writeAnim(readAnim(bytes));
    expect(firstByteDiff(again, bytes)).toBe(-1);
    const files = new Map([[name, bytes]]);
    for (const c of legacyFormat.companions?.(name, names) ?? []) files.set(c, readBytes(join(dir, c)));
    const { document } = await legacyFormat.import(files, { main: name });
    const glb = await new NodeIO().writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    // And back: the same bytes for the main file and its companions.
    const out = await legacyFormat.export?.(await new NodeIO().readBinary(glb), {
      name: name.replace(/\.[^.]*$/, ''),
    });
    for (const [n, b] of files) expect(firstByteDiff(out?.files.get(n) as Uint8Array, b), n).toBe(-1);
  });

  it('loads in three.js: skinned strip with its wave clip, morph box with its target', async () => {
    const files = new Map([
      ['strip.mesh', readBytes(join(dir, 'strip.mesh'))],
      ['strip_wave.anim', readBytes(join(dir, 'strip_wave.anim'))],
    ]);
    const { document } = await legacyFormat.import(files, { main: 'strip.mesh' });
    const gltf = await loadWithThree(await new NodeIO().writeBinary(document));
    let skinned = 0;
    gltf.scene.traverse((o: { isSkinnedMesh?: boolean; skeleton?: { bones: unknown[] } }) => {
      if (o.isSkinnedMesh) {
        skinned++;
        expect(o.skeleton?.bones.length).toBe(3);
      }
    });
    expect(skinned).toBe(1);
    expect(
      gltf.animations.map((a: { name: string; duration: number }) => [a.name, Number(a.duration.toFixed(3))]),
    ).toEqual([['wave', 1]]);
    const box = await legacyFormat.import(
      new Map([['morph_box.mesh', readBytes(join(dir, 'morph_box.mesh'))]]),
      { main: 'morph_box.mesh' },
    );
    const boxGltf = await loadWithThree(await new NodeIO().writeBinary(box.document));
    let dict: Record<string, number> | undefined;
    boxGltf.scene.traverse((o: { morphTargetDictionary?: Record<string, number> }) => {
      dict ??= o.morphTargetDictionary;
    });
    expect(dict).toEqual({ bulge: 0 });
  });

  it('keeps the morph target, the skin and the animation', async () => {
    const box = readMesh(readBytes(join(dir, 'morph_box.mesh')));
    expect(box.surfaces[0].targetNames).toEqual(['', 'bulge']);
    const strip = readMesh(readBytes(join(dir, 'strip.mesh')));
    expect(strip.bones.map((b) => b.parent)).toEqual([-1, 0, 1]);
    const wave = readAnim(readBytes(join(dir, 'strip_wave.anim')));
    expect(wave.animations[0].numFrames).toBe(31); // 1 s at 30 fps
    const two = readMesh(readBytes(join(dir, 'two_surfaces.mesh')));
    expect(two.surfaces.map((s) => s.name)).toEqual(['floor', 'sign']);
    expect(two.surfaces[0].colors.length).toBe(16);
  });
});
