// Regressions for the fuzz findings in test-assets/fuzz-regressions/unreal3d/.
import { ExportError } from '@gltf-legacy/core';
import { Document, NodeIO, type Node } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { regressionInput } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { readAniv } from '../src/aniv.js';
import { exportUnreal, UNREAL_MAX_VERTEX_FRAMES } from '../src/export.js';
import { importUnrealFiles } from '../src/index.js';

/** A scene with one `nv`-vertex triangle list and one translation clip lasting `duration` s. */
function animatedDoc(nv: number, duration: number): { doc: Document; node: Node } {
  const doc = new Document();
  const buf = doc.createBuffer();
  const pos = new Float32Array(nv * 3);
  for (let i = 0; i < pos.length; i++) pos[i] = Math.sin(i * 1.7) * (1 + (i % 7));
  const idx = new Uint32Array(Math.floor(nv / 3) * 3);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buf))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(buf));
  const node = doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim));
  doc.createScene('s').addChild(node);
  const sampler = doc
    .createAnimationSampler()
    .setInput(
      doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(new Float32Array([0, duration]))
        .setBuffer(buf),
    )
    .setOutput(
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array([0, 0, 0, 1, 2, 3]))
        .setBuffer(buf),
    );
  doc
    .createAnimation('Clip')
    .addSampler(sampler)
    .addChannel(
      doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler),
    );
  return { doc, node };
}

async function exportError(doc: Document, options = {}): Promise<ExportError> {
  const t0 = performance.now();
  const err = await exportUnreal(doc, { name: 'fuzz', ...options }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExportError);
  // Fails fast: before posing or allocating any frame.
  expect(performance.now() - t0).toBeLessThan(500);
  return err as ExportError;
}

describe('fuzz regressions', () => {
  it('629cd2742e43efb2: a sampler whose output does not fit its keys is dropped, not a RangeError', async () => {
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const doc = await io.readBinary(await regressionInput('unreal3d', '629cd2742e43efb2', io));
    const { files, warnings } = await exportUnreal(doc, { name: 'fuzz' });
    const dropped = warnings.find((w) => w.code === 'ANIMATION_CHANNEL_DROPPED');
    expect(dropped?.count).toBeGreaterThanOrEqual(1);
    const back = await importUnrealFiles(files, { main: 'fuzz.uc' });
    const aniv = readAniv(files.get('fuzz_a.3d') as Uint8Array);
    expect(aniv.frameCount).toBeGreaterThan(1);
    const prim = back.document.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(prim.listTargets().length).toBe(aniv.frameCount - 1);
  });

  it('054ef325a0c3ac40 (TIMEOUT): a 899 s clip at 30 fps is refused with TOO_MANY_FRAMES', async () => {
    // The generated document's 899 s STEP track baked to 26970 frames (13.9 MB _a.3d) whose
    // re-import took > 20 s; the default limit is 4096 frames (option maxFrames).
    const { doc } = animatedDoc(30, 899);
    const err = await exportError(doc);
    expect(err.code).toBe('TOO_MANY_FRAMES');
    expect(err.message).toContain('26970');
    // The same clip at 4 fps fits: 3596 frames.
    const { files } = await exportUnreal(doc, { name: 'fuzz', fps: 4 });
    expect(readAniv(files.get('fuzz_a.3d') as Uint8Array).frameCount).toBe(3596);
  });

  it('8cb4920d417282d5 (MEMORY): 65537 vertices × 5370 frames is refused with TOO_MUCH_ANIMATION', async () => {
    const { doc } = animatedDoc(65537, 179);
    const err = await exportError(doc);
    expect(err.code).toBe('TOO_MUCH_ANIMATION');
    expect(err.message).toContain(String(Math.floor(UNREAL_MAX_VERTEX_FRAMES / 65537)));
  });

  it('maxFrames is validated and limits the baked frames', async () => {
    const { doc } = animatedDoc(30, 10);
    expect((await exportError(doc, { maxFrames: 100 })).code).toBe('TOO_MANY_FRAMES');
    expect((await exportError(doc, { maxFrames: 0.5 })).code).toBe('BAD_OPTION');
    const { files } = await exportUnreal(doc, { name: 'fuzz', maxFrames: 300 });
    expect(readAniv(files.get('fuzz_a.3d') as Uint8Array).frameCount).toBe(300);
  });

  it('key times that are not finite drop the channel (no NaN frame count)', async () => {
    const { doc } = animatedDoc(30, Number.NaN);
    const { files, warnings } = await exportUnreal(doc, { name: 'fuzz' });
    expect(warnings.map((w) => w.code)).toContain('ANIMATION_CHANNEL_DROPPED');
    expect(readAniv(files.get('fuzz_a.3d') as Uint8Array).frameCount).toBe(1);
  });
});

describe('fuzz campaign (seed 99) regressions', () => {
  it('an index past the vertex count is an ExportError, not a _d.3d our reader rejects', async () => {
    const { doc } = animatedDoc(30, 1);
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    const idx = prim.getIndices()?.getArray() as Uint32Array;
    idx[4] = 30;
    const err = await exportError(doc);
    expect(err.code).toBe('INDEX_OUT_OF_RANGE');
    expect(err.message).toContain('index 30');
  });

  it('native export bakes when extras name a weapon vertex past numVertices', async () => {
    const files = new Map<string, Uint8Array>();
    const { doc } = animatedDoc(30, 1);
    const first = await exportUnreal(doc, { name: 'w' });
    for (const [k, v] of first.files) files.set(k, v);
    const imported = await importUnrealFiles(files, { main: 'w.uc' });
    const mesh = imported.document.getRoot().listMeshes()[0];
    const ex = mesh.getExtras() as { unreal3d: { weapons: unknown[]; runs: number[]; numVertices: number } };
    ex.unreal3d.weapons = [
      {
        vertices: [0, 1, ex.unreal3d.numVertices + 5],
        uvs: [0, 0, 0, 0, 0, 0],
        type: 8,
        color: 0,
        texture: 0,
        flags: 0,
      },
    ];
    ex.unreal3d.runs = [...ex.unreal3d.runs, -1, 1];
    const { files: out } = await exportUnreal(imported.document, { name: 'w' });
    const again = await importUnrealFiles(out, { main: 'w.uc' });
    expect(again.document.getRoot().listMeshes().length).toBeGreaterThan(0);
  });
});

describe('98199017deb21533 (REIMPORT, campaign 515)', () => {
  it('a document whose primitives give no triangle is NO_GEOMETRY, not a _d.3d our reader rejects', async () => {
    const { doc } = animatedDoc(30, 1);
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    prim.setMode(5); // a 2-index strip has no triangle
    prim.setIndices(
      doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(new Uint32Array([0, 1])),
    );
    const err = await exportError(doc);
    expect(err.code).toBe('NO_GEOMETRY');
  });

  it('d309734b0cc8b061: a POSITION accessor that is not a whole number of VEC3s is BAD_ACCESSOR, not a 21-byte frame', async () => {
    const doc = new Document();
    const buf = doc.createBuffer();
    // 7 floats: two whole vertices and a third cut short (NodeIO gives this for a fractional count)
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1]))
      .setBuffer(buf);
    const prim = doc.createPrimitive().setAttribute('POSITION', pos);
    doc.createScene().addChild(doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim)));
    await expect(exportUnreal(doc, { name: 'fuzz' })).rejects.toMatchObject({ code: 'BAD_ACCESSOR' });
    // the stored input (Mesh_PrimitiveMode_11 with POSITION count 623.33), in a buffer of its own:
    // the campaign's worker got the GLB at offset 0, where the export wrote the bad frame size
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const bytes = new Uint8Array(await regressionInput('unreal3d', 'd309734b0cc8b061', io));
    const found = await io.readBinary(bytes);
    await expect(exportUnreal(found, { name: 'fuzz' })).rejects.toThrow(
      /POSITION accessor holds \d+ values, not a whole number of VEC3/,
    );
  });
});
