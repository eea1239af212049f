import { basename } from 'node:path';
import { corpusFiles, corpusRoot } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { join } from 'node:path';
import { exportUnreal } from '../src/export.js';
import { importUnrealFiles } from '../src/index.js';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { fileSetFor } from './helpers.js';

/** Signed volume of a primitive's triangles in glTF winding (positive = faces point outward). */
function signedVolume(pos: Float32Array, idx: ArrayLike<number>): number {
  let v = 0;
  for (let i = 0; i < idx.length; i += 3) {
    const a = idx[i] * 3;
    const b = idx[i + 1] * 3;
    const c = idx[i + 2] * 3;
    v +=
      pos[a] * (pos[b + 1] * pos[c + 2] - pos[b + 2] * pos[c + 1]) -
      pos[a + 1] * (pos[b] * pos[c + 2] - pos[b + 2] * pos[c]) +
      pos[a + 2] * (pos[b] * pos[c + 1] - pos[b + 1] * pos[c]);
  }
  return v / 6;
}

describe('winding and normals', () => {
  for (const name of ['box_d.3d', 'Skull_d.3d', 'SporeCanister_d.3d', 'Keycard_d.3d']) {
    it(`${name}: glTF front faces point outward and NORMAL is unit length`, async () => {
      const path = corpusFiles('unreal3d', [name]).find((f) => basename(f) === name) as string;
      const { document } = await legacyFormat.import(fileSetFor(path), { main: name });
      const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
      const pos = prim.getAttribute('POSITION')?.getArray() as Float32Array;
      const idx = prim.getIndices()?.getArray() as Uint16Array;
      expect(signedVolume(pos, idx)).toBeGreaterThan(0);
      const nrm = prim.getAttribute('NORMAL')?.getArray() as Float32Array;
      for (let i = 0; i < nrm.length; i += 3)
        expect(Math.hypot(nrm[i], nrm[i + 1], nrm[i + 2])).toBeCloseTo(1, 5);
    });
  }
  it('Box.glb → Unreal → glTF keeps outward faces (winding flipped once each way)', async () => {
    const doc = await new NodeIO().read(join(corpusRoot(), 'gltf', 'Box.glb'));
    const { files } = await exportUnreal(doc, { name: 'b' });
    const { document } = await importUnrealFiles(files, { main: 'b_d.3d' });
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    const vol = signedVolume(
      prim.getAttribute('POSITION')?.getArray() as Float32Array,
      prim.getIndices()?.getArray() as Uint16Array,
    );
    expect(vol).toBeGreaterThan(0);
  });
});
