import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { animationFps, legacyFormat, writeAnimation, writeMesh, writeSkeleton } from '../src/index.js';
import { handCube, twoBoneAnimation, twoBoneMesh, twoBoneSkeleton } from './fixtures.js';

describe('legacyFormat', () => {
  it('declares the interface the CLI relies on', () => {
    expect(legacyFormat.id).toBe('tso');
    expect(legacyFormat.extensions).toEqual(['.mesh', '.skel', '.anim', '.apr', '.bnd', '.dat', '.far']);
    expect(legacyFormat.mainExtension).toBe('.mesh');
    expect(legacyFormat.capabilities).toMatchObject({
      import: true,
      export: true,
      skins: true,
      animations: true,
    });
  });

  it('companions: .skel and .anim siblings', () => {
    expect(
      legacyFormat.companions!('body.mesh', [
        'body.mesh',
        'adult.skel',
        'a2o-wave.anim',
        'body.bmp',
        'other.mesh',
      ]),
    ).toEqual(['adult.skel', 'a2o-wave.anim']);
  });

  it('a non-TSO .anim sibling (Unigine) is a warning, not an error', async () => {
    const uni = corpusFiles('unigine', ['.anim'])[0];
    const set = new Map([
      ['twobone.mesh', writeMesh(twoBoneMesh())],
      ['twobone.skel', writeSkeleton(twoBoneSkeleton())],
      ['walk.anim', readBytes(uni)],
    ]);
    const { warnings, document } = await legacyFormat.import(set, { main: 'twobone.mesh' });
    expect(warnings.map((w) => w.code)).toEqual(['COMPANION_IGNORED']);
    expect(document.getRoot().listAnimations().length).toBe(0);
  });

  it('a skeleton sharing no bone with the mesh is ignored with SKELETON_MISMATCH', async () => {
    const set = new Map([
      ['cube.mesh', writeMesh(handCube())],
      ['twobone.skel', writeSkeleton(twoBoneSkeleton())],
    ]);
    const { warnings } = await legacyFormat.import(set, { main: 'cube.mesh' });
    expect(warnings.map((w) => w.code)).toEqual(['SKELETON_MISMATCH', 'SKELETON_MISSING']);
  });

  it('a mesh bone missing from the skeleton is placed at the root with BONE_NOT_IN_SKELETON', async () => {
    const mesh = twoBoneMesh();
    mesh.boneNames[1] = 'TAIL';
    const { warnings, document } = await legacyFormat.import(new Map([['m.mesh', writeMesh(mesh)]]), {
      main: 'm.mesh',
      skeleton: writeSkeleton(twoBoneSkeleton()),
    });
    expect(warnings.map((w) => w.code)).toEqual(['BONE_NOT_IN_SKELETON']);
    const tail = document
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'TAIL')!;
    expect(tail.getParentNode()!.getName()).toBe('ROOT');
    expect(document.getRoot().listSkins()[0].listJoints().length).toBe(3);
  });

  it('duration units: milliseconds (original) and seconds (FreeSO-made, duration < frames)', () => {
    const a = twoBoneAnimation();
    expect(animationFps(a).fps).toBeCloseTo(3, 10); // 3 frames / 1000 ms
    a.duration = 3.444;
    for (const m of a.motions) m.frameCount = 124;
    expect(animationFps(a).fps).toBeCloseTo(124 / 3.444, 6); // a20-trapfall: 36 fps
    expect(animationFps(a, { durationUnit: 'ms' }).fps).toBeCloseTo(124 / 0.003444, 3);
    a.duration = 0;
    expect(animationFps(a)).toEqual({ fps: 36, valid: false });
  });

  it('a Unigine .mesh given as main is a clear BAD_VERSION FormatError', async () => {
    const uni = corpusFiles('unigine', ['.mesh'])[0];
    await expect(legacyFormat.import(new Map([['u.mesh', readBytes(uni)]]), {})).rejects.toMatchObject({
      code: 'BAD_VERSION',
    });
  });

  it('a garbage main file is a FormatError', async () => {
    await expect(
      legacyFormat.import(new Map([['x.mesh', new Uint8Array([0, 0, 0, 2, 255, 255, 255, 255])]]), {}),
    ).rejects.toBeInstanceOf(FormatError);
  });

  it('inspect reports the file model', () => {
    const sections = legacyFormat.inspect!(
      new Map([
        ['twobone.mesh', writeMesh(twoBoneMesh())],
        ['twobone.skel', writeSkeleton(twoBoneSkeleton())],
        ['twobone-wave.anim', writeAnimation(twoBoneAnimation())],
      ]),
      { main: 'twobone.mesh' },
    );
    expect(sections.map((s) => s.title)).toEqual([
      'twobone.mesh (main): TSO mesh',
      'twobone.skel: TSO skeleton "twobone"',
      'twobone-wave.anim: TSO animation "wave"',
    ]);
    expect(sections[0].facts).toMatchObject({
      version: 2,
      bones: 2,
      faces: 2,
      realVertices: 4,
      blendVertices: 1,
    });
    expect(sections[0].rows).toEqual([
      ['ROOT', 0, 2, -1, 0],
      ['ARM', 2, 2, 0, 1],
    ]);
    expect(sections[1].rows!.map((r) => r[0])).toEqual(['ROOT', 'ARM']);
    expect(sections[2].rows).toEqual([
      ['ROOT', 3, 1000, 1, 0, 0],
      ['ARM', 3, 1000, 0, 1, 1],
    ]);
  });

  it('corrupted corpus files through legacyFormat.import: success or FormatError only', async () => {
    const f = corpusFiles('tso', ['.mesh']).find((x) => x.includes('Grim-Hood'))!;
    const bytes = readBytes(f);
    for (let at = 0; at < bytes.length; at += 211) {
      const b = bytes.slice();
      b[at] ^= 0xa5;
      try {
        await legacyFormat.import(new Map([['g.mesh', b]]), { main: 'g.mesh' });
      } catch (e) {
        expect(e, String(e)).toBeInstanceOf(FormatError);
      }
    }
  });
});
