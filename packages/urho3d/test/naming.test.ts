// Issue 21: .ani file names of foreign glTF animations follow core's one naming rule.
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { exportUrhoModel } from '../src/index.js';

function animated(names: string[]): Document {
  const doc = new Document();
  const buf = doc.createBuffer();
  const node = doc.createNode('Bone');
  doc.createScene().addChild(node);
  for (const n of names) {
    const input = doc
      .createAccessor()
      .setBuffer(buf)
      .setType('SCALAR')
      .setArray(new Float32Array([0, 1]));
    const output = doc
      .createAccessor()
      .setBuffer(buf)
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0]));
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
    const channel = doc
      .createAnimationChannel()
      .setTargetNode(node)
      .setTargetPath('translation')
      .setSampler(sampler);
    doc.createAnimation(n).addSampler(sampler).addChannel(channel);
  }
  return doc;
}

describe('animation file names (core naming)', () => {
  it('NAME_<clip>, no doubled prefix, repeats numbered case-insensitively, unnamed ones numbered', async () => {
    const { animations } = await exportUrhoModel(animated(['Walk', 'Jack_Run', 'walk', '', 'Run/Fast']), {
      name: 'Jack',
    });
    expect(animations.map((a) => a.fileName)).toEqual([
      'Jack_Walk',
      'Jack_Run',
      'Jack_walk_2',
      'Jack_Animation3',
      'Jack_Run_Fast',
    ]);
  });
});
