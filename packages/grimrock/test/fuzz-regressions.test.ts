/**
 * Regressions for the fuzzer's findings (test-assets/fuzz-regressions/grimrock), with the inputs
 * built here so each test names the exact cause.
 */
import { ExportError } from '@gltf-legacy/core';
import { corpusFiles, readBytes, regressionInput } from '@gltf-legacy/test-utils';
import { Document, NodeIO, type TypedArray } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  exportGrimrock,
  importGrimrock,
  readAnimation,
  readModel,
  writeAnimation,
  writeModel,
} from '../src/index.js';

function firstDiff(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

describe('fuzz regressions', () => {
  // campaign seed 9102, iteration 7309 (eob_lockpicks.model with an f32 mutation): a signalling
  // NaN in a node matrix went through float → double → float in writeModel and came back quiet,
  // so read(write(read(x))) was not read(x). Matrices are written bit for bit now.
  it('writeModel keeps the bits of a signalling NaN in a node matrix', () => {
    const [file] = corpusFiles('grimrock', ['.model']);
    const model = readModel(readBytes(file), file);
    const bits = new Uint32Array(12).fill(0x3f800000);
    bits[3] = 0x7fa00001; // signalling NaN with a payload
    bits[7] = 0xff800001;
    model.nodes[0].localToParent = new Float32Array(bits.buffer);
    const once = writeModel(model);
    const again = readModel(once, 'a.model');
    expect([...new Uint32Array(again.nodes[0].localToParent.slice().buffer)]).toEqual([...bits]);
    expect(firstDiff(writeModel(again), once)).toBe(-1);
  });

  // 8395256465f001d4: a glTF (mutated BIN) whose index points past its vertices was exported as
  // is, and the written .model failed to import (BAD_INDEX).
  it('export rejects a glTF index outside the primitive vertices with ExportError BAD_INDEX', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buffer);
    const idx = doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(new Uint16Array([0, 1, 2, 0, 2, 16387]))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute('POSITION', pos).setIndices(idx);
    const node = doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim));
    doc.createScene('s').addChild(node);
    let err: unknown;
    try {
      await exportGrimrock(doc, { name: 'bad' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportError);
    expect((err as ExportError).code).toBe('BAD_INDEX');
    expect((err as Error).message).toContain('16387');
  });

  // a4940de452c0a912: a 34 066-frame animation. Import writes key times as float32 k / fps;
  // past ~16 000 frames their rounding exceeds the 1e-3-frame "on the grid" tolerance, so the
  // second export resampled the channel (interpolating neighbouring keys) and differed.
  it('a long animation (40 000 frames) is a fixed point of import → export', async () => {
    const frames = 40_000;
    const fps = 30;
    const doc = new Document();
    const buffer = doc.createBuffer();
    const node = doc.createNode('bone');
    doc.createScene('s').addChild(node);
    const times = new Float32Array(frames);
    const values = new Float32Array(frames * 3);
    for (let k = 0; k < frames; k++) {
      times[k] = (k * 1.37) / fps; // off the grid: the first export resamples
      values[k * 3] = Math.sin(k * 0.7);
      values[k * 3 + 1] = Math.cos(k * 0.3);
      values[k * 3 + 2] = (k % 17) / 17;
    }
    const sampler = doc
      .createAnimationSampler()
      .setInput(doc.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer))
      .setOutput(doc.createAccessor().setType('VEC3').setArray(values).setBuffer(buffer))
      .setInterpolation('LINEAR');
    doc
      .createAnimation('walk')
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler),
      );
    const e1 = (await exportGrimrock(doc, { name: 'long' })).files;
    const anim1 = [...e1].find(([n]) => n.endsWith('.animation'))!;
    const model1 = [...e1].find(([n]) => n.endsWith('.model'))!;
    const a1 = readAnimation(anim1[1]);
    expect(a1.numFrames).toBeGreaterThan(33_000);

    const d2 = importGrimrock(e1, { main: model1[0] }).document;
    const e2 = (await exportGrimrock(d2, { name: 'long' })).files;
    expect([...e2.keys()].sort()).toEqual([...e1.keys()].sort());
    const anim2 = e2.get(anim1[0])!;
    const a2 = readAnimation(anim2);
    expect(a2.numFrames).toBe(a1.numFrames);
    // Key values survive exactly (not re-interpolated), then the whole file byte for byte.
    expect(Array.from(a2.items[0].positions.subarray(0, 30))).toEqual(
      Array.from(a1.items[0].positions.subarray(0, 30)),
    );
    expect(firstDiff(anim2, anim1[1])).toBe(-1);
    expect(firstDiff(e2.get(model1[0])!, model1[1])).toBe(-1);
  });

  // 8622b94938dd7c40 (campaign seed 2611, a mutated lever_push.animation with 131 080 frames at
  // 25 fps): import writes key times as float32 k / fps; past ~2 000 s their rounding exceeds the
  // shared stage's 1e-4 s grid tolerance, so export sampled the per-frame channel again (slerp at
  // its own key times), moving rotation keys by an ulp: the re-export was not the first export.
  it('a per-frame clip longer than 2 000 s keeps its rotation keys bit for bit', async () => {
    const frames = 24_000; // 4 800 s at 5 fps: float32 k / 5 is up to 2e-4 s off the grid
    const rotations = new Float32Array(frames * 4);
    for (let k = 0; k < frames; k++) {
      // 2e-4 off unit length: kept as is by import and export (UNIT_TOLERANCE), not by a slerp
      const a = k * 5e-3 + 0.3;
      const l = 1.0002;
      rotations.set([Math.sin(a) * 0.6 * l, Math.sin(a) * 0.8 * l, 0, Math.cos(a) * l], k * 4);
    }
    const item = {
      nodeName: 'lever',
      positions: Float32Array.of(1, 2, 3),
      rotations,
      scales: Float32Array.of(1, 1, 1),
    };
    const bytes = writeAnimation({
      magic: 'ANIM',
      version: 2,
      name: 'long',
      framesPerSecond: 5,
      numFrames: frames,
      items: [item],
    });
    const files = new Map([['long.animation', bytes]]);
    const first = await exportGrimrock(importGrimrock(files, { main: 'long.animation' }).document, {
      name: 'long',
    });
    expect(first.warnings.map((w) => w.code)).not.toContain('ANIMATION_RESAMPLED');
    const e1 = first.files;
    const a1 = readAnimation(e1.get('long.animation')!);
    expect(a1.numFrames).toBe(frames);
    expect(a1.framesPerSecond).toBe(5);
    const bytesOf = (a: Float32Array) => new Uint8Array(a.slice().buffer);
    expect(a1.items[0].rotations.length).toBe(frames * 4);
    expect(firstDiff(bytesOf(a1.items[0].rotations), bytesOf(rotations))).toBe(-1);
    expect(firstDiff(e1.get('long.animation')!, bytes)).toBe(-1);
    const e2 = (
      await exportGrimrock(importGrimrock(e1, { main: 'long.animation' }).document, { name: 'long' })
    ).files;
    expect(firstDiff(e2.get('long.animation')!, e1.get('long.animation')!)).toBe(-1);
  });

  it('the stored input 8622b94938dd7c40 (131 080 frames, 8 keys resampled once) is a fixed point', async () => {
    const bytes = await regressionInput('grimrock', '8622b94938dd7c40', new NodeIO());
    const files = new Map([['lever_push.animation', bytes]]);
    const first = await exportGrimrock(importGrimrock(files, { main: 'lever_push.animation' }).document, {
      name: 'fuzz',
    });
    // the 8 keys spread over 5 243 s are sampled once, to one per frame
    expect(first.warnings.find((w) => w.code === 'ANIMATION_RESAMPLED')?.count).toBe(1);
    const e1 = first.files;
    const a1 = readAnimation(e1.get('fuzz.animation')!);
    expect(a1.numFrames).toBe(131_080);
    expect(a1.items[0].rotations.length).toBe(131_080 * 4);
    const second = await exportGrimrock(importGrimrock(e1, { main: 'fuzz.animation' }).document, {
      name: 'fuzz',
    });
    expect(second.warnings.map((w) => w.code)).not.toContain('ANIMATION_RESAMPLED');
    const e2 = second.files;
    expect([...e2.keys()]).toEqual(['fuzz.animation']);
    expect(firstDiff(e2.get('fuzz.animation')!, e1.get('fuzz.animation')!)).toBe(-1);
  });

  /** export → import → export; returns both exports. */
  async function twice(doc: Document, name: string) {
    const first = await exportGrimrock(doc, { name });
    const main = [...first.files.keys()].find((n) => n.endsWith('.model'))!;
    const second = await exportGrimrock(importGrimrock(first.files, { main }).document, { name });
    return { first, second };
  }

  // Campaign seed 99, RiggedFigure with a bit flipped in a rotation output: export wrote the
  // non-unit quaternion, import normalized it, the second export differed.
  it('export normalizes non-unit rotation keys (ROTATION_NORMALIZED) the way import does', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const node = doc.createNode('bone');
    doc.createScene('s').addChild(node);
    const sampler = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Float32Array([0, 1 / 30]))
          .setBuffer(buffer),
      )
      .setOutput(
        doc
          .createAccessor()
          .setType('VEC4')
          .setArray(new Float32Array([0, 0, 0, 1, 0.6, 0, 0, 0.9]))
          .setBuffer(buffer),
      );
    doc
      .createAnimation('turn')
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath('rotation').setSampler(sampler),
      );
    const { first, second } = await twice(doc, 'rot');
    expect(first.warnings.map((w) => w.code)).toContain('ROTATION_NORMALIZED');
    const anim = [...first.files].find(([n]) => n.endsWith('.animation'))!;
    const q = readAnimation(anim[1]).items[0].rotations.subarray(4, 8);
    expect(Math.hypot(q[0], q[1], q[2], q[3])).toBeCloseTo(1, 6);
    expect(Math.abs(q[0])).toBeCloseTo(0.6 / Math.hypot(0.6, 0.9), 6);
    for (const [n, b] of first.files)
      expect({ n, d: firstDiff(second.files.get(n)!, b) }).toEqual({ n, d: -1 });
  });

  // Campaign seed 99, generated document: a one-vertex primitive draws no triangle. Export wrote
  // its vertex (and skin bones), import keeps a triangle-less mesh as a header in extras only,
  // and the second export lost the vertex data.
  it('a mesh without triangles is written without vertices (EMPTY_MESH), a fixed point', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const prim = doc.createPrimitive().setAttribute(
      'POSITION',
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array([1, 2, 3]))
        .setBuffer(buffer),
    );
    const node = doc.createNode('dot').setMesh(doc.createMesh('dot').addPrimitive(prim));
    doc.createScene('s').addChild(node);
    const { first, second } = await twice(doc, 'dot');
    expect(first.warnings.map((w) => w.code)).toContain('EMPTY_MESH');
    const mesh = readModel(first.files.get('dot.model')!).nodes.find((n) => n.meshEntity)!.meshEntity!.mesh;
    expect(mesh.numVertices).toBe(0);
    expect(mesh.indices.length).toBe(0);
    expect(firstDiff(second.files.get('dot.model')!, first.files.get('dot.model')!)).toBe(-1);
  });

  // Campaign seed 99 TIMEOUT: a corpus .animation with numFrames bit-flipped to 524 308 (20 keys
  // per item). Import spreads the 20 keys over 4.9 hours; export resampled 28 items × 524 308
  // frames (~590 MB, minutes). Export now refuses such a blow-up with TOO_MANY_FRAMES.
  it('export refuses to resample a few keys to millions of frames (TOO_MANY_FRAMES), quickly', async () => {
    const items = Array.from({ length: 28 }, (_, i) => ({
      nodeName: `bone${i}`,
      positions: Float32Array.from({ length: 60 }, (_, k) => k * 0.01 + i),
      rotations: Float32Array.from({ length: 80 }, (_, k) => (k % 4 === 3 ? 1 : 0)),
      scales: new Float32Array(60).fill(1),
    }));
    const bytes = writeAnimation({
      magic: 'ANIM',
      version: 1,
      name: 'x',
      framesPerSecond: 30,
      numFrames: 524_308,
      items,
    });
    const doc = importGrimrock(new Map([['x.animation', bytes]]), { main: 'x.animation' }).document;
    const t = Date.now();
    let err: unknown;
    try {
      await exportGrimrock(doc, { name: 'x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportError);
    expect((err as ExportError).code).toBe('TOO_MANY_FRAMES');
    expect(Date.now() - t).toBeLessThan(2000);
  });

  // cad7ebf634623763 (campaign seed 515, generated): a primitive with fewer than 3 indices beside
  // a real one was written as an empty segment, which import drops: the second export differed.
  it('a primitive that draws no triangle is dropped (PRIMITIVE_DROPPED), not an empty segment', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buffer);
    const idx = (a: number[]) =>
      doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(a)).setBuffer(buffer);
    const mesh = doc
      .createMesh('m')
      .addPrimitive(
        doc
          .createPrimitive()
          .setAttribute('POSITION', pos)
          .setIndices(idx([0, 1])),
      )
      .addPrimitive(
        doc
          .createPrimitive()
          .setAttribute('POSITION', pos)
          .setIndices(idx([0, 1, 2])),
      );
    doc.createScene('s').addChild(doc.createNode('n').setMesh(mesh));
    const { first, second } = await twice(doc, 'seg');
    expect(first.warnings.map((w) => w.code)).toContain('PRIMITIVE_DROPPED');
    const m = readModel(first.files.get('seg.model')!).nodes.find((x) => x.meshEntity)!.meshEntity!.mesh;
    expect(m.segments.map((x) => x.count)).toEqual([1]);
    expect(firstDiff(second.files.get('seg.model')!, first.files.get('seg.model')!)).toBe(-1);
  });
});

describe('fuzz regressions (accessor data)', () => {
  // da6a18cadf925217 (campaign seed 777, Mesh_PrimitiveMode_14.gltf with its POSITION count set
  // to 65 535 over a 48-byte bufferView): glTF-Transform clips the array to the 56 bytes of the
  // BIN chunk, 14 floats, so getCount() is 4.67; export allocated 4.67 × 12 bytes, then read a
  // fifth vertex past the end of the packed positions (RangeError in positionsOf).
  it('export rejects a POSITION array that is not a whole number of VEC3 (BAD_ACCESSOR)', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array(14)).setBuffer(buffer);
    expect(pos.getCount()).toBeCloseTo(4.667, 3);
    const idx = doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(new Uint8Array([0, 1, 2, 0, 2, 3]))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute('POSITION', pos).setIndices(idx);
    doc.createScene('s').addChild(doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim)));
    let err: unknown;
    try {
      await exportGrimrock(doc, { name: 'bad' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportError);
    expect((err as ExportError).code).toBe('BAD_ACCESSOR');
    expect((err as Error).message).toContain('POSITION');
  });

  it('a short NORMAL array is not read past its end: dropped, positions exported', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]))
      .setBuffer(buffer);
    const nrm = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 1, 0, 0, 1]))
      .setBuffer(buffer);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', pos)
      .setAttribute('NORMAL', nrm)
      .setIndices(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Uint16Array([0, 1, 2, 2, 1, 3]))
          .setBuffer(buffer),
      );
    doc.createScene('s').addChild(doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim)));
    const out = await exportGrimrock(doc, { name: 'short' });
    const mesh = readModel(out.files.get('short.model')!).nodes.find((x) => x.meshEntity)!.meshEntity!.mesh;
    expect(mesh.numVertices).toBe(4);
    expect(Array.from(mesh.boundMax, (x) => x + 0)).toEqual([0, 1, 0]);
    expect(Array.from(mesh.boundMin, (x) => x + 0)).toEqual([-1, 0, 0]);
  });
});

describe('fuzz regressions (index accessors)', () => {
  async function exportError(doc: Document): Promise<ExportError> {
    try {
      await exportGrimrock(doc, { name: 'bad' });
    } catch (e) {
      if (e instanceof ExportError) return e;
      throw e;
    }
    throw new Error('export did not throw');
  }

  /** A triangle + a quad over 4 vertices whose second primitive uses `indices`. */
  function quad(indices: TypedArray, type: 'SCALAR' | 'VEC3') {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor('pos')
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]))
      .setBuffer(buffer);
    const acc = (a: TypedArray, t: 'SCALAR' | 'VEC3', name: string) =>
      doc.createAccessor(name).setType(t).setArray(a).setBuffer(buffer);
    const mesh = doc
      .createMesh('m')
      .addPrimitive(
        doc
          .createPrimitive()
          .setAttribute('POSITION', pos)
          .setIndices(acc(new Uint16Array([0, 1, 2]), 'SCALAR', 'ok')),
      )
      .addPrimitive(
        doc
          .createPrimitive()
          .setAttribute('POSITION', pos)
          .setIndices(acc(indices, type, 'bad')),
      );
    doc.createScene('s').addChild(doc.createNode('n').setMesh(mesh));
    return doc;
  }

  // ea98a823b1678c06 (campaign seed 9402, craft_speederD.gltf with a primitive's `indices` set to
  // accessor 1, its float VEC3 NORMAL): export copied the floats into the int32 index array
  // (-0.95 → 0, -1 → -1), and the .model it wrote failed to import (BAD_INDEX, index -1).
  it('export rejects a float VEC3 indices accessor (BAD_ACCESSOR naming the primitive)', async () => {
    const err = await exportError(quad(new Float32Array([0, 0, -1, -0.316, 0, -0.948]), 'VEC3'));
    expect(err.code).toBe('BAD_ACCESSOR');
    expect(err.message).toContain('mesh "m" primitive 1');
    expect(err.message).toContain('"bad"');
    expect(err.message).toContain('VEC3');
  });

  it('export rejects SCALAR indices that are float or signed (negative, fractional)', async () => {
    for (const a of [new Float32Array([0, 1, 2, 2, 1, 3.5]), new Int16Array([0, 1, 2, 2, 1, -1])]) {
      const err = await exportError(quad(a, 'SCALAR'));
      expect(err.code).toBe('BAD_ACCESSOR');
      expect(err.message).toContain('mesh "m" primitive 1');
    }
  });

  it('export rejects a huge uint32 index with BAD_INDEX naming the primitive', async () => {
    const err = await exportError(quad(new Uint32Array([0, 1, 2, 2, 1, 0xffffffff]), 'SCALAR'));
    expect(err.code).toBe('BAD_INDEX');
    expect(err.message).toContain('mesh "m" primitive 1');
    expect(err.message).toContain('4294967295');
  });

  it('indices not a whole number of triangles: the tail is dropped with INDICES_TRUNCATED', async () => {
    const out = await exportGrimrock(quad(new Uint16Array([0, 1, 2, 2, 1, 3, 3, 0]), 'SCALAR'), {
      name: 'q',
    });
    expect(out.warnings.map((w) => w.code)).toContain('INDICES_TRUNCATED');
    const mesh = readModel(out.files.get('q.model')!).nodes.find((x) => x.meshEntity)!.meshEntity!.mesh;
    expect(mesh.segments.map((x) => x.count)).toEqual([1, 2]);
    expect(Array.from(mesh.indices).every((i) => i >= 0 && i < mesh.numVertices)).toBe(true);
  });

  it('the stored input ea98a823b1678c06 (craft_speederD) is refused with BAD_ACCESSOR', async () => {
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const doc = await io.readBinary(await regressionInput('grimrock', 'ea98a823b1678c06', io));
    const err = await exportError(doc);
    expect(err.code).toBe('BAD_ACCESSOR');
    expect(err.message).toBe(
      'mesh "Mesh craft_speederD" primitive 3: its indices accessor is VEC3 of Float32Array; glTF indices are SCALAR unsigned byte, short or int',
    );
  });
});

describe('Node Buffer input', () => {
  // Found while measuring the CLI path (07:10): vertexArrayValues copied a tight vertex array with
  // `data.slice()`, which on a Node Buffer (readFileSync) is a VIEW into the whole file; its
  // `.buffer` was then read from offset 0 as the array: a RangeError, or silently wrong values.
  it('a model given as a Buffer imports exactly like the same bytes as a Uint8Array', async () => {
    const path = corpusFiles('grimrock', ['.model']).find((p) => p.endsWith('slug.model'))!;
    const u8 = readBytes(path);
    const buf = Buffer.from(u8); // its own ArrayBuffer at offset 0, as readFileSync gives for big files
    const a = importGrimrock(new Map([['slug.model', u8]]), { main: 'slug.model' }).document;
    const b = importGrimrock(new Map([['slug.model', buf as Uint8Array]]), { main: 'slug.model' }).document;
    const pa = a.getRoot().listAccessors();
    const pb = b.getRoot().listAccessors();
    expect(pb.length).toBe(pa.length);
    pa.forEach((x, i) => {
      expect(Array.from(pb[i].getArray()!)).toEqual(Array.from(x.getArray()!));
    });
    const e = (await exportGrimrock(b, { name: 'slug' })).files.get('slug.model')!;
    expect(firstDiff(e, u8)).toBe(-1);
  });

  // eeb951b25e81904a (campaign seed 1, iteration 431): 40 bytes spliced from a real .animation
  // and a .model imported as an animation whose items all named missing nodes; its export was an
  // empty file set, and re-import failed with a RangeError ("empty file set"). Nothing to write
  // is now ExportError NOTHING_TO_EXPORT.
  it('export with nothing left to write throws NOTHING_TO_EXPORT, never an empty file set', async () => {
    const anim = readBytes(corpusFiles('grimrock', ['log2_rc_lever_down.animation'])[0]);
    const model = readBytes(corpusFiles('grimrock', ['eob_lockpicks.model'])[0]);
    const bytes = new Uint8Array(40);
    bytes.set(anim.subarray(0, 24), 0);
    bytes.set(model.subarray(32, 42), 24);
    const { document } = await importGrimrock(new Map([['log2_rc_lever_down.animation', bytes]]), {
      main: 'log2_rc_lever_down.animation',
    });
    await expect(exportGrimrock(document, { name: 'fuzz' })).rejects.toMatchObject({
      code: 'NOTHING_TO_EXPORT',
    });
  });
});
