/**
 * Names by core's naming rule (issue 21): an unnamed glTF animation is `Animation<i>`, file names
 * are file-safe and unique case-insensitively; an imported .anim keeps its file's name.
 */
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { exportTso, readAnimation } from '../src/index.js';

function animated(names: string[]): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const node = doc.createNode('mover');
  doc.createScene().addChild(node);
  for (const name of names) {
    const sampler = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setArray(new Float32Array([0, 1])),
      )
      .setOutput(
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 0, 0, 1, 0])),
      );
    doc
      .createAnimation(name)
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler),
      );
  }
  return doc;
}

describe('naming', () => {
  it('unnamed, unsafe and case-colliding animation names', async () => {
    const { files } = await exportTso(animated(['', 'Walk', 'walk', '..', 'Run Fast']), { name: 'm' });
    const anims = [...files.keys()].filter((n) => n.endsWith('.anim'));
    expect(anims).toEqual([
      'm_Animation0.anim',
      'm_Walk.anim',
      'm_walk_2.anim',
      'm_Animation3.anim',
      'm_Run Fast.anim',
    ]);
    expect(readAnimation(files.get('m_Animation0.anim')!).name).toBe('Animation0');
    expect(readAnimation(files.get('m_Walk.anim')!).name).toBe('Walk');
  });
});
