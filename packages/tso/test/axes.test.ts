/**
 * Axes (issue 18.3) on real FreeSO animations (corpus/textured/tso): glTF up is +Y and the frame
 * is right-handed after TSO's X mirror. How: `a20-trapfall` drops the avatar through a trapdoor,
 * so its PELVIS must fall along −Y; `d2o-rc-turn90-cw` turns the avatar 90° clockwise seen from
 * above, which in a right-handed +Y-up frame is a −90° rotation about +Y (without the mirror it
 * would come out counter-clockwise). Forward (+Z) needs a skeleton and a body mesh, which the
 * corpus does not have: see the README ("Units and axes").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot } from '@gltf-legacy/test-utils';
import type { Document } from '@gltf-transform/core';
import { quat, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

const DIR = join(corpusRoot(), 'textured/tso/FreeSO/TSOClient/FSO.Content.TSO/Content/Avatar/Animations');

async function load(name: string): Promise<Document> {
  const { document } = await legacyFormat.import!(
    new Map([[name, new Uint8Array(readFileSync(join(DIR, name)))]]),
    {
      main: name,
    },
  );
  return document;
}

function keys(doc: Document, bone: string, path: 'translation' | 'rotation'): Float32Array {
  const ch = doc
    .getRoot()
    .listAnimations()[0]
    .listChannels()
    .find((c) => c.getTargetNode()?.getName() === bone && c.getTargetPath() === path)!;
  return ch.getSampler()!.getOutput()!.getArray() as Float32Array;
}

describe('axes: up is +Y, right-handed', () => {
  it('a20-trapfall: the pelvis falls along −Y (18 units down, no sideways drift)', async () => {
    const t = keys(await load('a20-trapfall.df92922400000007.anim'), 'PELVIS', 'translation');
    const n = t.length / 3;
    expect(t[(n - 1) * 3 + 1] - t[1]).toBeLessThan(-18);
    expect(Math.abs(t[(n - 1) * 3] - t[0])).toBeLessThan(0.01);
    expect(Math.abs(t[(n - 1) * 3 + 2] - t[2])).toBeLessThan(0.01);
  });

  it('d2o-rc-turn90-cw: the root turns −90° about +Y (clockwise seen from above)', async () => {
    const r = keys(await load('d2o-rc-turn90-cw.92bfa0dd00000007.anim'), 'ROOT', 'rotation');
    const n = r.length / 4;
    const first = quat.fromValues(r[0], r[1], r[2], r[3]);
    const last = quat.fromValues(r[(n - 1) * 4], r[(n - 1) * 4 + 1], r[(n - 1) * 4 + 2], r[(n - 1) * 4 + 3]);
    const turn = quat.multiply(quat.create(), last, quat.invert(quat.create(), first));
    const axis = vec3.create();
    const angle = quat.getAxisAngle(axis, turn);
    // (axis, angle) and (−axis, 2π − angle) are the same turn: normalize to the +Y axis.
    const signed = axis[1] >= 0 ? angle : -angle;
    const degrees = (((signed * 180) / Math.PI + 540) % 360) - 180;
    expect(Math.abs(Math.abs(axis[1]) - 1)).toBeLessThan(1e-3);
    expect(degrees).toBeCloseTo(-90, 0);
  });
});
