/**
 * Names by core's naming rule (issue 21): an unnamed glTF animation is `Animation<i>`, file names
 * are file-safe and unique case-insensitively; an imported .anim keeps its file's name.
 */
import { animatedDocument } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportTso, readAnimation } from '../src/index.js';

const animated = (names: string[]) => animatedDocument(names, { node: 'mover' });

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
