import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { documentStats, readInfluences, readSampler, sampleAt } from '../src/index.js';

function sampler(
  doc: Document,
  times: number[],
  values: number[],
  type: 'VEC3' | 'VEC4',
  interp: 'LINEAR' | 'STEP' | 'CUBICSPLINE',
) {
  const buf = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const input = doc.createAccessor().setType('SCALAR').setArray(new Float32Array(times)).setBuffer(buf);
  const output = doc.createAccessor().setType(type).setArray(new Float32Array(values)).setBuffer(buf);
  return doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(interp);
}

describe('animation sampling', () => {
  it('LINEAR interpolates, clamps outside the key range', () => {
    const doc = new Document();
    const s = readSampler(sampler(doc, [0, 1], [0, 0, 0, 2, 4, 6], 'VEC3', 'LINEAR'), false);
    const out = [0, 0, 0];
    sampleAt(s, 0.25, out);
    expect(out).toEqual([0.5, 1, 1.5]);
    sampleAt(s, -1, out);
    expect(out).toEqual([0, 0, 0]);
    sampleAt(s, 5, out);
    expect(out).toEqual([2, 4, 6]);
  });

  it('STEP holds the previous key', () => {
    const doc = new Document();
    const s = readSampler(sampler(doc, [0, 1, 2], [0, 0, 0, 1, 1, 1, 2, 2, 2], 'VEC3', 'STEP'), false);
    const out = [0, 0, 0];
    sampleAt(s, 1.99, out);
    expect(out).toEqual([1, 1, 1]);
  });

  it('LINEAR quaternions slerp along the short arc and stay unit length', () => {
    const doc = new Document();
    const h = Math.SQRT1_2;
    // identity to 90° about Z, second key negated (same rotation)
    const s = readSampler(sampler(doc, [0, 1], [0, 0, 0, 1, 0, 0, -h, -h], 'VEC4', 'LINEAR'), true);
    const out = [0, 0, 0, 0];
    sampleAt(s, 0.5, out);
    expect(out[2]).toBeCloseTo(Math.sin(Math.PI / 8), 6);
    expect(out[3]).toBeCloseTo(Math.cos(Math.PI / 8), 6);
  });

  it('CUBICSPLINE uses the Hermite basis with tangents scaled by the key interval', () => {
    const doc = new Document();
    // scalar-like VEC3 with in/value/out per key; key interval 2; out-tangent 1 at key 0
    const vals = [0, 0, 0, 0, 0, 0, 1, 1, 1, /* key 1 */ 0, 0, 0, 2, 2, 2, 0, 0, 0];
    const s = readSampler(sampler(doc, [0, 2], vals, 'VEC3', 'CUBICSPLINE'), false);
    const out = [0, 0, 0];
    sampleAt(s, 1, out);
    // u = .5: h00=.5 h10=.125 h01=.5 h11=-.125 → 0 + .125*2*1 + .5*2 + 0 = 1.25
    expect(out[0]).toBeCloseTo(1.25, 12);
  });
});

describe('readInfluences', () => {
  it('keeps the 4 largest of 8 influences, merges duplicate joints and renormalizes', () => {
    const doc = new Document();
    const buf = doc.createBuffer();
    const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array(3)).setBuffer(buf);
    const j0 = doc
      .createAccessor()
      .setType('VEC4')
      .setArray(new Uint16Array([0, 1, 2, 3]))
      .setBuffer(buf);
    const w0 = doc
      .createAccessor()
      .setType('VEC4')
      .setArray(new Float32Array([0.1, 0.2, 0.05, 0.15]))
      .setBuffer(buf);
    const j1 = doc
      .createAccessor()
      .setType('VEC4')
      .setArray(new Uint16Array([4, 5, 0, 7]))
      .setBuffer(buf);
    const w1 = doc
      .createAccessor()
      .setType('VEC4')
      .setArray(new Float32Array([0.3, 0.02, 0.12, 0.08]))
      .setBuffer(buf);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', pos)
      .setAttribute('JOINTS_0', j0)
      .setAttribute('WEIGHTS_0', w0)
      .setAttribute('JOINTS_1', j1)
      .setAttribute('WEIGHTS_1', w1);
    const inf = readInfluences(prim, 4)!;
    expect([...inf.joints]).toEqual([4, 0, 1, 3]);
    const sum = 0.3 + 0.22 + 0.2 + 0.15;
    expect(inf.weights[0]).toBeCloseTo(0.3 / sum, 6);
    expect(inf.weights[1]).toBeCloseTo(0.22 / sum, 6);
    expect(inf.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(inf.truncated).toBe(1);
  });

  it('returns null without skin attributes', () => {
    const doc = new Document();
    const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array(3));
    expect(readInfluences(doc.createPrimitive().setAttribute('POSITION', pos), 4)).toBeNull();
  });
});

describe('documentStats', () => {
  it('counts vertices, triangles, joints, animations', () => {
    const doc = new Document();
    const pos = doc.createAccessor().setType('VEC3').setArray(new Float32Array(12));
    const idx = doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]));
    doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('POSITION', pos).setIndices(idx));
    doc.createSkin().addJoint(doc.createNode()).addJoint(doc.createNode());
    doc.createAnimation();
    expect(documentStats(doc)).toMatchObject({
      vertices: 4,
      triangles: 2,
      joints: 2,
      animations: 1,
      meshes: 1,
    });
  });
});

describe('matrix helpers', () => {
  it('composeTRS matches rotation of basis vectors; quatFromMat3 inverts it; det3 sees mirrors', async () => {
    const { composeTRS, mat4Det3, mat4Multiply, quatFromMat3 } = await import('../src/index.js');
    const h = Math.SQRT1_2;
    const m = composeTRS([1, 2, 3], [0, 0, h, h], [2, 2, 2]); // 90° about Z, scale 2
    // x axis → 2·y
    expect([m[0], m[1], m[2]].map((v) => +v.toFixed(12) + 0)).toEqual([0, 2, 0]);
    expect([m[12], m[13], m[14]]).toEqual([1, 2, 3]);
    const r = composeTRS([0, 0, 0], [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)], [1, 1, 1]);
    const q = quatFromMat3([r[0], r[1], r[2], r[4], r[5], r[6], r[8], r[9], r[10]]);
    expect(q.map((v) => +v.toFixed(9))).toEqual([0.1, 0.2, 0.3, +Math.sqrt(1 - 0.14).toFixed(9)]);
    expect(mat4Det3(composeTRS([0, 0, 0], [0, 0, 0, 1], [1, -1, 1]))).toBe(-1);
    const ab = mat4Multiply(
      composeTRS([1, 0, 0], [0, 0, 0, 1], [1, 1, 1]),
      composeTRS([0, 1, 0], [0, 0, 0, 1], [1, 1, 1]),
    );
    expect([ab[12], ab[13], ab[14]]).toEqual([1, 1, 0]);
  });
});
