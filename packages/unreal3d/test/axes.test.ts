/**
 * glTF's front (issue 18.3): "the front of a glTF asset faces +Z". Unreal is left-handed, Z up,
 * X forward (formats/unreal3d.md §4: an actor at Rotation yaw 0 looks along +X), so the importer
 * maps the game's world `(X, Y, Z)` to glTF `(−Y, Z, X)` (the mapping that section recommends for
 * facing +Z; determinant −1, winding reversed): forward +X → +Z, up +Z → +Y, right +Y → −X.
 * Checked on real files of the corpus (every vertex of frame 0, through the node transform, against
 * the engine's placement of the `.uc`: MESH ORIGIN, MESHMAP SCALE) and back through the baked export.
 */
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { corpusRoot, hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  anivFrame,
  exportUnreal,
  importUnrealFiles,
  parseUc,
  placeUnreal,
  readAniv,
  readData,
  UNREAL_UNIT_METRES,
  ucMesh,
} from '../src/index.js';

const dir = hasCorpus('unreal3d') ? join(corpusRoot(), 'unreal3d') : '';

describe.skipIf(!dir)('the game forward is glTF +Z and its up +Y', () => {
  for (const base of ['Skull', 'Sporifier', 'Keycard']) {
    it(`${base}: every vertex at unit × (−Y, Z, X) of its Unreal world position`, async () => {
      const files = new Map(
        [`${base}_d.3d`, `${base}_a.3d`, `${base}.uc`].map((n) => [n, readBytes(join(dir, n))] as const),
      );
      const { document } = await importUnrealFiles(files, { main: `${base}_d.3d`, textures: false });
      const node = document
        .getRoot()
        .listNodes()
        .find((n) => n.getMesh())!;
      const m = node.getWorldMatrix();
      const data = readData(files.get(`${base}_d.3d`)!);
      const aniv = readAniv(files.get(`${base}_a.3d`)!, 'a', { numVertices: data.header.numVertices });
      const uc = ucMesh(parseUc(new TextDecoder('latin1').decode(files.get(`${base}.uc`))), node.getName());
      const world = Float64Array.from(anivFrame(aniv, 0));
      placeUnreal({ scale: uc.scale, origin: uc.origin, unmirror: uc.unmirror }, world);
      const U = UNREAL_UNIT_METRES;
      let worst = 0;
      let checked = 0;
      for (const prim of node.getMesh()!.listPrimitives()) {
        const pos = prim.getAttribute('POSITION')!.getArray()!;
        const orig = prim.getAttribute('_UNREAL_VERTEX')!.getArray()!;
        for (let j = 0; j < orig.length; j++) {
          const [x, y, z] = [pos[j * 3], pos[j * 3 + 1], pos[j * 3 + 2]];
          const g = [0, 1, 2].map((r) => m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
          const o = orig[j] * 3;
          const want = [-world[o + 1] * U, world[o + 2] * U, world[o] * U];
          for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(g[c] - want[c]));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
      expect(worst).toBeLessThan(1e-5);
    });
  }
});

describe('export reads glTF +Z as the game forward', () => {
  it('a wedge whose nose is at glTF +Z has its nose at Unreal +X, its top at +Z, its right (glTF −X) at +Y', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    // nose (0, 0, 2), top (0, 1, 0), right (−1, 0, 0), left (1, 0, 0): metres
    const pos = new Float32Array([0, 0, 2, 0, 1, 0, -1, 0, 0, 1, 0, 0]);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buffer))
      .setIndices(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Uint16Array([0, 1, 2, 0, 3, 1]))
          .setBuffer(buffer),
      );
    doc.createScene().addChild(doc.createNode('w').setMesh(doc.createMesh('w').addPrimitive(prim)));
    const { files } = await exportUnreal(doc, { name: 'w', weld: false });
    const data = readData(files.get('w_d.3d')!);
    const aniv = readAniv(files.get('w_a.3d')!, 'w_a.3d', { numVertices: data.header.numVertices });
    const uc = ucMesh(parseUc(new TextDecoder().decode(files.get('w.uc'))), 'w');
    const world = Float64Array.from(anivFrame(aniv, 0));
    placeUnreal({ scale: uc.scale, origin: uc.origin }, world);
    const at = (v: number) => [0, 1, 2].map((c) => world[v * 3 + c] * UNREAL_UNIT_METRES);
    const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) < 0.01);
    expect(close(at(0), [2, 0, 0])).toBe(true); // nose: forward
    expect(close(at(1), [0, 0, 1])).toBe(true); // top: up
    expect(close(at(2), [0, 1, 0])).toBe(true); // the model's right
    expect(close(at(3), [0, -1, 0])).toBe(true);
  });
});
