import { corpusFiles } from '@gltf-legacy/test-utils';
import { readSampler, sampleAt } from '@gltf-legacy/core';
import { type Animation, type Document, type Node, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

/** World-space bbox of every mesh instance, skinned at time `t` of `anim` (or at rest). */
function posedBox(doc: Document, anim: Animation | null, t: number): { min: number[]; max: number[] } {
  const root = doc.getRoot();
  const local = new Map<Node, mat4>();
  const trs = new Map<Node, { t: number[]; r: number[]; s: number[] }>();
  for (const n of root.listNodes())
    trs.set(n, { t: [...n.getTranslation()], r: [...n.getRotation()], s: [...n.getScale()] });
  for (const ch of anim?.listChannels() ?? []) {
    const n = ch.getTargetNode() as Node;
    const path = ch.getTargetPath();
    if (path === 'weights' || !ch.getSampler()) continue;
    const s = readSampler(ch.getSampler() as never, path === 'rotation', path === 'rotation' ? 4 : 3);
    const out: number[] = [];
    sampleAt(s, t, out);
    const e = trs.get(n) as { t: number[]; r: number[]; s: number[] };
    if (path === 'translation') e.t = out;
    if (path === 'rotation') e.r = out;
    if (path === 'scale') e.s = out;
  }
  for (const [n, e] of trs)
    local.set(n, mat4.fromRotationTranslationScale(mat4.create(), e.r as never, e.t as never, e.s as never));
  const world = (n: Node): mat4 => {
    const p = n.getParentNode();
    const l = local.get(n) as mat4;
    return p ? mat4.multiply(mat4.create(), world(p), l) : l;
  };
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const node of root.listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const skin = node.getSkin();
    const mats = skin
      ? skin
          .listJoints()
          .map((j, i) =>
            mat4.multiply(
              mat4.create(),
              world(j),
              (
                (
                  skin.getInverseBindMatrices() as NonNullable<ReturnType<typeof skin.getInverseBindMatrices>>
                ).getArray() as Float32Array
              ).subarray(i * 16, i * 16 + 16) as unknown as mat4,
            ),
          )
      : null;
    const nodeWorld = world(node);
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMode() !== 4) continue;
      const pos = prim.getAttribute('POSITION')?.getArray() as Float32Array;
      const jn = prim.getAttribute('JOINTS_0')?.getArray();
      const wt = prim.getAttribute('WEIGHTS_0')?.getArray();
      for (let v = 0; v < pos.length / 3; v++) {
        const p = [0, 0, 0];
        const add = (m: mat4, w: number) => {
          for (let c = 0; c < 3; c++)
            p[c] +=
              w * (m[c] * pos[v * 3] + m[4 + c] * pos[v * 3 + 1] + m[8 + c] * pos[v * 3 + 2] + m[12 + c]);
        };
        if (mats && jn && wt) for (let k = 0; k < 4; k++) add(mats[jn[v * 4 + k]], wt[v * 4 + k]);
        else add(nodeWorld, 1);
        for (let c = 0; c < 3; c++) {
          min[c] = Math.min(min[c], p[c]);
          max[c] = Math.max(max[c], p[c]);
        }
      }
    }
  }
  return { min, max };
}

describe('foreign glTF export keeps the geometry and the poses', () => {
  it.each([
    'Box.glb',
    'TwoCubes.glb',
    'OrientationTest.glb',
    'CesiumMan.gltf',
    'RiggedSimple.gltf',
    'RiggedFigure.gltf',
    'Fox.glb',
  ])('%s', async (name) => {
    const path = corpusFiles('gltf', [name])[0];
    const doc = await io.read(path);
    // geometry and poses only: the textures of these files (CesiumMan's and Fox's images → DDS and
    // back) are exported by foreign.test.ts's walk over the same files; nothing here reads them
    for (const t of doc.getRoot().listTextures()) t.dispose();
    const out = await legacyFormat.export?.(doc, { name: 'x' });
    const back = (await legacyFormat.import(out?.files as Map<string, Uint8Array>, { main: 'x.mesh' }))
      .document;
    const size = (b: { min: number[]; max: number[] }) => Math.max(...b.max.map((v, i) => v - b.min[i]));
    const check = (a: { min: number[]; max: number[] }, b: { min: number[]; max: number[] }, tol: number) => {
      for (let c = 0; c < 3; c++) {
        expect(Math.abs(a.min[c] - b.min[c]), `min[${c}]`).toBeLessThan(tol);
        expect(Math.abs(a.max[c] - b.max[c]), `max[${c}]`).toBeLessThan(tol);
      }
    };
    const rest = posedBox(doc, null, 0);
    const anims = doc.getRoot().listAnimations();
    if (!doc.getRoot().listSkins().length) {
      check(posedBox(back, null, 0), rest, 1e-5 * Math.max(1, size(rest)));
      return;
    }
    // Skinned: each animation at a mid time, original vs UNIGINE (30 fps, quantized) re-import.
    const backAnims = back.getRoot().listAnimations();
    expect(backAnims.length).toBe(anims.length);
    for (const [i, a] of anims.entries()) {
      const end = Math.max(...a.listSamplers().map((s) => s.getInput()?.getMax([])[0] ?? 0));
      const t = Math.round((end / 2) * 30) / 30;
      // Exported as x_<name>.anim (unnamed: x_Animation<i>.anim, core's naming rule), imported back under that suffix.
      const mine = backAnims.find((b) => b.getName() === (a.getName() || `Animation${i}`));
      expect(mine, a.getName()).toBeDefined();
      check(posedBox(back, mine ?? null, t), posedBox(doc, a, t), 0.01 * size(rest));
    }
  });
});
