import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_ASSETS, firstByteDiff, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
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
    const report = await validateGlb(await new NodeIO().writeBinary(document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
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
