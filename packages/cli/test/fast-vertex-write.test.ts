// The fast vertex-data writer (issue 19): the .glb the CLI writes holds every accessor with the
// same bytes as the document (and as NodeIO.writeBinary's .glb decodes to), is valid, laid out
// as the core writer lays it out (interleaved per primitive, padded to 4 bytes; morph targets one
// view per accessor), and never names the writer-only extension.
import { validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { Document, type GLTF, NodeIO, type TypedArray } from '@gltf-transform/core';
import { KHRMeshQuantization, KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OutputData, outputBytes, writeGltf } from '../src/index.js';

const bytesOf = (a: TypedArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A mesh with mixed attribute types, two morph targets, a sparse accessor and an animation. */
function sample(vertices: number): Document {
  const doc = new Document();
  // SHORT and BYTE morph targets need KHR_mesh_quantization
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  const buffer = doc.createBuffer();
  const acc = (name: string, type: GLTF.AccessorType, array: TypedArray, normalized = false) =>
    doc.createAccessor(name).setType(type).setArray(array).setNormalized(normalized).setBuffer(buffer);
  const n = vertices;
  const f = (k: number, m: number) => Float32Array.from({ length: n * k }, (_, i) => ((i * m) % 17) - 8.5);
  const position = acc('position', 'VEC3', f(3, 7));
  position.getArray()![1] = -0; // the sign of a zero survives
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', position)
    .setAttribute(
      'NORMAL',
      acc(
        'normal',
        'VEC3',
        Int8Array.from({ length: n * 3 }, (_, i) => (i % 3 === 2 ? 127 : 0)),
        true,
      ),
    )
    .setAttribute(
      'TEXCOORD_0',
      acc(
        'uv',
        'VEC2',
        Uint16Array.from({ length: n * 2 }, (_, i) => i * 31),
        true,
      ),
    )
    .setAttribute(
      'COLOR_0',
      acc(
        'color',
        'VEC4',
        Uint8Array.from({ length: n * 4 }, (_, i) => i),
        true,
      ),
    )
    .setIndices(
      acc(
        'indices',
        'SCALAR',
        Uint16Array.from({ length: n }, (_, i) => n - 1 - i),
      ),
    );
  prim.setMode(0); // points: any vertex count is valid
  const t1 = doc
    .createPrimitiveTarget('t1')
    .setAttribute(
      'POSITION',
      acc(
        't1.position',
        'VEC3',
        Int16Array.from({ length: n * 3 }, (_, i) => i * 13 - 500),
        true,
      ),
    )
    .setAttribute(
      'NORMAL',
      acc(
        't1.normal',
        'VEC3',
        Int8Array.from({ length: n * 3 }, (_, i) => (i % 9) - 4),
        true,
      ),
    );
  const t2 = doc.createPrimitiveTarget('t2').setAttribute('POSITION', acc('t2.position', 'VEC3', f(3, 5)));
  const sparse = acc('t3.position', 'VEC3', new Float32Array(n * 3)).setSparse(true);
  sparse.getArray()![0] = 1;
  const t3 = doc.createPrimitiveTarget('t3').setAttribute('POSITION', sparse);
  prim.addTarget(t1).addTarget(t2).addTarget(t3);
  const mesh = doc.createMesh('m').addPrimitive(prim).setWeights([0, 0, 0]);
  const node = doc.createNode('n').setMesh(mesh);
  doc.createScene().addChild(node);
  const input = acc('time', 'SCALAR', new Float32Array([0, 1]));
  const output = acc('weights', 'SCALAR', new Float32Array([0, 1, 0, 1, 0, 0]));
  const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
  doc
    .createAnimation('a')
    .addSampler(sampler)
    .addChannel(
      doc.createAnimationChannel().setSampler(sampler).setTargetNode(node).setTargetPath('weights'),
    );
  return doc;
}

async function cliGlb(doc: Document): Promise<Uint8Array> {
  const outputs = new Map<string, OutputData>();
  await writeGltf(doc, '/nowhere/x.glb', true, {}, outputs);
  return outputBytes(outputs.get('/nowhere/x.glb')!);
}

/** Accessor name → bytes and metadata, from a document. */
function accessors(doc: Document) {
  return new Map(
    doc
      .getRoot()
      .listAccessors()
      .map((a) => [
        a.getName(),
        {
          bytes: bytesOf(a.getArray()!),
          type: a.getType(),
          componentType: a.getComponentType(),
          normalized: a.getNormalized(),
          sparse: a.getSparse(),
        },
      ]),
  );
}

describe('fast vertex writer (the CLI .glb)', () => {
  it('keeps every accessor byte for byte, valid, laid out as the core writer does (targets separate), unnamed', async () => {
    const doc = sample(37);
    const glb = await cliGlb(doc);
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const back = await io.readBinary(glb);
    expect(accessors(back)).toEqual(accessors(doc));
    expect(accessors(back)).toEqual(accessors(await io.readBinary(await io.writeBinary(doc))));
    expect(Object.is(back.getRoot().listAccessors()[0].getArray()![1], -0)).toBe(true);

    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);

    const { json } = await io.binaryToJSON(glb);
    expect(JSON.stringify(json)).not.toContain('GLTF_LEGACY');
    const strides = (j: GLTF.IGLTF) =>
      (j.bufferViews ?? [])
        .filter((v) => v.target === 34962)
        .map((v) => [v.byteStride, v.byteLength])
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    // the base primitive interleaved as NodeIO's own writer does it (12 + 4 + 4 + 4 bytes), the
    // morph targets one view per accessor (target 1: 8 and 4 bytes; target 2: 12)
    const core = await io.binaryToJSON(await io.writeBinary(doc));
    expect(strides(core.json)).toEqual([
      [12, 12 * 37],
      [12, 12 * 37],
      [24, 24 * 37],
    ]);
    expect(strides(json)).toEqual([
      [4, 4 * 37],
      [8, 8 * 37],
      [12, 12 * 37],
      [24, 24 * 37],
    ]);
    // the accessor definitions (bounds of POSITION and animation inputs, normalized, counts) as
    // the core writer makes them
    const defs = (j: GLTF.IGLTF) =>
      Object.fromEntries(
        (j.accessors ?? []).map(({ bufferView: _v, byteOffset: _o, sparse: _s, ...d }) => [d.name, d]),
      );
    expect(defs(json)).toEqual(defs(core.json));
    expect(defs(json)['t1.position'].max).toHaveLength(3);
    // written by this writer, not the core's: its views come after the core's (indices first)
    const targets = (j: GLTF.IGLTF) => (j.bufferViews ?? []).map((v) => v.target ?? 0);
    expect(targets(json)).toEqual([34963, 0, 0, 0, 34962, 34962, 34962, 34962]);
    expect(targets(core.json)).not.toEqual(targets(json));
    // the extension is gone from the document again
    expect(
      doc
        .getRoot()
        .listExtensionsUsed()
        .map((e) => e.extensionName),
    ).toEqual(['KHR_mesh_quantization']);
  });

  it('round-trips any vertex count and component type (property)', async () => {
    const types = [Float32Array, Int8Array, Uint8Array, Int16Array, Uint16Array, Uint32Array] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(...types),
        fc.constantFrom('SCALAR', 'VEC2', 'VEC3', 'VEC4'),
        fc.integer(),
        async (n, Type, type, seed) => {
          const doc = new Document();
          const buffer = doc.createBuffer();
          const size = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[type as 'SCALAR'];
          const array = new Type(n * size);
          for (let i = 0; i < array.length; i++) array[i] = (seed + i * 7919) % 120;
          // floats: also the values the bounds skip or keep the sign of
          if (array instanceof Float32Array)
            for (const [i, v] of [
              [0, Number.NaN],
              [1, Number.POSITIVE_INFINITY],
              [2, -0],
              [5, Number.NEGATIVE_INFINITY],
            ])
              if (i < array.length && (seed & (1 << i)) !== 0) array[i] = v;
          const position = doc
            .createAccessor('p')
            .setType('VEC3')
            .setArray(Float32Array.from({ length: n * 3 }, (_, i) => i))
            .setBuffer(buffer);
          const extra = doc
            .createAccessor('x')
            .setType(type as GLTF.AccessorType)
            .setArray(array)
            .setBuffer(buffer);
          const prim = doc
            .createPrimitive()
            .setAttribute('POSITION', position)
            .setAttribute('_X', extra)
            .setMode(0);
          prim.addTarget(
            doc.createPrimitiveTarget().setAttribute(
              'POSITION',
              doc
                .createAccessor('tx')
                .setType(type as GLTF.AccessorType)
                .setArray(array.slice())
                .setBuffer(buffer),
            ),
          );
          doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
          const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
          const glb = await cliGlb(doc);
          expect(accessors(await io.readBinary(glb))).toEqual(accessors(doc));
          // the definitions, bounds included, as the core writer makes them
          const defs = async (bytes: Uint8Array) =>
            Object.fromEntries(
              ((await io.binaryToJSON(bytes)).json.accessors ?? []).map(
                ({ bufferView: _v, byteOffset: _o, ...d }) => [d.name, d],
              ),
            );
          expect(await defs(glb)).toEqual(await defs(await io.writeBinary(doc)));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('.gltf output: the same accessors, the extension unnamed', async () => {
    const doc = sample(5);
    const outputs = new Map<string, OutputData>();
    await writeGltf(doc, '/nowhere/y.gltf', false, {}, outputs);
    const json = JSON.parse(new TextDecoder().decode(outputBytes(outputs.get('/nowhere/y.gltf')!)));
    expect(JSON.stringify(json)).not.toContain('GLTF_LEGACY');
    const back = await new NodeIO()
      .registerExtensions(KHRONOS_EXTENSIONS)
      .readJSON({ json, resources: { 'y.bin': outputBytes(outputs.get('/nowhere/y.bin')!) } });
    expect(accessors(back)).toEqual(accessors(doc));
  });

  it('a buffer of vertex data only (no indices, no animation): .glb and .gltf', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const p = doc
      .createAccessor('p')
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute('POSITION', p).setMode(0);
    doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
    const io = new NodeIO();
    const glb = await cliGlb(doc);
    expect(accessors(await io.readBinary(glb))).toEqual(accessors(doc));
    expect((await validateGlb(glb)).issues.numErrors).toBe(0);
    const outputs = new Map<string, OutputData>();
    await writeGltf(doc, '/nowhere/z.gltf', false, {}, outputs);
    const json = JSON.parse(new TextDecoder().decode(outputBytes(outputs.get('/nowhere/z.gltf')!)));
    expect(json.buffers).toEqual([{ uri: 'z.bin', byteLength: 36 }]);
    const back = await io.readJSON({
      json,
      resources: { 'z.bin': outputBytes(outputs.get('/nowhere/z.bin')!) },
    });
    expect(accessors(back)).toEqual(accessors(doc));
  });
});
