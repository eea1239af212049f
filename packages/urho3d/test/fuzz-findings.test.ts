// Regression tests for the fuzz notes in test-assets/fuzz-regressions/urho3d (glTF → Urho3D).
import { isLegacyError } from '@gltf-legacy/core';
import { firstByteDiff, regressionInput } from '@gltf-legacy/test-utils';
import { Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  ElementType,
  elementsFromDescriptors,
  exportUrhoModel,
  mapUrhoModel,
  floatFromJson,
  floatToJson,
  legacyFormat,
  type MdlModel,
  parseRawAttributeName,
  rawAttributeName,
  readAni,
  readMdl,
  Semantic,
  writeMdl,
} from '../src/index.js';

/** One triangle per node-less primitive; `bones` joints chained along X, all vertices on bone 0. */
function tri(bones = 0) {
  const doc = new Document();
  const buf = doc.createBuffer();
  const prim = doc.createPrimitive().setAttribute(
    'POSITION',
    doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buf),
  );
  const mesh = doc.createMesh('m').addPrimitive(prim);
  const node = doc.createNode('n').setMesh(mesh);
  const scene = doc.createScene().addChild(node);
  doc.getRoot().setDefaultScene(scene);
  if (bones) {
    const skin = doc.createSkin();
    let parent = null;
    for (let b = 0; b < bones; b++) {
      const j = doc.createNode(`bone${b}`).setTranslation(b === 0 ? [0, 0, 0] : [1, 0, 0]);
      if (parent) parent.addChild(j);
      else scene.addChild(j);
      parent = j;
      skin.addJoint(j);
    }
    const ibm = new Float32Array(bones * 16);
    for (let b = 0; b < bones; b++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -b, 0, 0, 1], b * 16);
    skin.setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buf));
    const weights = new Float32Array(12);
    for (let v = 0; v < 3; v++) weights[v * 4] = 1;
    prim.setAttribute(
      'JOINTS_0',
      doc.createAccessor().setType('VEC4').setArray(new Uint16Array(12)).setBuffer(buf),
    );
    prim.setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buf));
    node.setSkin(skin);
  }
  return doc;
}

/**
 * A skinned LINES primitive of `lines` lines over 272 bones where each line's two vertices use 8
 * bones no neighbouring line uses: Urho3D's 64-bone limit splits it into `lines / 8` geometries.
 */
function manyGeometries(lines: number) {
  const doc = tri(272);
  const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  const n = lines * 2;
  const pos = new Float32Array(n * 3);
  const joints = new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  for (let v = 0; v < n; v++) {
    pos.set([v % 97, Math.floor(v / 97), v % 5], v * 3);
    const line = v >> 1;
    for (let c = 0; c < 4; c++) {
      joints[v * 4 + c] = (line * 8 + (v & 1) * 4 + c) % 272;
      weights[v * 4 + c] = 0.25;
    }
  }
  prim.getAttribute('POSITION')!.setArray(pos);
  prim.getAttribute('JOINTS_0')!.setArray(joints);
  prim.getAttribute('WEIGHTS_0')!.setArray(weights);
  prim.setMode(1);
  return doc;
}

function cpuMs<T>(fn: () => T): [T, number] {
  const t = process.cpuUsage();
  const out = fn();
  const d = process.cpuUsage(t);
  return [out, (d.user + d.system) / 1000];
}

// These findings are about the .mdl/.ani: materials off (a textured CesiumMilkTruck would
// otherwise be written as a resource tree with Materials/ and Textures/, issue 29).
async function exportTwice(doc: Document) {
  const first = await legacyFormat.export!(doc, { name: 'fuzz', materials: false });
  const again = await legacyFormat.export!(
    (await legacyFormat.import(first.files, { main: 'fuzz.mdl' })).document,
    { name: 'fuzz', materials: false },
  );
  return { first, again };
}

describe('fuzz findings (glTF → Urho3D)', () => {
  // b5bfe85f7e246023 (REIMPORT, BAD_INDEX_SIZE): a mutated accessor count (65535 VEC3 in a 48-byte
  // buffer view) made glTF-Transform hand out a POSITION array of a length that is not a multiple
  // of 3, so getCount() was fractional (625.67). The exporter wrote that fractional vertex count:
  // the index size test `vertexCount > 65536 ? 4 : 2` and the byte layout went wrong, giving a
  // .mdl whose index buffer had index size 1 (or a garbage LOD count) that import rejects.
  it('5d6aea78: a node scaled by 0 (no normal matrix) exports its normals unchanged, no TypeError', async () => {
    const doc = tri();
    const node = doc.getRoot().listNodes()[0];
    node.setScale([1, 0, 1]);
    const prim = node.getMesh()!.listPrimitives()[0];
    prim.setAttribute(
      'NORMAL',
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]))
        .setBuffer(doc.getRoot().listBuffers()[0]),
    );
    const { files } = await legacyFormat.export(doc, { name: 'zero' });
    const back = await legacyFormat.import(files, { main: 'zero.mdl' });
    const normals = back.document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('NORMAL')!;
    for (let i = 0; i < normals.getCount(); i++) {
      const n = normals.getElement(i, []);
      expect(Math.hypot(n[0], n[1], n[2])).toBeCloseTo(1, 5);
    }
    const again = await legacyFormat.export(back.document, { name: 'zero' });
    expect(firstByteDiff(again.files.get('zero.mdl')!, files.get('zero.mdl')!)).toBe(-1);
  });

  it('b5bfe85f: a POSITION accessor that is not a whole number of VEC3 is ExportError BAD_ACCESSOR', async () => {
    const doc = tri();
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    prim.getAttribute('POSITION')!.setArray(new Float32Array(1877)); // 625.67 vertices
    prim.setMode(3).setIndices(
      doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(new Uint32Array([0, 1, 2, 3, 0]))
        .setBuffer(doc.getRoot().listBuffers()[0]),
    );
    let err: unknown;
    try {
      await exportUrhoModel(doc);
    } catch (e) {
      err = e;
    }
    expect(isLegacyError(err)).toBe(true);
    expect(err).toMatchObject({ name: 'ExportError', code: 'BAD_ACCESSOR' });
    expect(String((err as Error).message)).toContain('1877 values');
  });
  it('b5bfe85f: an index accessor that is not a whole number of elements is BAD_ACCESSOR too', async () => {
    const doc = tri();
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    // a VEC2 "index" accessor of 3 values: 1.5 elements (odd, but what a broken file can give)
    prim.setIndices(
      doc
        .createAccessor()
        .setType('VEC2')
        .setArray(new Uint16Array([0, 1, 2]))
        .setBuffer(doc.getRoot().listBuffers()[0]),
    );
    await expect(exportUrhoModel(doc)).rejects.toThrow(expect.objectContaining({ code: 'BAD_ACCESSOR' }));
  });

  // 7c6130120ecb0349 (FIXED_POINT, "fuzz.mdl differs at byte 152 of 174"): Mesh_PrimitiveMode_09
  // (a LINE_LOOP) with its POSITION pointing at the index accessor: a SCALAR u32 of 4 elements.
  // Not the line loop: export read the scalars as 4 vertices of 1 component, wrote a VECTOR3
  // vertex buffer from them (NaN past the 4th float) and the bounds from the scalars, so the
  // bounding box (byte 152 = max x) changed on the second export. A POSITION that is not VEC3 is
  // invalid glTF: ExportError BAD_ACCESSOR now; a NORMAL / TANGENT of the wrong type is dropped.
  it('7c613012: the stored mutated LINE_LOOP glb (SCALAR POSITION) is ExportError BAD_ACCESSOR', async () => {
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const doc = await io.readBinary(await regressionInput('urho3d', '7c6130120ecb0349', io));
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(prim.getMode()).toBe(2);
    expect(prim.getAttribute('POSITION')!.getType()).toBe('SCALAR');
    await expect(legacyFormat.export!(doc, { name: 'fuzz' })).rejects.toThrow(
      expect.objectContaining({ name: 'ExportError', code: 'BAD_ACCESSOR' }),
    );
  });
  it('7c613012: a NORMAL that is not VEC3 is dropped (ATTRIBUTE_DROPPED) and the export is a fixed point', async () => {
    const doc = tri();
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    const buf = doc.getRoot().listBuffers()[0];
    prim.setAttribute(
      'NORMAL',
      doc.createAccessor().setType('VEC4').setArray(new Float32Array(12).fill(0.5)).setBuffer(buf),
    );
    const { first, again } = await exportTwice(doc);
    expect(first.warnings.map((w) => w.code)).toContain('ATTRIBUTE_DROPPED');
    const m = readMdl(first.files.get('fuzz.mdl')!);
    expect(m.vertexBuffers[0].elementMask).toBe(1); // POSITION only
    expect([...m.bounds].map((x) => x + 0)).toEqual([-1, 0, 0, 0, 1, 0]); // X mirrored
    expect(firstByteDiff(again.files.get('fuzz.mdl')!, first.files.get('fuzz.mdl')!)).toBe(-1);
  });

  // cb2795d6ebdb2036 (FIXED_POINT, ".ani present in only one export"): RiggedSimple with its BIN
  // overwritten had negative sampler input times (-416.5, -7.99, …). Export wrote them into the
  // .ani; import skips a track whose first key time is negative (glTF times are ≥ 0), so the
  // animation vanished on re-import and the second export had no .ani. Fixed by cffc77a (export
  // drops negative key times, ANIMATION_KEYS_DROPPED); this pins it.
  it('cb2795d6: negative key times are dropped on export, so the .ani survives import → export', async () => {
    const doc = tri(2);
    const bone = doc.getRoot().listSkins()[0].listJoints()[1];
    const buf = doc.getRoot().listBuffers()[0];
    const s = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Float32Array([-416.5, -8, 0.25, 1]))
          .setBuffer(buf),
      )
      .setOutput(
        doc
          .createAccessor()
          .setType('VEC3')
          .setArray(new Float32Array([9, 9, 9, 8, 8, 8, 1, 0, 0, 2, 0, 0]))
          .setBuffer(buf),
      );
    doc
      .createAnimation('Animation0')
      .addSampler(s)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(bone).setTargetPath('translation').setSampler(s),
      );
    const { first, again } = await exportTwice(doc);
    expect(first.warnings.map((w) => w.code)).toContain('ANIMATION_KEYS_DROPPED');
    const ani = readAni(first.files.get('fuzz_Animation0.ani')!);
    expect([...ani.tracks[0].times]).toEqual([0.25, 1]);
    expect([...again.files.keys()].sort()).toEqual([...first.files.keys()].sort());
    for (const [name, bytes] of first.files)
      expect(firstByteDiff(again.files.get(name)!, bytes), name).toBe(-1);
  });

  // 0d2a963f46127375 (FIXED_POINT, "fuzz_Wheels.ani present in only one export"): CesiumMilkTruck
  // with the "Wheels" time accessor's count mutated to 1e-30: glTF-Transform reads 0 key times for
  // both rotation channels. Export wrote fuzz_Wheels.ani with two 0-key tracks; import makes no
  // channel for an empty track and drops an animation with no channel (glTF needs ≥ 1), so the
  // second export had no .ani. Now an animation left without any key is not written
  // (ANIMATION_DROPPED); empty tracks next to tracks with keys still round-trip via extras.
  function keyedAnimation(doc: Document, timesPerBone: number[][]) {
    const buf = doc.getRoot().listBuffers()[0];
    const joints = doc.getRoot().listSkins()[0].listJoints();
    const anim = doc.createAnimation('Wheels');
    timesPerBone.forEach((times, b) => {
      const s = doc
        .createAnimationSampler()
        .setInput(doc.createAccessor().setType('SCALAR').setArray(new Float32Array(times)).setBuffer(buf))
        .setOutput(
          doc
            .createAccessor()
            .setType('VEC4')
            .setArray(new Float32Array(Math.max(times.length, 31) * 4).map((_, i) => (i % 4 === 3 ? 1 : 0)))
            .setBuffer(buf),
        );
      anim
        .addSampler(s)
        .addChannel(
          doc.createAnimationChannel().setTargetNode(joints[b]).setTargetPath('rotation').setSampler(s),
        );
    });
    return doc;
  }
  it('0d2a963f: an animation whose samplers have 0 key times is not written (ANIMATION_DROPPED)', async () => {
    const { first, again } = await exportTwice(keyedAnimation(tri(2), [[], []]));
    expect([...first.files.keys()]).toEqual(['fuzz.mdl']);
    expect(first.warnings).toContainEqual(
      expect.objectContaining({ code: 'ANIMATION_DROPPED', message: expect.stringContaining('"Wheels"') }),
    );
    expect([...again.files.keys()]).toEqual(['fuzz.mdl']);
    expect(firstByteDiff(again.files.get('fuzz.mdl')!, first.files.get('fuzz.mdl')!)).toBe(-1);
  });
  it('0d2a963f: an empty track next to a keyed one is still written and survives import → export', async () => {
    const { first, again } = await exportTwice(keyedAnimation(tri(2), [[], [0, 0.5, 1]]));
    const ani = readAni(first.files.get('fuzz_Wheels.ani')!);
    expect(ani.tracks.map((t) => [t.name, t.keyCount])).toEqual([
      ['bone0', 0],
      ['bone1', 3],
    ]);
    expect(first.warnings.map((w) => w.code)).not.toContain('ANIMATION_DROPPED');
    expect([...again.files.keys()].sort()).toEqual([...first.files.keys()].sort());
    for (const [name, bytes] of first.files)
      expect(firstByteDiff(again.files.get(name)!, bytes), name).toBe(-1);
  });
  it('0d2a963f: the stored mutated CesiumMilkTruck exports the same files twice', async () => {
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const doc = await io.readBinary(await regressionInput('urho3d', '0d2a963f46127375', io));
    const { first, again } = await exportTwice(doc);
    expect(first.warnings.map((w) => w.code)).toContain('ANIMATION_DROPPED');
    expect([...first.files.keys()]).toEqual(['fuzz.mdl']);
    expect([...again.files.keys()]).toEqual(['fuzz.mdl']);
    expect(firstByteDiff(again.files.get('fuzz.mdl')!, first.files.get('fuzz.mdl')!)).toBe(-1);
  });

  // a11ebc5f4771d588 (FIXED_POINT, "fuzz.mdl differs at byte 273591"): CesiumMilkTruck with a
  // mutated accessor had ±Infinity positions, so a geometry centre was (-Inf + Inf) / 2: a NaN that
  // x86 makes with the sign bit set (float32 0xffc00000). Import kept it in extras as "NaN" and the
  // second export wrote the canonical NaN 0x7fc00000. Extras now keep a non-canonical NaN's bits.
  it('a11ebc5f: floatToJson keeps the float32 bits of a NaN', () => {
    const bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0];
    const negNaN = new Float32Array(new Uint32Array([0xffc00000]).buffer)[0];
    expect(floatToJson(negNaN)).toBe('NaN:ffc00000');
    expect(floatToJson(Number.NaN)).toBe('NaN');
    expect(floatToJson(-0)).toBe('-0');
    for (const b of [0xffc00000, 0x7fc00000, 0x7fc12345, 0xffd00001]) {
      const x = new Float32Array(new Uint32Array([b]).buffer)[0];
      expect(bits(floatFromJson(JSON.parse(JSON.stringify(floatToJson(x)))))).toBe(b);
    }
    expect(Number.isNaN(floatFromJson('NaN:3f800000'))).toBe(true); // not a NaN's bits
  });
  it('a11ebc5f: a geometry with ±Infinity positions (NaN centre) is a fixed point of import → export', async () => {
    const doc = tri();
    const pos = doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    pos.setArray(new Float32Array([Number.NEGATIVE_INFINITY, 0, 0, Number.POSITIVE_INFINITY, 0, 0, 0, 1, 0]));
    const { first, again } = await exportTwice(doc);
    const centre = readMdl(first.files.get('fuzz.mdl')!).geometryCenters;
    expect(Number.isNaN(centre[0])).toBe(true);
    expect(firstByteDiff(again.files.get('fuzz.mdl')!, first.files.get('fuzz.mdl')!)).toBe(-1);
  });
  it('a11ebc5f: a .mdl whose geometry centre is the NaN 0xffc00000 survives import → .glb → export', async () => {
    const mutated = umd2([]).slice();
    // geometry centre x: the last 3 floats of the file
    new DataView(mutated.buffer).setUint32(mutated.length - 12, 0xffc00000, true);
    expect(Number.isNaN(readMdl(mutated).geometryCenters[0])).toBe(true);
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const { document } = await legacyFormat.import(new Map([['c.mdl', mutated]]), { main: 'c.mdl' });
    const back = await io.readBinary(await io.writeBinary(document));
    const out = await legacyFormat.export(back, { name: 'c' });
    expect(firstByteDiff(out.files.get('c.mdl')!, mutated)).toBe(-1);
  });
  it('a11ebc5f: the stored mutated CesiumMilkTruck exports the same .mdl twice', async () => {
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const doc = await io.readBinary(await regressionInput('urho3d', 'a11ebc5f4771d588', io));
    const { first, again } = await exportTwice(doc);
    const m = readMdl(first.files.get('fuzz.mdl')!);
    expect([...m.bounds]).toEqual([-1, -1, -1, 1, 1, 1].map((s) => s * Number.POSITIVE_INFINITY));
    expect([...first.files.keys()].sort()).toEqual([...again.files.keys()].sort());
    for (const [name, bytes] of first.files)
      expect(firstByteDiff(again.files.get(name)!, bytes), name).toBe(-1);
  });

  // f64172e001896fe5 (TIMEOUT): a generated skinned LINES primitive of 65 537 vertices over 272
  // joints splits into ~2 900 geometries (64-bone limit). The exporter had loops over geometries ×
  // primitives (bone mappings, bounds, the split itself, hinted LOD lookups) and a split that built
  // a Set per triangle: 14–26 s for the export alone. Now every geometry loop goes through one
  // per-geometry index and the split is linear (typed-array marks): export time grows linearly.
  it('f64172e0: thousands of split geometries export in time linear in their number', () => {
    // the map layer (sync, so CPU time is its own; these documents need no preparation)
    mapUrhoModel(manyGeometries(400)); // warm-up
    const [small, tSmall] = cpuMs(() => mapUrhoModel(manyGeometries(1600)));
    const [big, tBig] = cpuMs(() => mapUrhoModel(manyGeometries(25600)));
    expect(small.model!.geometries.length).toBe(200);
    expect(big.model!.geometries.length).toBe(3200);
    expect(big.warnings.map((w) => w.code)).toContain('GEOMETRY_SPLIT');
    for (const g of big.model!.geometries) expect(g.boneMapping.length).toBe(64);
    // 16× the geometries: measured 5–6× now (fixed costs), 24–34× with the quadratic loops
    expect(tBig / tSmall, `${tSmall.toFixed(0)} ms → ${tBig.toFixed(0)} ms CPU`).toBeLessThan(14);
  }, 120_000);
  it('f64172e0: a split model is a fixed point of import → export', async () => {
    const { first, again } = await exportTwice(manyGeometries(2400));
    for (const [name, bytes] of first.files)
      expect(firstByteDiff(again.files.get(name)!, bytes), name).toBe(-1);
  }, 120_000);
});

/** A one-triangle UMD2 model: POSITION plus the given extra `[type, semantic, index]` elements. */
function umd2(extra: [number, number, number][]): Uint8Array {
  const descriptors = Uint32Array.from(
    [[ElementType.VECTOR3, Semantic.POSITION, 0], ...extra],
    ([t, s, i]) => (t | (s << 8) | (i << 16)) >>> 0,
  );
  const elements = elementsFromDescriptors(descriptors);
  const stride = elements.reduce((n, e) => n + (e.type === ElementType.VECTOR3 ? 12 : 8), 0);
  const floats = Float32Array.from({ length: (3 * stride) / 4 }, (_, i) => (i * 7) % 5);
  const model: MdlModel = {
    magic: 'UMD2',
    vertexBuffers: [
      {
        vertexCount: 3,
        elementMask: 0,
        descriptors,
        elements,
        stride,
        morphRangeStart: 0,
        morphRangeCount: 0,
        data: new Uint8Array(floats.buffer),
      },
    ],
    indexBuffers: [{ indexCount: 3, indexSize: 2, data: new Uint8Array(new Uint16Array([0, 1, 2]).buffer) }],
    geometries: [
      {
        boneMapping: new Uint32Array(0),
        lods: [
          { distance: 0, primitiveType: 0, vertexBuffer: 0, indexBuffer: 0, indexStart: 0, indexCount: 3 },
        ],
      },
    ],
    morphs: [],
    bones: [],
    bounds: new Float32Array([0, 0, 0, 4, 4, 4]),
    geometryCenters: new Float32Array(3),
    trailing: new Uint8Array(0),
  };
  return writeMdl(model);
}

describe('fuzz findings (Urho3D → glTF)', () => {
  // 649a057dd3cba24a (CRASH at export, TypeError in elementValues): a mutated Mutant.mdl had a
  // vertex element with semantic byte 20, index 1. Import named its attribute
  // `_URHO_SEMANTIC201_VECTOR2`, which export parsed back as semantic 0 (POSITION) index 201 and
  // then looked up `_URHO_POSITION201_VECTOR2`: undefined.values. Names of semantics the engine
  // does not name now carry a separator (`_URHO_SEMANTIC20_1_VECTOR2`), only canonical names parse,
  // and export drops (ATTRIBUTE_DROPPED) any `_URHO_` name that does not.
  it('649a057d: raw attribute names of unnamed semantics are unambiguous and parse back', () => {
    const a = { type: ElementType.VECTOR2, semantic: 20, index: 1 };
    const b = { type: ElementType.VECTOR2, semantic: 201, index: 0 };
    expect(rawAttributeName(a)).toBe('_URHO_SEMANTIC20_1_VECTOR2');
    expect(rawAttributeName(a)).not.toBe(rawAttributeName(b));
    expect(parseRawAttributeName(rawAttributeName(a))).toEqual(a);
    expect(parseRawAttributeName(rawAttributeName(b))).toEqual(b);
    const c = { type: ElementType.VECTOR3, semantic: Semantic.BINORMAL, index: 0 };
    expect(parseRawAttributeName('_URHO_BINORMAL0_VECTOR3')).toEqual(c);
    for (const bad of ['_URHO_SEMANTIC201_VECTOR2', '_URHO_POSITION01_VECTOR2', '_URHO_SEMANTIC2_256_INT'])
      expect(parseRawAttributeName(bad), bad).toBeNull();
  });
  it('649a057d: elements with semantic bytes 20 (index 1) and 201 import and export byte-exact', async () => {
    const bytes = umd2([
      [ElementType.VECTOR2, 20, 1],
      [ElementType.VECTOR2, 201, 0],
    ]);
    const { document } = await legacyFormat.import(new Map([['t.mdl', bytes]]), { main: 't.mdl' });
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(prim.listSemantics()).toEqual([
      'POSITION',
      '_URHO_SEMANTIC20_1_VECTOR2',
      '_URHO_SEMANTIC201_0_VECTOR2',
    ]);
    const out = await legacyFormat.export(document, { name: 't' });
    expect(firstByteDiff(out.files.get('t.mdl')!, bytes)).toBe(-1);
    // without the import hints too (the layout derived from the attribute names alone)
    for (const n of document.getRoot().listNodes()) n.setExtras({});
    const derived = (await exportUrhoModel(document, { name: 't' })).model!;
    expect(derived.vertexBuffers[0].elements.map((e) => [e.type, e.semantic, e.index])).toEqual([
      [ElementType.VECTOR3, Semantic.POSITION, 0],
      [ElementType.VECTOR2, 20, 1],
      [ElementType.VECTOR2, 201, 0],
    ]);
  });
  it('649a057d: a foreign `_URHO_` attribute whose name is not canonical is dropped with a warning', async () => {
    const doc = tri();
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    prim.setAttribute(
      '_URHO_SEMANTIC201_VECTOR2',
      doc
        .createAccessor()
        .setType('VEC2')
        .setArray(new Float32Array(6))
        .setBuffer(doc.getRoot().listBuffers()[0]),
    );
    const { files, warnings } = await legacyFormat.export(doc, { name: 'f' });
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'ATTRIBUTE_DROPPED',
        message: expect.stringContaining('_URHO_SEMANTIC201_VECTOR2'),
      }),
    );
    expect(readMdl(files.get('f.mdl')!).vertexBuffers[0].elements.map((e) => e.semantic)).toEqual([
      Semantic.POSITION,
    ]);
  });
  it('649a057d: the stored mutated Mutant.mdl imports and exports without a TypeError', async () => {
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const bytes = await regressionInput('urho3d', '649a057dd3cba24a', io);
    const { document } = await legacyFormat.import(new Map([['Mutant.mdl', bytes]]), { main: 'Mutant.mdl' });
    const names = document.getRoot().listMeshes()[0].listPrimitives()[0].listSemantics();
    expect(names).toContain('_URHO_SEMANTIC20_1_VECTOR2');
    const out = await legacyFormat.export(document, { name: 'Mutant' });
    const vb = readMdl(out.files.get('Mutant.mdl')!).vertexBuffers[0];
    expect(vb.elements.some((e) => e.semantic === 20 && e.index === 1)).toBe(true);
    expect(vb.vertexCount).toBe(readMdl(bytes).vertexBuffers[0].vertexCount);
  });
});
