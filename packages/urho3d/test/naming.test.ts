// Issue 21: .ani file names of foreign glTF animations follow core's one naming rule, and clips are
// named after their files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot, hasCorpus, animatedDocument } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportUrhoModel, legacyFormat } from '../src/index.js';

const animated = (names: string[]) => animatedDocument(names, { node: 'Bone', values: [0, 0, 0, 1, 0, 0] });

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

  it.skipIf(!hasCorpus('urho'))(
    'a clip is named after its file (Kachujin_Walk.ani → Walk), and the .ani comes back byte for byte',
    async () => {
      const dir = join(corpusRoot(), 'urho');
      const files = new Map(
        ['Kachujin.mdl', 'Kachujin_Walk.ani'].map(
          (n) => [n, new Uint8Array(readFileSync(join(dir, n)))] as const,
        ),
      );
      const { document } = await legacyFormat.import(files, { main: 'Kachujin.mdl' });
      expect(
        document
          .getRoot()
          .listAnimations()
          .map((a) => a.getName()),
      ).toEqual(['Walk']);
      const out = await legacyFormat.export!(document, { name: 'Kachujin' });
      expect(
        Buffer.from(out.files.get('Kachujin_Walk.ani')!).equals(Buffer.from(files.get('Kachujin_Walk.ani')!)),
      ).toBe(true);
    },
  );
});
