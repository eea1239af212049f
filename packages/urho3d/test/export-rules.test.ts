import {
  corpusFiles,
  expectClose,
  firstByteDiff,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { readSampler, sampleAt } from '@gltf-legacy/core';
import { Document, type Node, NodeIO } from '@gltf-transform/core';
import { prune } from '@gltf-transform/functions';
import { KHRONOS_EXTENSIONS, KHRLightsPunctual } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { exportUrhoModel, type Lod, legacyFormat, MSFTLod, readAni, readMdl } from '../src/index.js';

/** A document with one mesh of `n` quads along X (quad i at x = i), optional attributes. */
function quads(n: number, opts: { uvSets?: number; skinBones?: number; morph?: boolean } = {}) {
  const doc = new Document();
  const buf = doc.createBuffer();
  const pos = new Float32Array(n * 12);
  const idx = new Uint32Array(n * 6);
  for (let i = 0; i < n; i++) {
    pos.set([i, 0, 0, i + 0.5, 0, 0, i + 0.5, 1, 0, i, 1, 0], i * 12);
    idx.set(
      [0, 1, 2, 0, 2, 3].map((k) => k + i * 4),
      i * 6,
    );
  }
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buf))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(buf));
  for (let s = 0; s < (opts.uvSets ?? 0); s++) {
    prim.setAttribute(
      `TEXCOORD_${s}`,
      doc
        .createAccessor()
        .setType('VEC2')
        .setArray(new Float32Array(n * 8).fill(s / 4))
        .setBuffer(buf),
    );
  }
  const mesh = doc.createMesh('m').addPrimitive(prim);
  const node = doc.createNode('n').setMesh(mesh);
  const scene = doc.createScene().addChild(node);
  doc.getRoot().setDefaultScene(scene);
  if (opts.skinBones) {
    const skin = doc.createSkin();
    let parent = null;
    for (let b = 0; b < opts.skinBones; b++) {
      const j = doc.createNode(`bone${b}`).setTranslation(b === 0 ? [0, 0, 0] : [1, 0, 0]);
      if (parent) parent.addChild(j);
      else scene.addChild(j);
      parent = j;
      skin.addJoint(j);
    }
    const ibm = new Float32Array(opts.skinBones * 16);
    for (let b = 0; b < opts.skinBones; b++)
      ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -b, 0, 0, 1], b * 16);
    skin.setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buf));
    const joints = new Uint16Array(n * 16);
    const weights = new Float32Array(n * 16);
    for (let v = 0; v < n * 4; v++) {
      joints[v * 4] = Math.floor(v / 4) % opts.skinBones;
      weights[v * 4] = 1;
    }
    prim.setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(buf));
    prim.setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buf));
    node.setSkin(skin);
  }
  if (opts.morph) {
    const d = new Float32Array(n * 12);
    d.set([0, 0, 0.25], 2 * 3); // only vertex 2 moves
    prim.addTarget(
      doc
        .createPrimitiveTarget()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(d).setBuffer(buf)),
    );
    mesh.setExtras({ targetNames: ['Bulge'] });
  }
  return doc;
}

describe('export rules', () => {
  it('morph targets become sparse Urho morphs (changed vertices only), mirrored, and re-import densely', async () => {
    const { model } = await exportUrhoModel(quads(3, { morph: true }));
    const m = model!.morphs[0];
    expect(m.name).toBe('Bulge');
    expect(m.buffers[0].vertexCount).toBe(1);
    expect([...m.buffers[0].indices]).toEqual([2]);
    // Urho space mirrors glTF's X (forward +Z stays +Z): the delta (0, 0, 0.25) stays +Z; x 0 → -0.
    expect([...m.buffers[0].positions!]).toEqual([-0, 0, 0.25]);
    expect(model!.vertexBuffers[0].morphRangeStart).toBe(2);
    expect(model!.vertexBuffers[0].morphRangeCount).toBe(1);
    const out = await legacyFormat.export!(quads(3, { morph: true }), { name: 'q' });
    const back = await legacyFormat.import(out.files, { main: 'q.mdl' });
    const t = back.document.getRoot().listMeshes()[0].listPrimitives()[0].listTargets()[0];
    const d = t.getAttribute('POSITION')!.getArray()!;
    expect(d[2 * 3 + 2]).toBeCloseTo(0.25, 6);
    expect([...d].filter((x) => x !== 0).length).toBe(1);
  });

  it('more than 64 bones: bone mappings per geometry, a geometry using more is split', async () => {
    const out = await exportUrhoModel(quads(100, { skinBones: 100 }));
    const model = out.model!;
    expect(model.bones.length).toBe(100);
    expect(model.geometries.length).toBe(2);
    for (const g of model.geometries) {
      expect(g.boneMapping.length).toBeGreaterThan(0);
      expect(g.boneMapping.length).toBeLessThanOrEqual(64);
    }
    expect(out.warnings.map((w) => w.code)).toContain('GEOMETRY_SPLIT');
    // Re-import: every vertex is still bound to the bone of its quad (x position → bone index).
    const files = (await legacyFormat.export!(quads(100, { skinBones: 100 }), { name: 'b' })).files;
    const back = await legacyFormat.import(files, { main: 'b.mdl' });
    let checked = 0;
    for (const p of back.document.getRoot().listMeshes()[0].listPrimitives()) {
      const pos = p.getAttribute('POSITION')!.getArray()!;
      const j = p.getAttribute('JOINTS_0')!.getArray()!;
      const idx = p.getIndices()!.getArray()!;
      for (const v of idx) {
        expect(j[v * 4]).toBe(Math.floor(pos[v * 3]));
        checked++;
      }
    }
    expect(checked).toBe(600);
  });

  it('more than 4 influences: keeps the 4 largest, renormalizes, warns', async () => {
    const doc = quads(1, { skinBones: 8 });
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    const buf = doc.getRoot().listBuffers()[0];
    const j0 = new Uint16Array([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
    const w0 = new Float32Array(16).fill(0.1);
    const j1 = new Uint16Array([4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7]);
    const w1 = new Float32Array([0.3, 0.2, 0, 0, 0.3, 0.2, 0, 0, 0.3, 0.2, 0, 0, 0.3, 0.2, 0, 0]);
    prim.setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(j0).setBuffer(buf));
    prim.setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(w0).setBuffer(buf));
    prim.setAttribute('JOINTS_1', doc.createAccessor().setType('VEC4').setArray(j1).setBuffer(buf));
    prim.setAttribute('WEIGHTS_1', doc.createAccessor().setType('VEC4').setArray(w1).setBuffer(buf));
    const { model, warnings } = await exportUrhoModel(doc);
    expect(warnings.find((w) => w.code === 'WEIGHTS_TRUNCATED')?.count).toBe(4);
    const vb = model!.vertexBuffers[0];
    const we = vb.elements.find((e) => e.semantic === 6)!;
    const f = new DataView(vb.data.buffer);
    const w = [0, 1, 2, 3].map((c) => f.getFloat32(we.offset + c * 4, true));
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(w[0]).toBeCloseTo(0.3 / 0.7, 6); // 0.3 + 0.2 + 0.1 + 0.1 kept, renormalized
  });

  it('index size by vertex count: 16-bit up to 65536 vertices, else 32-bit', async () => {
    expect((await exportUrhoModel(quads(10))).model!.indexBuffers[0].indexSize).toBe(2);
    expect((await exportUrhoModel(quads(16385))).model!.indexBuffers[0].indexSize).toBe(4);
  });

  it('UMDL when the layout fits the legacy mask, UMD2 otherwise', async () => {
    expect((await exportUrhoModel(quads(2, { uvSets: 2 }))).model!.magic).toBe('UMDL');
    const umd2 = (await exportUrhoModel(quads(2, { uvSets: 3 }))).model!;
    expect(umd2.magic).toBe('UMD2');
    expect(umd2.vertexBuffers[0].elements.map((e) => e.index)).toEqual([0, 0, 1, 2]);
  });

  it('cameras, lights and textures are dropped with warnings', async () => {
    const doc = quads(1);
    doc.createNode('cam').setCamera(doc.createCamera('c'));
    const lights = doc.createExtension(KHRLightsPunctual);
    doc.getRoot().listNodes()[0].setExtension('KHR_lights_punctual', lights.createLight('sun'));
    doc.createTexture('t').setImage(new Uint8Array(8)).setMimeType('image/png');
    const codes = (await exportUrhoModel(doc)).warnings.map((w) => w.code);
    expect(codes).toEqual(expect.arrayContaining(['CAMERA_DROPPED', 'LIGHT_DROPPED', 'TEXTURE_DROPPED']));
  });

  it('STEP and CUBICSPLINE channels are resampled to linear keys (InterpolationTest)', async () => {
    const f = corpusFiles('gltf', ['.gltf']).find((x) => x.endsWith('InterpolationTest.gltf'))!;
    const doc = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).read(f);
    const { animations, warnings } = await exportUrhoModel(doc, { fps: 30 });
    expect(warnings.map((w) => w.code)).toContain('ANIMATION_RESAMPLED');
    let checked = 0;
    for (const anim of doc.getRoot().listAnimations()) {
      const out = animations.find((a) => a.animation.name === anim.getName())!.animation;
      for (const ch of anim.listChannels()) {
        const s = readSampler(ch.getSampler()!, ch.getTargetPath() === 'rotation');
        const track = out.tracks.find((t) => t.name === ch.getTargetNode()!.getName())!;
        const v = [0, 0, 0, 0];
        for (let k = 0; k < track.keyCount; k++) {
          sampleAt(s, track.times[k], v);
          // Keys are exact samples of the glTF curve (Urho space: x / rotation y,z mirrored).
          if (ch.getTargetPath() === 'translation') {
            expect(track.positions![k * 3 + 2]).toBeCloseTo(v[2], 5);
            expect(track.positions![k * 3]).toBeCloseTo(-v[0], 5);
          } else if (ch.getTargetPath() === 'scale') expect(track.scales![k * 3 + 1]).toBeCloseTo(v[1], 5);
          checked++;
        }
        // Between keys (30 fps) a linear key stream stays within 0.02 of the curve for this asset.
        for (let k = 0; k + 1 < track.keyCount && ch.getTargetPath() === 'translation'; k++) {
          const t = (track.times[k] + track.times[k + 1]) / 2;
          sampleAt(s, t, v);
          const lin = (track.positions![k * 3] + track.positions![(k + 1) * 3]) / 2;
          expect(Math.abs(-lin - v[0])).toBeLessThan(0.02); // x is mirrored
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('LOD levels', () => {
  it('Jack: LOD 0 is the visible mesh, levels 1..6 are kept in unused meshes and restored on export', async () => {
    const f = corpusFiles('urho', ['.mdl']).find((x) => x.endsWith('/Jack.mdl'))!;
    const orig = readMdl(readBytes(f));
    const { document } = await legacyFormat.import(new Map([['Jack.mdl', readBytes(f)]]), {
      main: 'Jack.mdl',
    });
    const meshes = document.getRoot().listMeshes();
    expect(meshes.map((m) => m.getName())).toEqual([
      'Jack',
      'Jack_LOD1',
      'Jack_LOD2',
      'Jack_LOD3',
      'Jack_LOD4',
      'Jack_LOD5',
      'Jack_LOD6',
    ]);
    const visible: string[] = [];
    const walk = (n: Node) => {
      if (n.getMesh()) visible.push(n.getMesh()!.getName());
      n.listChildren().forEach(walk);
    };
    document.getRoot().listScenes()[0].listChildren().forEach(walk);
    expect(visible).toEqual(['Jack']);
    // MSFT_lod on the mesh node lists the six lower levels (nodes outside the scene).
    const meshNode = document
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'Jack_mesh')!;
    const lods = meshNode.getExtension<Lod>('MSFT_lod')!.listLods();
    expect(lods.map((n) => n.getMesh()!.getName())).toEqual(meshes.slice(1).map((m) => m.getName()));
    expect(meshes[0].listPrimitives().map((p) => p.getIndices()!.getCount())).toEqual([14142, 8538]);
    expect(meshes[1].listPrimitives().map((p) => (p.getExtras() as any).urho3d)).toEqual([
      { geometry: 0, lod: 1 },
      { geometry: 1, lod: 1 },
    ]);
    const { model } = await exportUrhoModel(document);
    expect(model!.geometries.map((g) => g.lods.map((l) => l.distance))).toEqual(
      orig.geometries.map((g) => g.lods.map((l) => l.distance)),
    );
    expect(model!.geometries[1].lods[3].indexCount).toBe(1719);
  });
});

describe('animation alone', () => {
  it('a .ani given as main imports as one node per track plus the animation, and exports back', async () => {
    const f = corpusFiles('urho', ['.ani']).find((x) => x.endsWith('/Ninja_Walk.ani'))!;
    const bytes = readBytes(f);
    const { document } = await legacyFormat.import(new Map([['Ninja_Walk.ani', bytes]]), {
      main: 'Ninja_Walk.ani',
    });
    const ani = readAni(bytes);
    expect(document.getRoot().listAnimations()[0].listChannels().length).toBeGreaterThan(ani.tracks.length);
    const out = await legacyFormat.export!(document, { name: 'Ninja' });
    const again = readAni(out.files.get('Ninja_Walk.ani')!);
    expect(again.tracks.map((t) => t.name)).toEqual(ani.tracks.map((t) => t.name));
    expect(again.length).toBe(ani.length);
  });
});

describe('edited documents fall back to fresh layouts', () => {
  it('Jack with its LOD meshes removed and vertices moved still exports a valid skinned model', async () => {
    const f = corpusFiles('urho', ['.mdl']).find((x) => x.endsWith('/Jack.mdl'))!;
    const { document } = await legacyFormat.import(new Map([['Jack.mdl', readBytes(f)]]), {
      main: 'Jack.mdl',
    });
    for (const m of document.getRoot().listMeshes()) if (m.getName().includes('_LOD')) m.dispose();
    const pos = document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    const arr = pos.getArray()!.slice();
    for (let i = 0; i < arr.length; i++) arr[i] *= 2;
    pos.setArray(arr);
    const out = await exportUrhoModel(document, { name: 'Jack2' });
    const model = out.model!;
    expect(model.geometries.map((g) => g.lods.length)).toEqual([1, 1]);
    expect(model.bones.length).toBe(67);
    // Bounds follow the edited vertices (the stored box no longer encloses them).
    expect(model.bounds[4]).toBeCloseTo(2 * readMdl(readBytes(f)).bounds[4], 4);
    const files = (await legacyFormat.export!(document, { name: 'Jack2' })).files;
    const back = await legacyFormat.import(files, { main: 'Jack2.mdl' });
    const report = await validateGlb(
      await new NodeIO().registerExtensions([MSFTLod]).writeBinary(back.document),
    );
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    expect(back.document.getRoot().listSkins()[0].listJoints().length).toBe(67);
  });
});

describe('bone collision shapes', () => {
  it('foreign skins get a bone-space sphere and box around the vertices each bone moves', async () => {
    const { model } = await exportUrhoModel(quads(3, { skinBones: 3 }));
    // Quad i (x in [i, i+0.5], y in [0, 1]) is bound to bone i whose offset matrix moves x by -i;
    // in Urho space (X mirrored) the quad spans x in [-i-0.5, -i] and the offset moves x by +i.
    for (let b = 0; b < 3; b++) {
      const bone = model!.bones[b];
      expect(bone.collisionMask).toBe(3);
      expectClose([...bone.box!], [-0.5, 0, 0, 0, 1, 0], 1e-6, `bone${b}.box`);
      expect(bone.radius).toBeCloseTo(Math.hypot(0.5, 1), 6);
    }
  });
});

describe('MSFT_lod through a .glb and prune()', () => {
  it('Mushroom keeps its 5 LOD levels after writing, reading (extension registered) and pruning', async () => {
    const f = corpusFiles('urho', ['.mdl']).find((x) => x.endsWith('/Mushroom.mdl'))!;
    const bytes = readBytes(f);
    const { document } = await legacyFormat.import(new Map([['Mushroom.mdl', bytes]]), {
      main: 'Mushroom.mdl',
    });
    const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod]);
    const back = await io.readBinary(await io.writeBinary(document));
    // keepAttributes: by default prune() drops TEXCOORD/TANGENT no texture uses, which changes the layout.
    await back.transform(prune({ keepAttributes: true }));
    expect(back.getRoot().listMeshes().length).toBe(5);
    const out = await legacyFormat.export!(back, { name: 'Mushroom' });
    expect(readMdl(out.files.get('Mushroom.mdl')!).geometries[0].lods.length).toBe(5);
    expect(firstByteDiff(out.files.get('Mushroom.mdl')!, bytes)).toBe(-1);
  });
});

describe('invalid or degenerate glTF input (fuzz findings)', () => {
  it('an index past the vertices is an ExportError, not a broken .mdl', async () => {
    const doc = quads(1);
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    prim.getIndices()!.setArray(new Uint32Array([0, 1, 99]));
    await expect(exportUrhoModel(doc)).rejects.toThrow(expect.objectContaining({ code: 'BAD_INDEX' }));
  });
  it('primitives without a complete triangle are dropped, incomplete tails cut, both with warnings', async () => {
    const doc = quads(2);
    const mesh = doc.getRoot().listMeshes()[0];
    const buf = doc.getRoot().listBuffers()[0];
    const empty = mesh
      .listPrimitives()[0]
      .clone()
      .setIndices(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Uint16Array([0, 1]))
          .setBuffer(buf),
      );
    mesh.addPrimitive(empty);
    mesh
      .listPrimitives()[0]
      .getIndices()!
      .setArray(new Uint32Array([0, 1, 2, 0, 2, 3, 4, 5]));
    const { model, warnings } = await exportUrhoModel(doc);
    expect(model!.geometries.length).toBe(1);
    expect(model!.geometries[0].lods[0].indexCount).toBe(6);
    expect(warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['PRIMITIVE_DROPPED', 'INDICES_TRUNCATED']),
    );
  });
  it('non-unit rotation keys are exported normalized, so export(import(export(x))) = export(x)', async () => {
    const doc = quads(1, { skinBones: 2 });
    const bone = doc.getRoot().listSkins()[0].listJoints()[1];
    const buf = doc.getRoot().listBuffers()[0];
    const s = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Float32Array([0, 1]))
          .setBuffer(buf),
      )
      .setOutput(
        doc
          .createAccessor()
          .setType('VEC4')
          .setArray(new Float32Array([0, 0, 0, 2, 0, 0.5, 0, 0.5]))
          .setBuffer(buf),
      );
    doc
      .createAnimation('Spin')
      .addSampler(s)
      .addChannel(doc.createAnimationChannel().setTargetNode(bone).setTargetPath('rotation').setSampler(s));
    const first = await legacyFormat.export!(doc, { name: 'n' });
    const rot = readAni(first.files.get('n_Spin.ani')!).tracks[0].rotations!;
    expectClose([...rot.subarray(0, 4)], [1, 0, 0, 0], 1e-7, 'first key');
    expect(Math.hypot(...rot.subarray(4, 8))).toBeCloseTo(1, 6);
    const again = await legacyFormat.export!(
      (await legacyFormat.import(first.files, { main: 'n.mdl' })).document,
      { name: 'n' },
    );
    for (const [name, bytes] of first.files)
      expect(firstByteDiff(again.files.get(name)!, bytes), name).toBe(-1);
  });
});
