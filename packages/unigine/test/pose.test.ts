import { accessorFloats } from '@gltf-legacy/core';
import type { Accessor, Node } from '@gltf-transform/core';
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { fileSet, unigineCorpus } from './helpers.js';

const { supported } = unigineCorpus();

describe('animation poses', () => {
  it('frame 0 of every actor animation skins the character into a sane pose', async () => {
    const path = supported.find((f) => f.endsWith('actor_00.mesh')) as string;
    const { document } = await legacyFormat.import(fileSet(path), { main: 'actor_00.mesh' });
    const root = document.getRoot();
    const skin = root.listSkins()[0];
    const joints = skin.listJoints();
    const ibm = skin.getInverseBindMatrices()?.getArray() as Float32Array;
    for (const anim of root.listAnimations()) {
      // Local matrices: animated value at t = 0, else the node's TRS.
      const local = new Map<Node, mat4>();
      for (const n of root.listNodes())
        local.set(
          n,
          mat4.fromRotationTranslationScale(mat4.create(), n.getRotation(), n.getTranslation(), n.getScale()),
        );
      const trs = new Map<Node, { t: number[]; r: number[]; s: number[] }>();
      for (const ch of anim.listChannels()) {
        const n = ch.getTargetNode() as Node;
        // Decoded values: rotations are normalized SHORT since issue 19.
        const v = Array.from(accessorFloats(ch.getSampler()?.getOutput() as Accessor));
        const e = trs.get(n) ?? { t: [...n.getTranslation()], r: [...n.getRotation()], s: [...n.getScale()] };
        const path = ch.getTargetPath();
        if (path === 'translation') e.t = v.slice(0, 3);
        if (path === 'rotation') e.r = v.slice(0, 4);
        if (path === 'scale') e.s = v.slice(0, 3);
        trs.set(n, e);
      }
      for (const [n, e] of trs)
        local.set(
          n,
          mat4.fromRotationTranslationScale(mat4.create(), e.r as never, e.t as never, e.s as never),
        );
      const world = (n: Node): mat4 => {
        const p = n.getParentNode();
        const l = local.get(n) as mat4;
        return p ? mat4.multiply(mat4.create(), world(p), l) : l;
      };
      const skinMats = joints.map((j, i) =>
        mat4.multiply(mat4.create(), world(j), ibm.subarray(i * 16, i * 16 + 16) as unknown as mat4),
      );
      let minY = Infinity;
      let maxY = -Infinity;
      for (const prim of root.listMeshes()[0].listPrimitives()) {
        const pos = prim.getAttribute('POSITION')?.getArray() as Float32Array;
        const jn = prim.getAttribute('JOINTS_0')?.getArray() as Uint16Array;
        const wt = prim.getAttribute('WEIGHTS_0')?.getArray() as Float32Array;
        for (let v = 0; v < pos.length / 3; v++) {
          let y = 0;
          for (let k = 0; k < 4; k++) {
            const m = skinMats[jn[v * 4 + k]];
            y += wt[v * 4 + k] * (m[1] * pos[v * 3] + m[5] * pos[v * 3 + 1] + m[9] * pos[v * 3 + 2] + m[13]);
          }
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
      }
      // Feet on the floor, 1.5–1.75 m tall (1.54 crouching for the jump): not exploded, not flipped.
      expect(minY, anim.getName()).toBeGreaterThan(-0.05);
      expect(minY, anim.getName()).toBeLessThan(0.05);
      expect(maxY - minY, anim.getName()).toBeGreaterThan(1.5);
      expect(maxY - minY, anim.getName()).toBeLessThan(1.8);
    }
  });
});
