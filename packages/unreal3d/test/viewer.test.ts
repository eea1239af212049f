import { join } from 'node:path';
import { corpusRoot, loadWithThree, readBytes, validateGlb } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { fileSetFor } from './helpers.js';

describe('what a viewer sees', () => {
  it('MBeaconWeap loads in three.js with 36 morph targets and the 5 sequences', async () => {
    const path = join(corpusRoot(), 'unreal3d', 'MBeaconWeap_d.3d');
    const { document } = await legacyFormat.import(fileSetFor(path), { main: 'MBeaconWeap_d.3d' });
    const glb = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).writeBinary(document);
    const report = await validateGlb(glb);
    const notable = report.issues.messages.filter((m: { severity: number }) => m.severity <= 1);
    expect(notable, JSON.stringify(notable)).toEqual([]);
    const gltf = await loadWithThree(glb);
    const clips = gltf.animations.map((a: { name: string; duration: number }) => [
      a.name,
      Number(a.duration.toFixed(4)),
    ]);
    // Duration = NUMFRAMES / RATE (the last key loops back to the first frame).
    expect(clips).toEqual([
      ['All', Number((37 / 19).toFixed(4))],
      ['Still', 0],
      ['Fire', Number((11 / 18).toFixed(4))],
      ['Down', Number((14 / 28).toFixed(4))],
      ['Select', Number((12 / 21).toFixed(4))],
    ]);
    let targets = 0;
    gltf.scene.traverse(
      (o: { isMesh?: boolean; geometry?: { morphAttributes: { position?: unknown[] } } }) => {
        if (o.isMesh) targets = o.geometry?.morphAttributes.position?.length ?? 0;
      },
    );
    expect(targets).toBe(36);
  });
  it('inspect describes the file model', () => {
    const path = join(corpusRoot(), 'unreal3d', 'Sporifier_d.3d');
    const sections = legacyFormat.inspect?.(fileSetFor(path), { main: 'Sporifier_d.3d' }) ?? [];
    expect(sections[0].facts).toMatchObject({ numPolys: 234, numVertices: 117 });
    expect(sections[1].facts).toMatchObject({ numFrames: 73, frameSize: 468, layout: 'packed' });
    expect(sections[2].rows?.map((r) => r[0])).toEqual(['All', 'Still', 'Fire', 'Down', 'Select']);
    expect(readBytes(path).length).toBe(48 + 16 * 234);
  });
  it('inspect of a lone _d.3d / _a.3d / .uc still describes the file', () => {
    const one = (n: string) => new Map([[n, readBytes(join(corpusRoot(), 'unreal3d', n))]]);
    expect(legacyFormat.inspect?.(one('Key_d.3d'), { main: 'Key_d.3d' })[0].facts).toMatchObject({
      numPolys: 420,
      numVertices: 281,
    });
    expect(legacyFormat.inspect?.(one('Key_a.3d'), { main: 'Key_a.3d' })[0].facts).toMatchObject({
      numFrames: 30,
      frameSize: 1124,
    });
    const uc = legacyFormat.inspect?.(one('Sporifier.uc'), { main: 'Sporifier.uc' }) ?? [];
    expect(uc.map((s) => s.title)).toEqual(['.uc mesh Sporifier', '.uc mesh Sporifier3P']);
  });
});
