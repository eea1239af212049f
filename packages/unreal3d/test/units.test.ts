/**
 * Units (issue 18.5): glTF in metres at 1 UU = 1.905 cm (`UNREAL_UNIT_METRES`) by default, on the
 * node transform only, so the file's numbers come back exactly; `scale: 1` keeps Unreal units; a
 * glTF in metres exports at 52.5 UU per metre.
 */
import { join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { corpusRoot, firstByteDiff, hasCorpus, readBytes } from '@gltf-legacy/test-utils';
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

/** Height (glTF Y extent) of the mesh node's frame-0 vertices, in glTF units. */
function height(document: Document): number {
  const node = document
    .getRoot()
    .listNodes()
    .find((n) => n.getMesh())!;
  const m = node.getWorldMatrix();
  let lo = Infinity;
  let hi = -Infinity;
  for (const prim of node.getMesh()!.listPrimitives()) {
    const a = prim.getAttribute('POSITION')!.getArray()!;
    for (let i = 0; i < a.length; i += 3) {
      const y = m[1] * a[i] + m[5] * a[i + 1] + m[9] * a[i + 2] + m[13];
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  }
  return hi - lo;
}

describe.skipIf(!dir)('units', () => {
  const files = () =>
    new Map(['Skull_d.3d', 'Skull_a.3d', 'Skull.uc'].map((n) => [n, readBytes(join(dir, n))] as const));

  it('Skull: metres by default, Unreal units with scale 1, same file numbers back from either', async () => {
    const metres = await importUnrealFiles(files(), { main: 'Skull_d.3d', textures: false });
    const uu = await importUnrealFiles(files(), { main: 'Skull_d.3d', textures: false, scale: 1 });
    // The Skull stands ~49 UU: ~0.94 m.
    const hUU = height(uu.document);
    expect(hUU).toBeGreaterThan(40);
    expect(hUU).toBeLessThan(60);
    expect(height(metres.document)).toBeCloseTo(hUU * UNREAL_UNIT_METRES, 6);
    // the engine's own placement of the frame-0 Z extent, in Unreal units
    const data = readData(files().get('Skull_d.3d')!);
    const aniv = readAniv(files().get('Skull_a.3d')!, 'a', { numVertices: data.header.numVertices });
    const uc = ucMesh(parseUc(new TextDecoder().decode(files().get('Skull.uc'))), 'Skull');
    const w = Float64Array.from(anivFrame(aniv, 0));
    placeUnreal({ scale: uc.scale, origin: uc.origin }, w);
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 2; i < w.length; i += 3) {
      lo = Math.min(lo, w[i]);
      hi = Math.max(hi, w[i]);
    }
    expect(hUU).toBeCloseTo(hi - lo, 4);
    const io = new NodeIO();
    for (const { document } of [metres, uu]) {
      const back = await io.readBinary(await io.writeBinary(document));
      const { files: out } = await exportUnreal(back, { name: 'Skull' });
      for (const n of ['Skull_d.3d', 'Skull_a.3d'])
        expect(firstByteDiff(out.get(n)!, files().get(n)!), n).toBe(-1);
    }
  });

  it('a glTF 1.75 m tall exports 91.9 UU tall (52.5 UU per metre), scale 1 keeps 1.75', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = new Float32Array([0, 0, 0, 0.5, 0, 0, 0, 1.75, 0]);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buffer));
    doc.createScene().addChild(doc.createNode('p').setMesh(doc.createMesh('p').addPrimitive(prim)));
    for (const [scale, want] of [
      [undefined, 1.75 / UNREAL_UNIT_METRES],
      [1, 1.75],
    ] as const) {
      const { files } = await exportUnreal(doc, { name: 'p', scale });
      const data = readData(files.get('p_d.3d')!);
      const aniv = readAniv(files.get('p_a.3d')!, 'a', { numVertices: data.header.numVertices });
      const uc = ucMesh(parseUc(new TextDecoder().decode(files.get('p.uc'))), 'p');
      const w = Float64Array.from(anivFrame(aniv, 0));
      placeUnreal({ scale: uc.scale, origin: uc.origin }, w);
      const zs = [w[2], w[5], w[8]];
      expect(Math.max(...zs) - Math.min(...zs)).toBeCloseTo(want, 1);
    }
  });
});
