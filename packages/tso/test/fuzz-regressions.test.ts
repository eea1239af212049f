import { join } from 'node:path';
import { ExportError, type FileSet, FormatError, getKeptBytes } from '@gltf-legacy/core';
import { firstByteDiff, readBytes, regressionInput } from '@gltf-legacy/test-utils';
import { Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  legacyFormat,
  readMesh,
  readSkeleton,
  writeAnimation,
  writeMesh,
  writeSkeleton,
} from '../src/index.js';
import { twoBoneAnimation, twoBoneMesh, twoBoneSkeleton } from './fixtures.js';

const REGRESSIONS = join(__dirname, '../../../test-assets/fuzz-regressions/tso');
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

const mainOf = (files: FileSet) => [...files.keys()].find((n) => n.endsWith('.mesh')) ?? [...files.keys()][0];

/** export → import → export; returns both exports. */
async function twice(doc: Document) {
  const first = await legacyFormat.export(doc, { name: 'fuzz' });
  const back = await legacyFormat.import(first.files, { main: mainOf(first.files) });
  const second = await legacyFormat.export(back.document, { name: 'fuzz' });
  return { first, back, second };
}

function expectSameFiles(a: FileSet, b: FileSet) {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [name, bytes] of a) expect(firstByteDiff(bytes, b.get(name)!), name).toBe(-1);
}

describe('fuzz regressions', () => {
  it('9451036d: a skinned node with a primitive without JOINTS_0 exports it rigid on the node', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const acc = (a: Float32Array | Uint16Array, type: 'VEC3' | 'VEC4' | 'MAT4') =>
      doc.createAccessor().setBuffer(buffer).setType(type).setArray(a);
    const joint = doc.createNode('joint').setTranslation([0, 2, 0]);
    const tri = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const skinned = doc
      .createPrimitive()
      .setAttribute('POSITION', acc(tri.slice(), 'VEC3'))
      .setAttribute('JOINTS_0', acc(new Uint16Array(12), 'VEC4'))
      .setAttribute('WEIGHTS_0', acc(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), 'VEC4'));
    const rigid = doc.createPrimitive().setAttribute('POSITION', acc(tri.slice(), 'VEC3'));
    const ibm = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1]);
    const skin = doc.createSkin().addJoint(joint).setInverseBindMatrices(acc(ibm, 'MAT4'));
    const node = doc
      .createNode('body')
      .setTranslation([5, 0, 0])
      .setMesh(doc.createMesh().addPrimitive(skinned).addPrimitive(rigid))
      .setSkin(skin);
    doc.createScene().addChild(joint).addChild(node);

    const { files } = await legacyFormat.export(doc, { name: 'm' });
    const mesh = readMesh(files.get('m.mesh')!);
    expect(mesh.boneNames).toEqual(['joint', 'body']);
    // The rigid triangle lies in the space of the mesh node's own bone: its local positions.
    const body = mesh.bindings.find((b) => mesh.boneNames[b.boneIndex] === 'body')!;
    expect(body.realVertexCount).toBe(3);
    const p = mesh.realVertices.subarray(body.firstRealVertex * 6, body.firstRealVertex * 6 + 18);
    expect([p[6], p[7], p[8], p[12], p[13], p[14]]).toEqual([-1, 0, 0, -0, 1, 0]);
    const skel = readSkeleton(files.get('m.skel')!);
    expect(skel.bones.find((b) => b.name === 'body')!.translation[0]).toBe(-5);

    // The generated document of the finding itself exports (mesh + skel) and is a fixed point.
    const found = await io.readBinary(readBytes(join(REGRESSIONS, '9451036d1c5214a3.bin')));
    const { first, second } = await twice(found);
    expect([...first.files.keys()].sort()).toEqual(['fuzz.mesh', 'fuzz.skel']);
    expectSameFiles(first.files, second.files);
  });

  it('cdefda79: a mesh of points and lines only is not a bone: nothing to export', async () => {
    const found = await io.readBinary(await regressionInput('tso', 'cdefda7953616c4c', io));
    const err = await Promise.resolve()
      .then(() => legacyFormat.export(found, { name: 'fuzz' }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(ExportError);
    expect(err.code).toBe('NOTHING_TO_EXPORT');

    // With an animated node beside it, the points are dropped (warned), no empty .mesh is
    // written, and the skeleton is a fixed point.
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pts = doc
      .createPrimitive()
      .setMode(0)
      .setAttribute(
        'POSITION',
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 0, 1, 1, 1])),
      );
    const cloud = doc.createNode('cloud').setMesh(doc.createMesh().addPrimitive(pts));
    const mover = doc.createNode('mover');
    const sampler = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setArray(new Float32Array([0, 1])),
      )
      .setOutput(
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 0, 0, 1, 0])),
      );
    doc
      .createAnimation('go')
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(mover).setTargetPath('translation').setSampler(sampler),
      );
    doc.createScene().addChild(cloud).addChild(mover);
    const { first, second } = await twice(doc);
    expect(first.warnings.map((w) => w.code)).toContain('PRIMITIVE_DROPPED');
    expect([...first.files.keys()].sort()).toEqual(['fuzz.skel', 'fuzz_go.anim']);
    expect(readSkeleton(first.files.get('fuzz.skel')!).bones.map((b) => b.name)).toEqual(['mover']);
    expectSameFiles(first.files, second.files);
  });

  it('2584729f: positions of a rotated bone survive import → export bit for bit', async () => {
    // A scaled, not-quite-unit-rotated sphere: bone-space coordinates near 0 are finer than
    // float32 glTF positions can hold, so import keeps those raw values in extras.
    const found = await io.readBinary(await regressionInput('tso', '2584729f709982cb', io));
    const { first, back, second } = await twice(found);
    // kept as bytes (GLTF_LEGACY_kept_bytes `rawPositions`: u32 words [vertex, x, y, z bits]…)
    const raw = getKeptBytes(back.document.getRoot().listMeshes()[0], 'rawPositions');
    const vertices = readMesh(first.files.get('fuzz.mesh')!).uvs.length / 2;
    expect(raw?.byteLength ?? 0).toBeGreaterThan(0);
    // Sparse: only the vertices that need it (here 65 of 1876).
    expect(raw!.byteLength / 16).toBeLessThan(vertices / 10);
    expectSameFiles(first.files, second.files);
  });

  it('6257b09e: raw positions are restored far from the origin (bone 10⁷ away, 10⁹ scale)', async () => {
    // float32 glTF positions ~10⁷ keep no sub-unit detail: the bone-space values come from extras.
    const found = await io.readBinary(await regressionInput('tso', '6257b09e5cd44a3a', io));
    const { first, second } = await twice(found);
    expect(Math.abs(readSkeleton(first.files.get('fuzz.skel')!).bones[0].translation[0])).toBeGreaterThan(
      1e6,
    );
    expectSameFiles(first.files, second.files);
  });

  it('NaN vertex coordinates: import rejects them (NAN_VERTEX), export refuses to write them', async () => {
    // Seed 99 campaign: a mutated FreeSO mesh with a NaN x; the mirror changed the NaN's sign
    // bit on one trip and not on the next.
    const mesh = twoBoneMesh();
    mesh.realVertices[6] = Number.NaN;
    const bytes = writeMesh(mesh);
    expect(Number.isNaN(readMesh(bytes).realVertices[6])).toBe(true); // the file model keeps it
    const err = await Promise.resolve()
      .then(() => legacyFormat.import(new Map([['nan.mesh', bytes]]), { main: 'nan.mesh' }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.code).toBe('NAN_VERTEX');
    expect(err.field).toBe('realVertices[6]');
    const realAt = bytes.length - 4 * (mesh.realVertices.length + mesh.blendVertices.length);
    expect(err.offset).toBe(realAt + 24);

    const ok = await legacyFormat.import(new Map([['ok.mesh', writeMesh(twoBoneMesh())]]), {
      main: 'ok.mesh',
    });
    const pos = ok.document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    for (let v = 0; v < pos.getCount(); v++) pos.setElement(v, [Number.NaN, 0, 0]);
    const refused = await Promise.resolve()
      .then(() => legacyFormat.export(ok.document, { name: 'nan' }))
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ExportError);
    expect(refused.code).toBe('NAN_VERTEX');
  });

  it('b1217b96: an infinite glTF position is refused by export, not written for import to turn into NaN', async () => {
    // RiggedSimple with POSITION[23].x = +∞ (a mutated f32). Export used to write it (as
    // (−∞, ∞, −∞) in bone space); import then bound it to the rotated bone: ∞·0 and ∞ − ∞ gave
    // NaN glTF positions, and the second export failed with NAN_VERTEX.
    const found = await io.readBinary(await regressionInput('tso', 'b1217b9650f84e83', io));
    const pos = found.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    expect(pos.getElement(23, [])[0]).toBe(Number.POSITIVE_INFINITY);
    const err = await Promise.resolve()
      .then(() => legacyFormat.export(found, { name: 'fuzz' }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(ExportError);
    expect(err.code).toBe('NAN_VERTEX');
    expect(err.message).toMatch(/Infinity/);
    // The same document with a finite coordinate there exports and is a fixed point.
    pos.setElement(23, [0, pos.getElement(23, [])[1], pos.getElement(23, [])[2]]);
    const { first, second } = await twice(found);
    expectSameFiles(first.files, second.files);
  });

  it('b1217b96: import rejects infinite vertex coordinates (NaN once bound to a rotated bone)', async () => {
    const mesh = twoBoneMesh();
    mesh.realVertices[12] = Number.NEGATIVE_INFINITY; // vertex 2 (bone ARM, turned 90°), x
    const bytes = writeMesh(mesh);
    expect(readMesh(bytes).realVertices[12]).toBe(Number.NEGATIVE_INFINITY); // the file model keeps it
    const files: FileSet = new Map([
      ['inf.mesh', bytes],
      ['twobone.skel', writeSkeleton(twoBoneSkeleton())],
    ]);
    const err = await Promise.resolve()
      .then(() => legacyFormat.import(files, { main: 'inf.mesh' }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.code).toBe('NAN_VERTEX');
    expect(err.field).toBe('realVertices[12]');

    // Finite raw values that leave the float32 range once bound to the bone: with ROOT moved to
    // y = 10³⁸, a y of 3.4·10³⁸ on it is 4.4·10³⁸ in glTF, beyond float32 (∞).
    const far = twoBoneMesh();
    far.realVertices[1] = 3.4e38;
    const farSkel = twoBoneSkeleton();
    farSkel.bones[0].translation[1] = 1e38;
    const farErr = await Promise.resolve()
      .then(() =>
        legacyFormat.import(
          new Map([
            ['far.mesh', writeMesh(far)],
            ['twobone.skel', writeSkeleton(farSkel)],
          ]),
          { main: 'far.mesh' },
        ),
      )
      .catch((e) => e);
    expect(farErr).toBeInstanceOf(FormatError);
    expect(farErr.code).toBe('VERTEX_OUT_OF_RANGE');
  });

  it('34fd79b4: a POSITION accessor holding less than one whole vertex exports no mesh', async () => {
    // Campaign seed 7: a mutated bufferView left POSITION 2 floats long, a VEC3 count of 2/3.
    // Export counted that as a vertex and wrote a .mesh with triangles but no vertex, which its
    // own import rejected (BAD_INDEX).
    // (The CLI's NodeIO reads the note's .bin that way; built here directly.)
    const found = new Document();
    const buf = found.createBuffer();
    const partial = found
      .createPrimitive()
      .setAttribute(
        'POSITION',
        found
          .createAccessor()
          .setBuffer(buf)
          .setType('VEC3')
          .setArray(new Float32Array([0, 1])),
      )
      .setIndices(
        found
          .createAccessor()
          .setBuffer(buf)
          .setArray(new Uint16Array([1, 0, 3, 1, 3, 2])),
      );
    found.createScene().addChild(found.createNode('').setMesh(found.createMesh().addPrimitive(partial)));
    expect(partial.getAttribute('POSITION')!.getCount()).toBeCloseTo(2 / 3);
    const err = await Promise.resolve()
      .then(() => legacyFormat.export(found, { name: 'fuzz' }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(ExportError);
    expect(err.code).toBe('NOTHING_TO_EXPORT');

    // Indices past the whole vertices are refused instead of written for import to reject.
    const doc = new Document();
    const buffer = doc.createBuffer();
    const tri = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setType('VEC3')
          .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])),
      )
      .setIndices(
        doc
          .createAccessor()
          .setBuffer(buffer)
          .setArray(new Uint16Array([0, 1, 3])),
      );
    doc.createScene().addChild(doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(tri)));
    const bad = await Promise.resolve()
      .then(() => legacyFormat.export(doc, { name: 'fuzz' }))
      .catch((e) => e);
    expect(bad).toBeInstanceOf(ExportError);
    expect(bad.code).toBe('INDEX_OUT_OF_RANGE');
  });

  it('cffe6aac: a companion .skel whose version a main file may not have is ignored', async () => {
    // Read as a companion, it was written back by export as the main file, which import rejects.
    const files: FileSet = new Map([
      ['twobone-wave.anim', writeAnimation(twoBoneAnimation())],
      ['twobone.skel', writeSkeleton({ ...twoBoneSkeleton(), version: 0xffffff })],
    ]);
    const imported = await legacyFormat.import(files, { main: 'twobone-wave.anim' });
    const ignored = imported.warnings.find((w) => w.code === 'COMPANION_IGNORED');
    expect(ignored?.message).toContain('16777215');
    const { first, second } = await twice(imported.document);
    expect(readSkeleton(first.files.get('fuzz.skel')!).version).toBe(1);
    expectSameFiles(first.files, second.files);
  });
});
