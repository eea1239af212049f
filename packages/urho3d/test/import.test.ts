import { basename } from 'node:path';
import {
  corpusFiles,
  readBytes,
  validateGlb,
  validatorErrors,
  loadWithThree,
  expectClose,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { readAni } from '../src/ani.js';
import { readMdl } from '../src/mdl.js';

const dir = (f: string) => f.slice(0, f.lastIndexOf('/'));
const mdls = corpusFiles('urho', ['.mdl']);
const anis = corpusFiles('urho', ['.ani']);

function filesFor(main: string) {
  const siblings = [...mdls, ...anis].map((f) => basename(f));
  const comps = legacyFormat.companions!(basename(main), siblings);
  const files = new Map<string, Uint8Array>([[basename(main), readBytes(main)]]);
  for (const c of comps) files.set(c, readBytes(`${dir(main)}/${c}`));
  return files;
}

describe('import corpus models to valid glTF', () => {
  for (const f of mdls) {
    it(`${basename(f)} (+ its animations) → .glb with 0 validator errors, bounds as stored`, async () => {
      const files = filesFor(f);
      const { document, warnings } = await legacyFormat.import(files, { main: basename(f) });
      const glb = await new NodeIO().writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      // Bounds: union of the POSITION accessors equals the stored bounding box, mirrored (z → −z).
      const m = readMdl(readBytes(f));
      const min = [Infinity, Infinity, Infinity];
      const max = [-Infinity, -Infinity, -Infinity];
      for (const mesh of document.getRoot().listMeshes())
        for (const p of mesh.listPrimitives()) {
          const a = p.getAttribute('POSITION')!;
          const arr = a.getArray()!;
          for (let i = 0; i < arr.length; i += 3)
            for (let c = 0; c < 3; c++) {
              min[c] = Math.min(min[c], arr[i + c]);
              max[c] = Math.max(max[c], arr[i + c]);
            }
        }
      const want = [m.bounds[0], m.bounds[1], -m.bounds[5], m.bounds[3], m.bounds[4], -m.bounds[2]];
      const got = [...min, ...max];
      if (basename(f) === 'Basis.mdl') {
        // Basis.mdl stores a box 1.5 units larger on every side than its line vertices: check it encloses them.
        for (let c = 0; c < 3; c++) {
          expect(got[c]).toBeGreaterThanOrEqual(want[c]);
          expect(got[c + 3]).toBeLessThanOrEqual(want[c + 3]);
        }
      } else {
        expectClose(got, want, 1e-5, `${basename(f)} bounds`);
      }
      // Sanitized values are reported, never silent.
      for (const w of warnings) expect(w.code).toMatch(/^(NORMAL|TANGENT)_SANITIZED$/);
    });
  }
});

describe('Jack in three.js', () => {
  it('Jack.mdl + Jack_Walk.ani loads as a skinned, animated character', async () => {
    const jack = mdls.find((f) => basename(f) === 'Jack.mdl')!;
    const files = filesFor(jack);
    expect([...files.keys()]).toEqual(['Jack.mdl', 'Jack_Walk.ani']);
    const { document } = await legacyFormat.import(files, { main: 'Jack.mdl' });
    const glb = await new NodeIO().writeBinary(document);
    const gltf = await loadWithThree(glb);
    const skinned: any[] = [];
    gltf.scene.traverse((o: any) => {
      if (o.isSkinnedMesh) skinned.push(o);
    });
    expect(skinned.length).toBeGreaterThan(0);
    expect(skinned[0].skeleton.bones.length).toBe(readMdl(readBytes(jack)).bones.length);
    expect(gltf.animations.length).toBe(1);
    const ani = readAni(files.get('Jack_Walk.ani')!);
    expect(gltf.animations[0].duration).toBeCloseTo(ani.length, 3);
  });
});
