/**
 * Issue 21: Grimrock file names follow core's naming rule — `NAME_<clip>.animation`, the clip
 * without the imported model's prefix, never a doubled prefix, `Animation<i>` for an unnamed clip.
 */
import { basename } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { corpusFiles, readBytes, regressionInput, animatedDocument } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportGrimrock, importGrimrock } from '../src/index.js';

const corpus = [...corpusFiles('grimrock', ['.model']), ...corpusFiles('grimrock', ['.animation'])];
const bytesOf = (name: string) => readBytes(corpus.find((p) => basename(p) === name)!);

const animated = (names: string[]) =>
  animatedDocument(names, { times: [0, 1 / 30], values: [0, 0, 0, 0, 0, 0] });

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

describe('animation file names are a fixed point of export → import → export', () => {
  /** Exports `names`, imports the files, exports again: both file lists and every byte. */
  async function twice(names: string[]) {
    const first = (await exportGrimrock(animated(names), { name: 'fuzz' })).files;
    const { document } = importGrimrock(first, { main: 'fuzz.model' });
    const second = (await exportGrimrock(document, { name: 'fuzz' })).files;
    return { first, second, anims: [...first.keys()].filter((n) => n.endsWith('.animation')) };
  }

  // f0cbada7f99fcf8a (campaign seed 2611, generated): a 150-character animation name was cut to
  // 100 characters ending in `B.` and written `fuzz_…B..animation`; its re-import is the clip
  // `fuzz_…B.`, which the re-export wrote `fuzz_…B.animation`.
  it('a name cut at 100 characters after a dot, inside a surrogate pair or twice the same', async () => {
    const a99 = 'a'.repeat(99);
    const e99 = 'e'.repeat(99);
    const { first, second, anims } = await twice([
      `${a99}.b`, // cut after the dot
      `q${'𒆄'.repeat(60)}`, // cut between the halves of the 50th pair
      e99,
      e99, // the second takes _2 within the 100 characters
    ]);
    expect(anims).toEqual([
      `fuzz_${a99}.animation`,
      `fuzz_q${'𒆄'.repeat(49)}.animation`, // core cuts before the pair
      `fuzz_${e99}.animation`,
      `fuzz_${'e'.repeat(98)}_2.animation`,
    ]);
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [n, b] of first)
      expect({ n, same: Buffer.from(b).equals(second.get(n)!) }).toEqual({ n, same: true });
  });

  it('the model prefix is written once, in the model name’s case: FUZZ_walk, fuzz_fuzz_run', async () => {
    const { first, second, anims } = await twice(['FUZZ_walk', 'fuzz_fuzz_run', 'fuzz_.idle']);
    expect(anims).toEqual(['fuzz_walk.animation', 'fuzz_run.animation', 'fuzz_idle.animation']);
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
  });

  it('the stored generated document f0cbada7f99fcf8a exports the same file names twice', async () => {
    const io = new NodeIO();
    const doc = await io.readBinary(await regressionInput('grimrock', 'f0cbada7f99fcf8a', io));
    const first = (await exportGrimrock(doc, { name: 'fuzz' })).files;
    const second = (
      await exportGrimrock(importGrimrock(first, { main: 'fuzz.model' }).document, { name: 'fuzz' })
    ).files;
    const long = [...first.keys()].find((n) => n.startsWith('fuzz_hJHhmQH6'))!;
    expect(long.endsWith('_B.animation')).toBe(true);
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [n, b] of first)
      expect({ n, same: Buffer.from(b).equals(second.get(n)!) }).toEqual({ n, same: true });
  });
});
