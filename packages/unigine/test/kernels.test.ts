import { readInfluences, sortInfluencesDesc } from '@gltf-legacy/core';
import { encodeWeightU16 } from '@gltf-legacy/quantize';
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantizeInfluences4 } from '../src/export/kernels.js';
import { coordOfTriVerts, vertexInfluences } from '../src/import/kernels.js';

/** The export path before the fused kernel: core's readInfluences, then u16 codes per weight. */
function reference(joints: Uint16Array, weights: Float32Array, boneOfJoint: Int32Array, n: number) {
  const doc = new Document();
  const prim = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array(n * 3)),
    )
    .setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(joints))
    .setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights));
  const inf = readInfluences(prim, 4);
  if (!inf) throw new Error('no influences');
  const count = new Uint8Array(n);
  const bones = new Int16Array(n * 4);
  const values = new Uint16Array(n * 4);
  let quantized = 0;
  for (let v = 0; v < n; v++) {
    let k = 0;
    for (let i = 0; i < 4; i++) {
      const w = inf.weights[v * 4 + i];
      const code = encodeWeightU16(w);
      if (code === 0) continue;
      const b = boneOfJoint[inf.joints[v * 4 + i]] ?? -1;
      if (b < 0) continue;
      bones[v * 4 + k] = b;
      values[v * 4 + k] = code;
      k++;
      if (w > 0) quantized++;
    }
    count[v] = k;
  }
  return { count, bones, values, quantized };
}

const weight = fc.oneof(
  fc.constantFrom(0, -0, 1, 0.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e-6, 3e-38),
  fc.float({ min: 0, max: 1, noNaN: true }),
);

describe('export kernels', () => {
  it('quantizeInfluences4 gives the codes of readInfluences + encodeWeightU16 (fast-check)', async () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            joints: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n * 4, maxLength: n * 4 }),
            weights: fc.array(weight, { minLength: n * 4, maxLength: n * 4 }),
            bones: fc.array(fc.integer({ min: -1, max: 40 }), { minLength: 1, maxLength: 8 }),
          }),
        ),
        ({ n, joints, weights, bones }) => {
          const js = Uint16Array.from(joints);
          const ws = Float32Array.from(weights);
          const boneOfJoint = Int32Array.from(bones);
          const want = reference(js, ws, boneOfJoint, n);
          const count = new Uint8Array(n);
          const b = new Int16Array(n * 4);
          const v = new Uint16Array(n * 4);
          const q = quantizeInfluences4(js, ws, boneOfJoint, n, count, b, v);
          expect(count).toEqual(want.count);
          expect(b).toEqual(want.bones);
          expect(v).toEqual(want.values);
          expect(q > 0).toBe(want.quantized > 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** The import loop before the kernel (core's sortInfluencesDesc), for one vertex per record. */
function referenceImport(
  counts: Uint8Array,
  starts: Uint32Array,
  bones: Int16Array,
  values: Uint16Array,
  boneCount: number,
) {
  const n = counts.length;
  const joints = new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  const cj = new Float64Array(256);
  const cw = new Float64Array(256);
  for (let v = 0; v < n; v++) {
    let m = 0;
    for (let k = 0; k < counts[v]; k++) {
      const b = bones[starts[v] + k];
      const w = values[starts[v] + k];
      if (b < 0 || b >= boneCount || w === 0) continue;
      let at = 0;
      while (at < m && cj[at] !== b) at++;
      if (at < m) cw[at] += w;
      else {
        cj[m] = b;
        cw[m++] = w;
      }
    }
    const k4 = Math.min(4, m);
    sortInfluencesDesc(cw, cj, m, k4);
    let sum = 0;
    for (let k = 0; k < k4; k++) sum += cw[k];
    if (sum > 0)
      for (let k = 0; k < k4; k++) {
        joints[v * 4 + k] = cj[k];
        weights[v * 4 + k] = cw[k] / sum;
      }
    else weights[v * 4] = 1;
  }
  return { joints, weights };
}

describe('import kernels', () => {
  it('vertexInfluences equals the loop with core sortInfluencesDesc (fast-check)', async () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.tuple(fc.integer({ min: -2, max: 9 }), fc.integer({ min: 0, max: 65535 })), {
            maxLength: 9,
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (records) => {
          const counts = Uint8Array.from(records, (r) => r.length);
          const starts = new Uint32Array(records.length + 1);
          for (let i = 0; i < records.length; i++) starts[i + 1] = starts[i] + records[i].length;
          const flat = records.flat();
          const bones = Int16Array.from(flat, (r) => r[0]);
          const values = Uint16Array.from(flat, (r) => (r[1] % 7 === 0 ? 0 : r[1]));
          const at = Uint32Array.from(records, (_, i) => i);
          const got = vertexInfluences(counts, starts, bones, values, at, records.length, 8);
          const want = referenceImport(counts, starts, bones, values, 8);
          expect(got.joints).toEqual(want.joints);
          expect(got.weights).toEqual(want.weights);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('coordOfTriVerts: one coordinate vertex per triangle vertex, else null', async () => {
    const tri = Uint32Array.from([0, 1, 2, 2, 1, 0]);
    expect(coordOfTriVerts(tri, Uint32Array.from([5, 6, 7, 7, 6, 5]), 3)).toEqual(Int32Array.from([5, 6, 7]));
    expect(coordOfTriVerts(tri, Uint32Array.from([5, 6, 7, 7, 6, 4]), 3)).toBeNull();
    expect(coordOfTriVerts(tri, Uint32Array.from([5, 6, 7, 7, 6, 5]), 4)).toBeNull(); // vertex 3 unused
  });
  it('vertexInfluences merges equal bones, drops bad ones and keeps the 4 largest renormalized', async () => {
    // coordinate vertex 0: bones 1, 1, 9 (bad), 2, 3, 4, 0 → merged 1 (200), 2 (50), 3 (40), 4 (30), 0 (10)
    const r = vertexInfluences(
      Uint8Array.from([7, 0]),
      Uint32Array.from([0, 7, 7]),
      Int16Array.from([1, 1, 9, 2, 3, 4, 0]),
      Uint16Array.from([100, 100, 500, 50, 40, 30, 10]),
      Uint32Array.from([0, 1]),
      2,
      5,
    );
    expect(Array.from(r.joints)).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
    expect(Array.from(r.weights.subarray(0, 4))).toEqual([200, 50, 40, 30].map((w) => Math.fround(w / 320)));
    expect(Array.from(r.weights.subarray(4))).toEqual([1, 0, 0, 0]);
    expect([r.raw, r.truncated, r.badBone]).toEqual([false, 1, 1]);
  });
});

describe('export reads the document without changing it', () => {
  it('a mirrored static mesh: winding flipped and normals baked in the file, source arrays untouched', async () => {
    const { exportUnigine, readMesh } = await import('../src/index.js');
    const doc = new Document();
    const pos = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
    const nrm = Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    const idx = Uint32Array.from([0, 1, 2, 1, 3, 2]);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos.slice()))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(nrm.slice()))
      .setIndices(doc.createAccessor().setArray(idx.slice()));
    const node = doc.createNode('n').setMesh(doc.createMesh('m').addPrimitive(prim)).setScale([-1, 1, 1]);
    doc.createScene().addChild(node);
    const a = await exportUnigine(doc, { name: 'm' });
    const b = await exportUnigine(doc, { name: 'm' });
    expect(a.files.get('m.mesh')).toEqual(b.files.get('m.mesh'));
    expect(prim.getIndices()?.getArray()).toEqual(idx);
    expect(prim.getAttribute('POSITION')?.getArray()).toEqual(pos);
    expect(prim.getAttribute('NORMAL')?.getArray()).toEqual(nrm);
    const s = readMesh(a.files.get('m.mesh') as Uint8Array).surfaces[0];
    // winding flipped: the first triangle is (v0, v2, v1) — read from the corner at v0, since the
    // shared stage's bake may start the same triangle at another corner; mirrored x; glTF y up is file z
    const p = s.targets[0];
    const first = [0, 1, 2].find(
      (k) => p[s.coordIndices[k] * 3 + 2] === 0 && Math.abs(p[s.coordIndices[k] * 3]) === 0,
    )!;
    const [c0, c1, c2] = [0, 1, 2].map((k) => s.coordIndices[(first + k) % 3]);
    expect([Math.abs(p[c0 * 3]), p[c0 * 3 + 2]]).toEqual([0, 0]);
    expect([Math.abs(p[c1 * 3]), p[c1 * 3 + 2]]).toEqual([0, 1]);
    expect([p[c2 * 3], p[c2 * 3 + 2]]).toEqual([-1, 0]);
  });
});
