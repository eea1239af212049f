/**
 * Issue 21: Grimrock file names follow core's naming rule — `NAME_<clip>.animation`, the clip
 * without the imported model's prefix, never a doubled prefix, `Animation<i>` for an unnamed clip.
 */
import { basename } from 'node:path';
import { Document } from '@gltf-transform/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportGrimrock, importGrimrock } from '../src/index.js';

const corpus = [...corpusFiles('grimrock', ['.model']), ...corpusFiles('grimrock', ['.animation'])];
const bytesOf = (name: string) => readBytes(corpus.find((p) => basename(p) === name)!);

/** A node with one translation channel per animation name. */
function animated(names: string[]): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const node = doc.createNode('bone');
  doc.createScene().addChild(node);
  for (const name of names) {
    const sampler = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(Float32Array.of(0, 1 / 30))
          .setBuffer(buffer),
      )
      .setOutput(doc.createAccessor().setType('VEC3').setArray(new Float32Array(6)).setBuffer(buffer));
    const anim = doc.createAnimation(name).addSampler(sampler);
    anim.addChannel(
      doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler),
    );
  }
  return doc;
}

describe('animation file names', () => {
  it('an imported clip takes the new model name: skeleton_warrior_axe_walk → hero_walk.animation', async () => {
    const files = new Map([
      ['skeleton_warrior_axe.model', bytesOf('skeleton_warrior_axe.model')],
      ['skeleton_warrior_axe_walk.animation', bytesOf('skeleton_warrior_axe_walk.animation')],
    ]);
    const { document } = importGrimrock(files, { main: 'skeleton_warrior_axe.model' });
    const { files: out } = await exportGrimrock(document, { name: 'hero' });
    expect([...out.keys()].sort()).toEqual(['hero.model', 'hero_walk.animation']);
  });

  it('a glTF clip already named after the model is not prefixed twice; an unnamed one is Animation<i>', async () => {
    const { files } = await exportGrimrock(animated(['hero_walk', 'Run/Fast', '']), { name: 'hero' });
    expect([...files.keys()].filter((n) => n.endsWith('.animation')).sort()).toEqual([
      'hero_Animation2.animation',
      'hero_Run_Fast.animation',
      'hero_walk.animation',
    ]);
  });
});
