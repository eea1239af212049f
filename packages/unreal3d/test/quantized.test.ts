/**
 * Issue 19's compact vertex animation, `compact: true` since issue 30. Morph POSITION deltas are
 * stored as whole-unit BYTE/SHORT (`KHR_mesh_quantization`, required) and must decode to exactly
 * the float32 deltas of the portable default; NORMAL deltas as normalized BYTE within
 * NORMAL_MAX_ANGLE of the float ones; sparse where few vertices move (float32 sparse in the
 * portable mode, which requires no extension); `frameNormals: false` writes none. Every variant
 * validates and goes back to the same `_a.3d` bytes; a foreign `quantize()`d document still
 * exports (widened by the stage).
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { accessorFloats } from '@gltf-legacy/core';
import { encodeDeusExArray, encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import {
  corpusFiles,
  corpusRoot,
  firstByteDiff,
  loadWithThree,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { Accessor, type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { quantize } from '@gltf-transform/functions';
import { describe, expect, it } from 'vitest';
import { writeAniv } from '../src/aniv.js';
import { createDataHeader, createPolys, writeData } from '../src/data.js';
import { exportUnreal } from '../src/export.js';
import { NORMAL_MAX_ANGLE } from '../src/import/morph-encode.js';
import { importUnrealFiles, legacyFormat } from '../src/index.js';
import { fileSetFor } from './helpers.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const mushModels = join(corpusRoot(), 'textured', 'unreal3d', 'MushMatch', 'Models');
const corpus = [
  ...corpusFiles('unreal3d', ['_d.3d']),
  ...readdirSync(mushModels)
    .filter((f) => f.endsWith('_d.3d'))
    .map((f) => join(mushModels, f)),
];

type Files = Map<string, Uint8Array>;

async function viaGlb(doc: Document): Promise<{ doc: Document; glb: Uint8Array }> {
  const glb = await io.writeBinary(doc);
  return { doc: await io.readBinary(glb), glb };
}

function glbJson(glb: Uint8Array): {
  extensionsRequired?: string[];
  accessors: { componentType: number; normalized?: boolean; sparse?: unknown; bufferView?: number }[];
} {
  const len = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)));
}

async function expectSameAniv(files: Files, doc: Document, name: string) {
  const { files: out, warnings } = await exportUnreal(doc, { name });
  expect(warnings.map((w) => w.code)).not.toContain('ATTRIBUTE_DEQUANTIZED');
  for (const n of [`${name}_d.3d`, `${name}_a.3d`])
    expect(firstByteDiff(out.get(n) as Uint8Array, files.get(n) as Uint8Array), n).toBe(-1);
}

/** Every morph target's POSITION of `a` decodes to the same float32 bits as in `b`. */
function expectSamePositions(a: Document, b: Document): number {
  const pa = a.getRoot().listMeshes()[0].listPrimitives();
  const pb = b.getRoot().listMeshes()[0].listPrimitives();
  expect(pa.length).toBe(pb.length);
  let compared = 0;
  for (let i = 0; i < pa.length; i++) {
    const ta = pa[i].listTargets();
    const tb = pb[i].listTargets();
    expect(ta.length).toBe(tb.length);
    for (let t = 0; t < ta.length; t++) {
      const x = accessorFloats(ta[t].getAttribute('POSITION') as Accessor);
      const y = accessorFloats(tb[t].getAttribute('POSITION') as Accessor);
      expect(y).toBeInstanceOf(Float32Array);
      // Bit for bit (Float32Array equality compares the float32 values; −0 vs 0 aside).
      expect(x.length).toBe(y.length);
      let diff = 0;
      for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) diff++;
      expect(diff, `primitive ${i} target ${t}`).toBe(0);
      compared += x.length;
    }
  }
  return compared;
}

/** Largest angle (radians) between normalize(base + decoded delta) in `q` and in `f` (float). */
function worstNormalAngle(q: Document, f: Document): number {
  const pq = q.getRoot().listMeshes()[0].listPrimitives();
  const pf = f.getRoot().listMeshes()[0].listPrimitives();
  let worst = 0;
  for (let i = 0; i < pq.length; i++) {
    const base = accessorFloats(pf[i].getAttribute('NORMAL') as Accessor);
    const tq = pq[i].listTargets();
    const tf = pf[i].listTargets();
    for (let t = 0; t < tq.length; t++) {
      const dq = accessorFloats(tq[t].getAttribute('NORMAL') as Accessor);
      const df = accessorFloats(tf[t].getAttribute('NORMAL') as Accessor);
      for (let k = 0; k < base.length; k += 3) {
        const a = [base[k] + dq[k], base[k + 1] + dq[k + 1], base[k + 2] + dq[k + 2]];
        const b = [base[k] + df[k], base[k + 1] + df[k + 1], base[k + 2] + df[k + 2]];
        const la = Math.hypot(...a);
        const lb = Math.hypot(...b);
        const c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
        worst = Math.max(worst, Math.acos(Math.min(1, c)));
      }
    }
  }
  return worst;
}

/** A strip mesh of `nv` vertices whose frames come from `xyz(f, v)`, packed or Deus Ex. */
function stripMesh(nv: number, nf: number, xyz: (f: number, v: number) => number[], deusex = false): Files {
  const tris = nv - 2;
  const polys = createPolys(tris);
  for (let i = 0; i < tris; i++) {
    polys.vertices.set([i, i + 1, i + 2], i * 3);
    polys.uvs.set([i & 0xff, 0, (i + 1) & 0xff, 9, (i + 2) & 0xff, 0], i * 6);
  }
  const all: number[] = [];
  for (let f = 0; f < nf; f++) for (let v = 0; v < nv; v++) all.push(...xyz(f, v));
  const d = writeData({ header: createDataHeader(tris, nv), polys, trailing: new Uint8Array(0) });
  const a = writeAniv({
    numFrames: nf,
    frameSize: nv * (deusex ? 8 : 4),
    layout: deusex ? 'deusex' : 'packed',
    numVertices: nv,
    frameCount: nf,
    ...(deusex ? { words: encodeDeusExArray(all).words } : { packed: encodeUnrealPackedArray(all).packed }),
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  });
  return new Map([
    ['w_d.3d', d],
    ['w_a.3d', a],
  ]);
}

describe('quantized morph targets (issue 19)', () => {
  it('finds the Unreal corpus (13 meshes + the MushMatch models)', () =>
    expect(corpus.length).toBeGreaterThan(13));

  for (const path of corpus) {
    const main = basename(path);
    it(`${main}: POSITION deltas decode to the float32 ones bit for bit, NORMAL within ${((NORMAL_MAX_ANGLE * 180) / Math.PI).toFixed(2)}°, 0 validator errors, same _a.3d back`, async () => {
      const files = fileSetFor(path);
      const opts = { main, textures: false };
      const q = await viaGlb((await legacyFormat.import(files, { ...opts, compact: true })).document);
      const f = await viaGlb((await legacyFormat.import(files, opts)).document);
      expectSamePositions(q.doc, f.doc);
      expect(worstNormalAngle(q.doc, f.doc)).toBeLessThanOrEqual(NORMAL_MAX_ANGLE + 1e-6);
      const json = glbJson(q.glb);
      const ints = json.accessors.filter((a) => a.componentType !== Accessor.ComponentType.FLOAT);
      const animated = q.doc.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().length > 0;
      // Integer morph data only with the extension, marked required; nothing required by default.
      if (animated) expect(json.extensionsRequired).toContain('KHR_mesh_quantization');
      expect(glbJson(f.glb).extensionsRequired ?? []).toEqual([]);
      for (const p of f.doc.getRoot().listMeshes()[0].listPrimitives())
        for (const t of p.listTargets())
          for (const sem of t.listSemantics())
            expect(t.getAttribute(sem)?.getComponentType(), sem).toBe(Accessor.ComponentType.FLOAT);
      if (animated) {
        expect(ints.length).toBeGreaterThan(0);
        expect(q.glb.length).toBeLessThan(f.glb.length);
      }
      const base = main.replace(/_d\.3d$/, '');
      for (const mode of [q, f]) {
        const report = await validateGlb(mode.glb);
        expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
        const { files: out } = await exportUnreal(mode.doc, { name: base });
        expect(
          firstByteDiff(out.get(`${base}_a.3d`) as Uint8Array, files.get(`${base}_a.3d`) as Uint8Array),
        ).toBe(-1);
        expect(firstByteDiff(out.get(`${base}_d.3d`) as Uint8Array, files.get(main) as Uint8Array)).toBe(-1);
      }
    });
  }

  it('extreme grid values (X/Y −1024 ⇄ 1023, Z −512 ⇄ 511): SHORT deltas ±2047/±1023, exact, same file back', async () => {
    const ext = (f: number, v: number) =>
      f % 2 === (v & 1) ? [-1024, 1023, -512 + (v % 3)] : [1023, -1024, 511 - (v % 5)];
    const files = stripMesh(12, 5, ext);
    const q = await viaGlb((await importUnrealFiles(files, { main: 'w_d.3d', compact: true })).document);
    const f = await viaGlb((await importUnrealFiles(files, { main: 'w_d.3d' })).document);
    expect(expectSamePositions(q.doc, f.doc)).toBeGreaterThan(4 * 12 * 3 - 1);
    const t = q.doc.getRoot().listMeshes()[0].listPrimitives()[0].listTargets();
    const d = t[0].getAttribute('POSITION') as Accessor;
    expect(d.getComponentType()).toBe(Accessor.ComponentType.SHORT);
    expect(d.getNormalized()).toBe(false);
    // glTF (X, Y, Z) = Unreal (X, Z, Y): vertex 0 goes from (−1024, 1023, −512) to (1023, −1024, 511).
    expect(d.getElement(0, [])).toEqual([2047, 1023, -2047]);
    expect(worstNormalAngle(q.doc, f.doc)).toBeLessThanOrEqual(NORMAL_MAX_ANGLE + 1e-6);
    const report = await validateGlb(q.glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    await expectSameAniv(files, q.doc, 'w');
  });

  it('Deus Ex frames moving more than a SHORT holds are stored as float32 (same values, same file back)', async () => {
    const files = stripMesh(
      6,
      3,
      (f, v) => [f === 1 ? 32767 : -32768, v * 100, f === 2 ? -19000 : -20000],
      true,
    );
    const q = await viaGlb((await importUnrealFiles(files, { main: 'w_d.3d', compact: true })).document);
    const f = await viaGlb((await importUnrealFiles(files, { main: 'w_d.3d' })).document);
    expectSamePositions(q.doc, f.doc);
    const t = q.doc.getRoot().listMeshes()[0].listPrimitives()[0].listTargets();
    expect((t[0].getAttribute('POSITION') as Accessor).getComponentType()).toBe(Accessor.ComponentType.FLOAT);
    expect((t[1].getAttribute('POSITION') as Accessor).getComponentType()).toBe(Accessor.ComponentType.SHORT);
    await expectSameAniv(files, q.doc, 'w');
  });

  it('a frame where 3 of 200 vertices move is written sparse (BYTE values compact, FLOAT portable), smaller, read back exact', async () => {
    const wave = (f: number, v: number) => [
      v * 4,
      (v & 1) * 30,
      f === 1 && v >= 100 && v < 103 ? 9 - v + 100 : 0,
    ];
    const files = stripMesh(200, 2, wave);
    const { document } = await importUnrealFiles(files, {
      main: 'w_d.3d',
      frameNormals: false,
      compact: true,
    });
    const q = await viaGlb(document);
    const json = glbJson(q.glb);
    const sparse = json.accessors.filter((a) => a.sparse);
    expect(sparse.length).toBe(1);
    expect(sparse[0].componentType).toBe(Accessor.ComponentType.BYTE);
    // Each file vertex of the strip is two glTF vertices (two UV pairs).
    expect((sparse[0].sparse as { count: number }).count).toBe(6);
    const fl = await viaGlb(
      (await importUnrealFiles(files, { main: 'w_d.3d', frameNormals: false })).document,
    );
    expectSamePositions(q.doc, fl.doc);
    // Portable: the same sparse layout with float32 values (core glTF: nothing required).
    const fj = glbJson(fl.glb);
    expect(fj.extensionsRequired ?? []).toEqual([]);
    const fsparse = fj.accessors.filter((a) => a.sparse);
    expect(fsparse.map((a) => a.componentType)).toEqual([Accessor.ComponentType.FLOAT]);
    expect((fsparse[0].sparse as { count: number }).count).toBe(6);
    // 6 × 12 bytes of float values instead of 6 × 3 (+ 4 of padding), not a dense vcount × 12.
    const vcount =
      q.doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')?.getCount() ?? 0;
    expect(vcount).toBeGreaterThan(390);
    expect(fl.glb.length - q.glb.length).toBeLessThan(200);
    expect(fl.glb.length).toBeLessThan(q.glb.length + vcount * 12 - 300);
    const report = await validateGlb(q.glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    await expectSameAniv(files, q.doc, 'w');
  });

  it('frameNormals: false writes no NORMAL per target (base NORMAL kept); the default and float: true write float32 only', async () => {
    const path = corpus.find((p) => p.endsWith('MBeaconWeap_d.3d')) as string;
    const files = fileSetFor(path);
    const main = basename(path);
    const modes: { compact?: boolean; float?: boolean; frameNormals?: boolean }[] = [
      { compact: true, frameNormals: false },
      {},
      { frameNormals: false },
      { float: true },
      { compact: true, float: true }, // float wins (core vertexAnimationEncoding)
    ];
    for (const opts of modes) {
      const { document } = await legacyFormat.import(files, { main, textures: false, ...opts });
      const q = await viaGlb(document);
      const prims = q.doc.getRoot().listMeshes()[0].listPrimitives();
      expect(prims.every((p) => p.getAttribute('NORMAL'))).toBe(true);
      const targets = prims.flatMap((p) => p.listTargets());
      expect(targets.length).toBeGreaterThan(0);
      expect(targets.some((t) => t.getAttribute('NORMAL'))).toBe(opts.frameNormals !== false);
      const json = glbJson(q.glb);
      if (!opts.compact || opts.float) {
        expect(json.extensionsRequired ?? []).toEqual([]);
        for (const t of targets)
          for (const s of t.listSemantics())
            expect(t.getAttribute(s)?.getComponentType(), s).toBe(Accessor.ComponentType.FLOAT);
      }
      const report = await validateGlb(q.glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      await expectSameAniv(files, q.doc, 'MBeaconWeap');
    }
  });

  it('three.js decodes the quantized morph POSITION to the float32 deltas (MBeaconWeap, Sporifier3P)', async () => {
    for (const name of ['MBeaconWeap_d.3d', 'Sporifier3P_d.3d']) {
      const path = corpus.find((p) => p.endsWith(name)) as string;
      const files = fileSetFor(path);
      const opts = { main: name, textures: false };
      const q = await loadWithThree(
        await io.writeBinary((await legacyFormat.import(files, { ...opts, compact: true })).document),
      );
      const f = await loadWithThree(await io.writeBinary((await legacyFormat.import(files, opts)).document));
      type Attr = {
        count: number;
        getX(i: number): number;
        getY(i: number): number;
        getZ(i: number): number;
      };
      type Geo = { geometry: { morphAttributes: { position: Attr[]; normal?: Attr[] } } };
      const meshes = (g: { scene: { traverse(cb: (o: unknown) => void): void } }) => {
        const out: Geo[] = [];
        g.scene.traverse((o) => {
          if ((o as { isMesh?: boolean }).isMesh) out.push(o as Geo);
        });
        return out;
      };
      const mq = meshes(q);
      const mf = meshes(f);
      expect(mq.length).toBe(mf.length);
      let values = 0;
      for (let m = 0; m < mq.length; m++) {
        const pq = mq[m].geometry.morphAttributes.position;
        const pf = mf[m].geometry.morphAttributes.position;
        expect(pq.length).toBe(pf.length);
        expect(mq[m].geometry.morphAttributes.normal?.length).toBe(pq.length);
        for (let t = 0; t < pq.length; t++) {
          for (let i = 0; i < pq[t].count; i++, values++) {
            expect([pq[t].getX(i), pq[t].getY(i), pq[t].getZ(i)]).toEqual([
              pf[t].getX(i),
              pf[t].getY(i),
              pf[t].getZ(i),
            ]);
          }
        }
      }
      expect(values).toBeGreaterThan(1000);
    }
  });

  it('a quantize()d (foreign) copy exports through the stage: widened, baked, same size on screen', async () => {
    const path = corpus.find((p) => p.endsWith('MBeaconWeap_d.3d')) as string;
    const files = fileSetFor(path);
    // float: quantize() (glTF-Transform 4.5) skips attributes already as small as its bits but still
    // moves the node transform, so it must start from float morphs (see README).
    const opts = { main: basename(path), textures: false, float: true };
    const { document } = await legacyFormat.import(files, opts);
    const before = worldBounds(document);
    await document.transform(quantize({ quantizePosition: 16, quantizeNormal: 10 }));
    const pos = document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION') as Accessor;
    expect(pos.getNormalized()).toBe(true);
    const { files: out, warnings } = await exportUnreal(document, { name: 'q' });
    expect(warnings.map((w) => w.code)).toContain('ATTRIBUTE_DEQUANTIZED');
    const back = await importUnrealFiles(out, { main: 'q_d.3d', float: true });
    const after = worldBounds(back.document);
    const extent = Math.max(...before.max.map((v, i) => v - before.min[i]));
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(after.min[i] - before.min[i]), `min ${i}`).toBeLessThan(extent * 0.02);
      expect(Math.abs(after.max[i] - before.max[i]), `max ${i}`).toBeLessThan(extent * 0.02);
    }
  });
});

/** World bounds of the mesh over frame 0 and every morph target at weight 1. */
function worldBounds(doc: Document): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const p of mesh.listPrimitives()) {
      const pos = accessorFloats(p.getAttribute('POSITION') as Accessor);
      const deltas = [
        null,
        ...p.listTargets().map((t) => accessorFloats(t.getAttribute('POSITION') as Accessor)),
      ];
      for (const d of deltas) {
        for (let k = 0; k < pos.length; k += 3) {
          const x = pos[k] + (d ? d[k] : 0);
          const y = pos[k + 1] + (d ? d[k + 1] : 0);
          const z = pos[k + 2] + (d ? d[k + 2] : 0);
          for (let i = 0; i < 3; i++) {
            const w = m[i] * x + m[4 + i] * y + m[8 + i] * z + m[12 + i];
            if (w < min[i]) min[i] = w;
            if (w > max[i]) max[i] = w;
          }
        }
      }
    }
  }
  return { min, max };
}
