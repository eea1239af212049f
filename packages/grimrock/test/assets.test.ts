import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { firstByteDiff, readBytes, TEST_ASSETS, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportGrimrock, grimrockCompanions, importGrimrock, legacyFormat } from '../src/index.js';

const dir = join(TEST_ASSETS, 'grimrock');
const names = readdirSync(dir).filter((n) => n.endsWith('.model') || n.endsWith('.animation'));

describe('test-assets/grimrock (made by scripts/make-test-assets.mjs)', () => {
  it('holds the generated samples', () => {
    expect(names.sort()).toEqual([
      'crate.model',
      'lever.model',
      'lever_pull.animation',
      'lever_push.animation',
    ]);
    for (const n of names) expect(legacyFormat.sniff(readBytes(join(dir, n)), n)).toBe(true);
  });

  for (const main of ['crate.model', 'lever.model']) {
    it(`${main}: imports valid glTF and exports back byte-identical`, async () => {
      const files = new Map([[main, readBytes(join(dir, main))]]);
      for (const c of grimrockCompanions(main, names)) files.set(c, readBytes(join(dir, c)));
      const { document, warnings } = importGrimrock(files, { main });
      expect(warnings).toEqual([]);
      const io = new NodeIO();
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const { files: out } = await exportGrimrock(await io.readBinary(glb), {
        name: main.replace('.model', ''),
      });
      expect([...out.keys()].sort()).toEqual([...files.keys()].sort());
      for (const [n, b] of files) expect(firstByteDiff(out.get(n)!, b), n).toBe(-1);
      // glTF faces are counter-clockwise: every face normal points along its vertex normals.
      const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
      const idx = prim.getIndices()!.getArray()!;
      const P = prim.getAttribute('POSITION')!;
      const N = prim.getAttribute('NORMAL')!;
      for (let t = 0; t < idx.length; t += 3) {
        const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]].map((i) => P.getElement(i, []));
        const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        const n = N.getElement(idx[t], []);
        const d =
          (u[1] * v[2] - u[2] * v[1]) * n[0] +
          (u[2] * v[0] - u[0] * v[2]) * n[1] +
          (u[0] * v[1] - u[1] * v[0]) * n[2];
        expect(d).toBeGreaterThan(0);
      }
      if (main === 'lever.model') {
        const anims = document.getRoot().listAnimations();
        const end = (name: string) =>
          Math.max(
            ...anims
              .find((a) => a.getName() === name)!
              .listSamplers()
              .map((s) => s.getInput()!.getMax([])[0]),
          );
        expect(end('lever_pull')).toBeCloseTo(10 / 30, 6);
        expect(end('lever_push')).toBeCloseTo(8 / 24, 6);
        // v2 constant channels are one-key samplers.
        const push = anims.find((a) => a.getName() === 'lever_push')!;
        const t = push.listChannels().find((c) => c.getTargetPath() === 'translation')!;
        expect(t.getSampler()!.getInput()!.getCount()).toBe(1);
        expect(
          document
            .getRoot()
            .listSkins()[0]
            .listJoints()
            .map((j) => j.getName()),
        ).toEqual(['b_base', 'b_handle']);
      }
    });
  }
});
