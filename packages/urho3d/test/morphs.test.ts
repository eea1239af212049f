// Morph storage in the .glb (issue 19): sparse targets when few vertices move, dense otherwise
// (and when a delta is NaN), `frameNormals: false`, `float` and `compact` no-ops (issue 30),
// byte-exact back to .mdl.
import { prepare } from '@gltf-legacy/prepare';
import { join } from 'node:path';
import {
  corpusRoot,
  firstByteDiff,
  hasCorpus,
  loadWithThree,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { Logger, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  ELEMENT_TYPE_SIZES,
  elementsFromMask,
  legacyFormat,
  type MdlModel,
  MSFTLod,
  readMdl,
  urhoLimits,
  writeMdl,
} from '../src/index.js';

const MASK = 0x1 | 0x2 | 0x80; // POSITION, NORMAL, TANGENT

/**
 * A strip of `n` vertices (triangles over consecutive vertices) with one morph "Bulge" moving
 * the vertices `moved` (position, normal and tangent deltas; `nanAt` gives one a NaN x).
 */
function model(n: number, moved: number[], nanAt = -1, zeroNormals?: 'z' | 'mixed'): Uint8Array {
  const elements = elementsFromMask(MASK)!;
  const stride = elements.reduce((s, e) => s + ELEMENT_TYPE_SIZES[e.type], 0);
  const data = new Uint8Array(n * stride);
  const f = new Float32Array(data.buffer);
  for (let v = 0; v < n; v++) f.set([v, v % 2, 0, 0, 0, 1, 1, 0, 0, 1], (v * stride) / 4);
  const tris = n - 2;
  const ib = new Uint16Array(tris * 3);
  for (let t = 0; t < tris; t++) ib.set([t, t + 1, t + 2], t * 3);
  const k = moved.length;
  const delta = (s: number) => Float32Array.from({ length: k * 3 }, (_, i) => (i % 3) * 0.25 + s);
  const positions = delta(0.5);
  if (nanAt >= 0) positions[nanAt * 3] = Number.NaN;
  const normals = delta(0.125);
  // zero normal deltas: (0, 0, -0) on every moved vertex ('z'), or on all but the first ('mixed')
  if (zeroNormals)
    for (let i = 0; i < k; i++) normals.set([0, 0, zeroNormals === 'mixed' && i === 0 ? 0 : -0], i * 3);
  const m: MdlModel = {
    magic: 'UMDL',
    vertexBuffers: [
      {
        vertexCount: n,
        elementMask: MASK,
        descriptors: null,
        elements,
        stride,
        morphRangeStart: k ? Math.min(...moved) : 0,
        morphRangeCount: k ? Math.max(...moved) - Math.min(...moved) + 1 : 0,
        data,
      },
    ],
    indexBuffers: [{ indexCount: ib.length, indexSize: 2, data: new Uint8Array(ib.buffer) }],
    geometries: [
      {
        boneMapping: new Uint32Array(0),
        lods: [
          {
            distance: 0,
            primitiveType: 0,
            vertexBuffer: 0,
            indexBuffer: 0,
            indexStart: 0,
            indexCount: ib.length,
          },
        ],
      },
    ],
    morphs: [
      {
        name: 'Bulge',
        buffers: [
          {
            vertexBuffer: 0,
            elementMask: MASK,
            vertexCount: k,
            indices: Uint32Array.from(moved),
            positions,
            normals,
            tangents: delta(-0.5),
          },
        ],
      },
    ],
    bones: [],
    bounds: new Float32Array([0, 0, 0, n - 1, 1, 0]),
    geometryCenters: new Float32Array([(n - 1) / 2, 0.5, 0]),
    trailing: new Uint8Array(0),
  };
  return writeMdl(m);
}

/** A logger that keeps what glTF-Transform's writer logs (the ">50% non-zero" sparse warning). */
class Keep extends Logger {
  lines: string[] = [];
  constructor() {
    super(Logger.Verbosity.WARN);
  }
  override warn(text: string): void {
    this.lines.push(text);
  }
}

async function toGlb(mdl: Uint8Array, options: Record<string, unknown> = {}) {
  const { document } = await legacyFormat.import(new Map([['m.mdl', mdl]]), { main: 'm.mdl', ...options });
  const logger = new Keep();
  document.setLogger(logger);
  const io = new NodeIO().registerExtensions([MSFTLod]);
  const glb = await io.writeBinary(document);
  const json = (await io.binaryToJSON(glb)).json;
  return { document, glb, json, logged: logger.lines, back: await io.readBinary(glb) };
}

/** The JSON accessors of the morph target attributes (first primitive). */
function targetAccessors(json: any): Record<string, any> {
  const prim = json.meshes[0].primitives[0];
  return Object.fromEntries(
    Object.entries(prim.targets[0] as Record<string, number>).map(([k, i]) => [k, json.accessors[i]]),
  );
}

describe('morph targets in the .glb', () => {
  it('a morph moving 10 of 1000 vertices is sparse: 10 entries each, values as in the file', async () => {
    const moved = [3, 40, 41, 500, 501, 502, 700, 800, 900, 999];
    const mdl = model(1000, moved);
    const { json, glb, back, logged } = await toGlb(mdl);
    const acc = targetAccessors(json);
    expect(Object.keys(acc).sort()).toEqual(['NORMAL', 'POSITION', 'TANGENT']);
    for (const a of Object.values(acc)) {
      expect(a.sparse.count).toBe(10);
      expect(a.bufferView).toBeUndefined();
    }
    expect(logged).toEqual([]);
    // decoded: vertex 40's position delta is the file's (0.5, 0.75, 1), x mirrored
    const pos = back.getRoot().listMeshes()[0].listPrimitives()[0].listTargets()[0].getAttribute('POSITION')!;
    expect(pos.getElement(40, [])).toEqual([-0.5, 0.75, 1]);
    expect(pos.getElement(39, []).map((x) => x + 0)).toEqual([0, 0, 0]);
    // the .glb holds what the .mdl does (vertices, indices) plus JSON: 3 dense targets would add
    // 3 × 12 000 bytes, the sparse ones add 3 × 10 × (2 + 12)
    expect(glb.length).toBeLessThan(mdl.length + 3000);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const out = await legacyFormat.export(back, { name: 'm' });
    expect(firstByteDiff(out.files.get('m.mdl')!, mdl)).toBe(-1);
  });

  it('three.js GLTFLoader decodes the sparse targets to the file deltas (mirrored), zero elsewhere', async () => {
    const { glb } = await toGlb(model(1000, [3, 40, 999], -1, 'z'));
    const gltf = await loadWithThree(glb);
    const meshes: any[] = [];
    gltf.scene.traverse((o: any) => {
      if (o.isMesh) meshes.push(o);
    });
    const morph = meshes[0].geometry.morphAttributes;
    expect(meshes[0].morphTargetDictionary).toEqual({ Bulge: 0 });
    expect([morph.position[0].getX(40), morph.position[0].getY(40), morph.position[0].getZ(40)]).toEqual([
      -0.5, 0.75, 1,
    ]);
    expect(morph.position[0].getY(41)).toBe(0);
    expect(morph.normal[0].getZ(999)).toBe(0); // all-zero normal deltas: a zero accessor
  });

  it('sparse up to half the vertices; above half dense (no ">50% non-zero" log from the writer)', async () => {
    const half = await toGlb(model(8, [0, 2, 4, 6]));
    expect(targetAccessors(half.json).POSITION.sparse.count).toBe(4);
    const most = await toGlb(model(8, [0, 1, 2, 4, 6]));
    expect(targetAccessors(most.json).POSITION.sparse).toBeUndefined();
    expect(targetAccessors(most.json).POSITION.bufferView).toBeDefined();
    expect([...half.logged, ...most.logged]).toEqual([]);
    for (const [mdl, r] of [
      [model(8, [0, 2, 4, 6]), half],
      [model(8, [0, 1, 2, 4, 6]), most],
    ] as const) {
      const out = await legacyFormat.export(r.back, { name: 'm' });
      expect(firstByteDiff(out.files.get('m.mdl')!, mdl)).toBe(-1);
    }
  });

  it('a NaN delta keeps the target dense, so the vertex survives the .glb (the writer drops NaN elements)', async () => {
    const mdl = model(100, [5, 6], 0);
    const { json, back } = await toGlb(mdl);
    expect(targetAccessors(json).POSITION.sparse).toBeUndefined();
    const pos = back.getRoot().listMeshes()[0].listPrimitives()[0].listTargets()[0].getAttribute('POSITION')!;
    expect(Number.isNaN(pos.getElement(5, [])[0])).toBe(true);
    const out = await legacyFormat.export(back, { name: 'm' });
    expect(firstByteDiff(out.files.get('m.mdl')!, mdl)).toBe(-1);
  });

  it('zero deltas with one sign pattern, (0, 0, -0) as Blender writes them, stay sparse and come back exact', async () => {
    const mdl = model(100, [10, 20, 30], -1, 'z');
    const { json, back, glb } = await toGlb(mdl);
    // the normal deltas are all zero: nothing stored, the pattern kept in the model extras
    expect(targetAccessors(json).NORMAL.sparse).toBeUndefined();
    expect(targetAccessors(json).NORMAL.bufferView).toBeUndefined();
    expect(targetAccessors(json).POSITION.sparse.count).toBe(3);
    const extras = back.getRoot().listNodes()[0].getExtras() as any;
    expect(extras.urho3d.model.morphs[0].buffers[0].zeroSigns).toEqual({ normals: 4 });
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const out = await legacyFormat.export(back, { name: 'm' });
    expect(firstByteDiff(out.files.get('m.mdl')!, mdl)).toBe(-1);
    const normals = readMdl(out.files.get('m.mdl')!).morphs[0].buffers[0].normals!;
    expect(Object.is(normals[2], -0)).toBe(true);
  });

  it('zero deltas with mixed sign patterns keep their bits: a dense target, exact through the .glb', async () => {
    const mdl = model(100, [10, 20, 30], -1, 'mixed');
    const { json, back } = await toGlb(mdl);
    expect(targetAccessors(json).NORMAL.sparse).toBeUndefined();
    expect(targetAccessors(json).NORMAL.bufferView).toBeDefined();
    expect(targetAccessors(json).POSITION.sparse.count).toBe(3);
    const out = await legacyFormat.export(back, { name: 'm' });
    expect(firstByteDiff(out.files.get('m.mdl')!, mdl)).toBe(-1);
  });

  it('frameNormals: false writes POSITION deltas only; export writes the morph without normals / tangents', async () => {
    const moved = [1, 2, 3];
    const mdl = model(50, moved);
    const full = await toGlb(mdl);
    const lean = await toGlb(mdl, { frameNormals: false });
    expect(Object.keys(targetAccessors(lean.json))).toEqual(['POSITION']);
    expect(lean.glb.length).toBeLessThan(full.glb.length);
    const report = await validateGlb(lean.glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const out = readMdl((await legacyFormat.export(lean.back, { name: 'm' })).files.get('m.mdl')!);
    const want = readMdl(mdl);
    const b = out.morphs[0].buffers[0];
    expect(b.elementMask).toBe(1);
    expect([...b.indices]).toEqual(moved);
    expect([...b.positions!]).toEqual([...want.morphs[0].buffers[0].positions!]);
    expect(b.normals).toBeNull();
    expect(b.tangents).toBeNull();
  });

  it('float: true and compact: true change nothing (Urho morphs and keys are float32 in the file): sparse float, nothing required', async () => {
    const mdl = model(200, [7, 9]);
    const a = await toGlb(mdl);
    for (const opts of [{ float: true }, { compact: true }]) {
      const b = await toGlb(mdl, opts);
      expect(firstByteDiff(a.glb, b.glb), JSON.stringify(opts)).toBe(-1);
    }
    expect(a.json.extensionsRequired ?? []).toEqual([]);
    expect(a.json.accessors.filter((x: { sparse?: unknown }) => x.sparse).length).toBeGreaterThan(0);
  });

  it('our sparse-target documents need no preparation: prepare().changed stays false', async () => {
    const { document, back } = await toGlb(model(1000, [1, 2, 3]));
    for (const doc of [document, back]) {
      const r = await prepare(doc, urhoLimits(30));
      expect(r.changed).toBe(false);
      expect(r.document).toBe(doc);
    }
  });
});

// The Urho3D corpus has no model with morphs: the glTF corpus's morph files, exported to .mdl.
describe.skipIf(!hasCorpus('gltf'))('corpus glTF morphs → .mdl → .glb → .mdl', () => {
  it.each([
    // [file, morphs, target attributes, of them dense]: the sphere's POSITION deltas move 71 % and
    // 84 % of the vertices (dense); its NORMAL / TANGENT deltas are all zero (nothing stored)
    ['AnimatedMorphCube/AnimatedMorphCube.gltf', 2, 6, 0],
    ['AnimatedMorphSphere/AnimatedMorphSphere.gltf', 2, 6, 2],
    ['MorphStressTest/MorphStressTest.gltf', 8, 16, 0],
  ])(
    '%s: sparse targets, 0 validator errors, the .mdl back byte for byte',
    async (file, morphs, attrs, denseCount) => {
      const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod]);
      const out = await legacyFormat.export(await io.read(join(corpusRoot(), 'gltf', file)), {
        name: 'm',
        materials: false, // the .mdl only (the sample's material would add Materials/, Objects/)
      });
      const mdl = out.files.get('m.mdl')!;
      expect(readMdl(mdl).morphs.length).toBe(morphs);
      const { json, glb, back, logged } = await toGlb(mdl);
      const targets = json.meshes[0].primitives[0].targets as Record<string, number>[];
      expect(targets.length).toBe(morphs);
      const dense = targets.flatMap((t) =>
        Object.values(t).filter((a) => json.accessors[a].bufferView !== undefined),
      );
      expect(targets.flatMap((t) => Object.keys(t)).length).toBe(attrs);
      expect(dense.length).toBe(denseCount);
      expect(logged).toEqual([]);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const again = await legacyFormat.export(back, { name: 'm' });
      expect(firstByteDiff(again.files.get('m.mdl')!, mdl)).toBe(-1);
    },
  );
});
