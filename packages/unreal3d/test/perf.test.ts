/**
 * Structure that keeps import/export cheap (issue 9): static frames make no morph targets,
 * unchanged deltas share one zero accessor, many triangle groups do not multiply accessors by
 * frames, and aniv frames are read without a copy. Every case still exports byte-identical.
 */
import { encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import { corpusFiles, firstByteDiff } from '@gltf-legacy/test-utils';
import { KeptBytesExtension } from '@gltf-legacy/core';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { readAniv, writeAniv } from '../src/aniv.js';
import { createDataHeader, createPolys, writeData } from '../src/data.js';
import { exportUnreal } from '../src/export.js';
import { importUnrealFiles } from '../src/index.js';
import { fileSetFor } from './helpers.js';

/** A strip of `tris` triangles over `tris + 2` vertices; `groups` distinct texture slots. */
function mesh(
  tris: number,
  frames: (f: number, v: number) => [number, number, number],
  nf: number,
  groups = 1,
) {
  const nv = tris + 2;
  const polys = createPolys(tris);
  for (let i = 0; i < tris; i++) {
    polys.vertices.set([i, i + 1, i + 2], i * 3);
    polys.uvs.set([i & 0xff, 0, (i + 1) & 0xff, 9, (i + 2) & 0xff, 0], i * 6);
    polys.textures[i] = i % groups;
    polys.types[i] = (i % groups) & 1; // NORMAL / TWO_SIDED
  }
  const xyz: number[] = [];
  for (let f = 0; f < nf; f++) for (let v = 0; v < nv; v++) xyz.push(...frames(f, v));
  const d = writeData({ header: createDataHeader(tris, nv), polys, trailing: new Uint8Array(0) });
  const a = writeAniv({
    numFrames: nf,
    frameSize: nv * 4,
    layout: 'packed',
    numVertices: nv,
    frameCount: nf,
    packed: encodeUnrealPackedArray(xyz).packed,
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  });
  return new Map([
    ['m_d.3d', d],
    ['m_a.3d', a],
  ]);
}

async function viaGlb(doc: Document): Promise<Document> {
  const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);
  return io.readBinary(await io.writeBinary(doc));
}

async function expectSameFiles(files: Map<string, Uint8Array>, doc: Document, name = 'm') {
  const out = await exportUnreal(await viaGlb(doc), { name });
  for (const n of [`${name}_d.3d`, `${name}_a.3d`]) {
    const a = files.get(n) as Uint8Array;
    const b = out.files.get(n) as Uint8Array;
    expect(firstByteDiff(a, b), n).toBe(-1);
  }
}

describe('import cost structure', () => {
  it('mar_rifle (30 identical frames) imports without morph targets and exports 30 frames back', async () => {
    const path = corpusFiles('unreal3d', ['_d.3d']).find((p) => p.endsWith('mar_rifle_d.3d')) as string;
    const files = fileSetFor(path);
    const { document } = await importUnrealFiles(files, { main: 'mar_rifle_d.3d' });
    const mesh = document.getRoot().listMeshes()[0];
    expect(mesh.listPrimitives()[0].listTargets().length).toBe(0);
    expect((mesh.getExtras() as { unreal3d: { sameFrames?: number } }).unreal3d.sameFrames).toBe(30);
    // POSITION, NORMAL, TEXCOORD_0, _UNREAL_VERTEX, indices + one animation's times and translations.
    expect(document.getRoot().listAccessors().length).toBe(7);
    const out = await exportUnreal(await viaGlb(document), { name: 'mar_rifle' });
    expect(readAniv(out.files.get('mar_rifle_a.3d') as Uint8Array).frameCount).toBe(30);
    expect(
      firstByteDiff(out.files.get('mar_rifle_a.3d') as Uint8Array, files.get('mar_rifle_a.3d') as Uint8Array),
    ).toBe(-1);
  });

  it('a frame equal to frame 0 and a rigid move share one zero accessor per primitive', async () => {
    // frame 1 = frame 0, frame 2 moves every vertex by +5 X (normals unchanged), frame 3 bends.
    const files = mesh(
      4,
      (f, v) => [v * 10 + (f === 2 ? 5 : 0), (v & 1) * 10, f === 3 && v === 3 ? 20 : 0],
      4,
    );
    const { document } = await importUnrealFiles(files, { main: 'm_d.3d' });
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    const t = prim.listTargets();
    expect(t.length).toBe(3);
    const zero = t[0].getAttribute('POSITION');
    expect(zero).toBe(t[0].getAttribute('NORMAL'));
    expect(Array.from(zero?.getArray() ?? []).every((x) => x === 0)).toBe(true);
    expect(t[1].getAttribute('NORMAL')).toBe(zero);
    expect(t[1].getAttribute('POSITION')).not.toBe(zero);
    expect(t[1].getAttribute('POSITION')?.getElement(0, [])).toEqual([5, 0, 0]);
    expect(t[2].getAttribute('POSITION')).not.toBe(zero);
    expect(t[2].getAttribute('NORMAL')).not.toBe(zero);
    await expectSameFiles(files, document);
  });

  it('200 texture groups × 30 static frames stay at 5 accessors per group (fuzzed files)', async () => {
    const files = mesh(200, (_f, v) => [v, v & 3, 0], 30, 200);
    const { document } = await importUnrealFiles(files, { main: 'm_d.3d' });
    const prims = document.getRoot().listMeshes()[0].listPrimitives();
    expect(prims.length).toBe(200);
    expect(prims.every((p) => p.listTargets().length === 0)).toBe(true);
    expect(document.getRoot().listAccessors().length).toBeLessThanOrEqual(200 * 5 + 2);
    await expectSameFiles(files, document);
  });

  it('an aligned aniv is read as a view of the bytes (no copy)', () => {
    const files = mesh(2, (f, v) => [v, f, 0], 3);
    const bytes = files.get('m_a.3d') as Uint8Array;
    const aniv = readAniv(bytes, 'm_a.3d', { numVertices: 4 });
    expect(aniv.packed?.buffer).toBe(bytes.buffer);
    expect(aniv.packed?.byteOffset).toBe(bytes.byteOffset + 4);
    // An unaligned copy of the same file reads the same values (copied).
    const odd = new Uint8Array(bytes.length + 1).subarray(1);
    odd.set(bytes);
    const b = readAniv(odd, 'm_a.3d', { numVertices: 4 });
    expect(b.packed?.buffer).not.toBe(odd.buffer);
    expect(Array.from(b.packed ?? [])).toEqual(Array.from(aniv.packed ?? []));
  });
});
