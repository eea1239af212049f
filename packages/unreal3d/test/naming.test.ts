/**
 * Core's naming rule in the Unreal package (issue 21): sequence names made unique with `_2` on
 * import (and still written back as they were), and baked sequence names from glTF animation
 * names by `objectName` / `uniqueNames`, made UnrealScript identifiers.
 */
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { firstByteDiff, readBytes, TEST_ASSETS } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportUnreal, importUnrealFiles, parseUc, ucMesh } from '../src/index.js';

const asset = (n: string) => readBytes(join(TEST_ASSETS, 'unreal3d', n));

describe('naming', () => {
  it('two sequences of one name import as Pulse and Pulse_2 and export back byte-exact', async () => {
    const uc = new TextDecoder()
      .decode(asset('cube.uc'))
      .replace('SEQ=Still STARTFRAME=0 NUMFRAMES=1 RATE=1', 'SEQ=Pulse STARTFRAME=0 NUMFRAMES=1 RATE=1');
    const files = new Map([
      ['cube_d.3d', asset('cube_d.3d')],
      ['cube_a.3d', asset('cube_a.3d')],
      ['cube.uc', new TextEncoder().encode(uc)],
    ]);
    const { document } = await importUnrealFiles(files, { main: 'cube_d.3d' });
    expect(
      document
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual(['Pulse', 'Pulse_2']);
    const { files: out } = await exportUnreal(document, { name: 'cube' });
    expect(new TextDecoder().decode(out.get('cube.uc'))).toBe(uc);
    for (const n of ['cube_d.3d', 'cube_a.3d']) expect(firstByteDiff(out.get(n)!, files.get(n)!), n).toBe(-1);
  });

  it('baked sequences: unnamed → Animation<i>, repeats → _2, unsafe characters → _', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const acc = (type: 'SCALAR' | 'VEC3', a: number[]) =>
      doc.createAccessor().setType(type).setArray(new Float32Array(a)).setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute('POSITION', acc('VEC3', [0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const node = doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim));
    doc.createScene().addChild(node);
    for (const name of ['', 'Walk', 'walk', 'Run fast']) {
      const sampler = doc
        .createAnimationSampler()
        .setInput(acc('SCALAR', [0, 1]))
        .setOutput(acc('VEC3', [0, 0, 0, 0, 1, 0]));
      doc
        .createAnimation(name)
        .addSampler(sampler)
        .addChannel(
          doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler),
        );
    }
    const { files } = await exportUnreal(doc, { name: 'm' });
    const uc = ucMesh(parseUc(new TextDecoder().decode(files.get('m.uc'))), 'm');
    expect(uc.sequences.map((s) => s.name)).toEqual(['Animation0', 'Walk', 'walk_2', 'Run_fast']);
  });
});
