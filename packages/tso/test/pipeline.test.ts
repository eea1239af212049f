import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  expectClose,
  firstByteDiff,
  loadWithThree,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { type Document, NodeIO, type Node } from '@gltf-transform/core';
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import {
  legacyFormat,
  readAnimation,
  readMesh,
  writeAnimation,
  writeMesh,
  writeSkeleton,
} from '../src/index.js';
import { twoBoneAnimation, twoBoneMesh, twoBoneSkeleton } from './fixtures.js';

const S = Math.SQRT1_2;
const EPS = 1e-6; // float32 rounding of values of magnitude ≤ 4

function files() {
  return new Map([
    ['twobone.mesh', writeMesh(twoBoneMesh())],
    ['twobone.skel', writeSkeleton(twoBoneSkeleton())],
    ['twobone-wave.anim', writeAnimation(twoBoneAnimation())],
  ]);
}

/** Skinned positions of the first primitive with the animation's frame `k` applied (or rest). */
function posed(doc: Document, k?: number): number[] {
  const root = doc.getRoot();
  const override = new Map<Node, { t?: number[]; r?: number[] }>();
  if (k !== undefined) {
    for (const ch of root.listAnimations()[0].listChannels()) {
      const out = ch.getSampler()!.getOutput()!;
      const size = ch.getTargetPath() === 'rotation' ? 4 : 3;
      const v = Array.from(out.getArray()!.slice(k * size, k * size + size));
      const o = override.get(ch.getTargetNode()!) ?? {};
      if (size === 4) o.r = v;
      else o.t = v;
      override.set(ch.getTargetNode()!, o);
    }
  }
  const world = (n: Node): mat4 => {
    const o = override.get(n);
    const local = mat4.fromRotationTranslation(
      mat4.create(),
      (o?.r ?? n.getRotation()) as any,
      (o?.t ?? n.getTranslation()) as any,
    );
    const p = n.getParentNode();
    return p ? mat4.multiply(mat4.create(), world(p), local) : local;
  };
  const node = root.listNodes().find((n) => n.getMesh())!;
  const skin = node.getSkin()!;
  const ibm = skin.getInverseBindMatrices()!.getArray()!;
  const joints = skin.listJoints();
  const prim = node.getMesh()!.listPrimitives()[0];
  const P = prim.getAttribute('POSITION')!.getArray()!;
  const J = prim.getAttribute('JOINTS_0')!.getArray()!;
  const W = prim.getAttribute('WEIGHTS_0')!.getArray()!;
  const out: number[] = [];
  for (let v = 0; v < P.length / 3; v++) {
    const acc = [0, 0, 0];
    for (let s = 0; s < 4; s++) {
      const w = W[v * 4 + s];
      if (!w) continue;
      const j = J[v * 4 + s];
      const m = mat4.multiply(mat4.create(), world(joints[j]), ibm.slice(j * 16, j * 16 + 16) as any);
      const x = P[v * 3];
      const y = P[v * 3 + 1];
      const z = P[v * 3 + 2];
      acc[0] += w * (m[0] * x + m[4] * y + m[8] * z + m[12]);
      acc[1] += w * (m[1] * x + m[5] * y + m[9] * z + m[13]);
      acc[2] += w * (m[2] * x + m[6] * y + m[10] * z + m[14]);
    }
    out.push(...acc);
  }
  return out;
}

describe('two-bone skeleton + mesh + animation through the whole pipeline', () => {
  it('imports with hand-computed rest positions, normals, joints, winding and keys', async () => {
    const { document: doc, warnings } = await legacyFormat.import(files(), { main: 'twobone.mesh' });
    expect(warnings).toEqual([]);
    const root = doc.getRoot();
    const rootNode = root.listNodes().find((n) => n.getName() === 'ROOT')!;
    const arm = root.listNodes().find((n) => n.getName() === 'ARM')!;
    // Bone TRS: X mirrored, rotation (−x, y, z, w).
    expectClose(rootNode.getTranslation(), [-1, 2, 0], 0, 'ROOT.t');
    expectClose(arm.getTranslation(), [0, 1, 0], 0, 'ARM.t');
    expectClose(arm.getRotation(), [0, 0, Math.fround(S), Math.fround(S)], 0, 'ARM.r');
    expect(arm.getParentNode()).toBe(rootNode);

    const prim = root.listMeshes()[0].listPrimitives()[0];
    // v0 ROOT (−1,0,0)+(−1,2,0); v1 blended ½(−1,2,1)+½(Rz90(−1,0,1)+(−1,3,0)); v2 ARM Rz90(−1,0,0)+(−1,3,0); v3 Rz90(0,2,0)+(−1,3,0)
    expectClose(
      prim.getAttribute('POSITION')!.getArray()!,
      [-2, 2, 0, -1, 2, 1, -1, 2, 0, -3, 3, 0],
      EPS,
      'POSITION',
    );
    expectClose(
      prim.getAttribute('NORMAL')!.getArray()!,
      [0, 0, 1, 0, 0, 1, 0, -1, 0, 0, 0, 1],
      EPS,
      'NORMAL',
    );
    expect(Array.from(prim.getAttribute('JOINTS_0')!.getArray()!)).toEqual([
      0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
    ]);
    expect(Array.from(prim.getAttribute('WEIGHTS_0')!.getArray()!)).toEqual([
      1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
    ]);
    expect(Array.from(prim.getIndices()!.getArray()!)).toEqual([0, 2, 1, 0, 3, 2]);
    // The skinned rest pose equals the stored positions (IBMs are the inverse rest worlds).
    expectClose(posed(doc), prim.getAttribute('POSITION')!.getArray()!, EPS, 'rest pose');

    const anim = root.listAnimations()[0];
    expect(anim.getName()).toBe('wave');
    const times = anim.listSamplers()[0].getInput()!.getArray()!;
    expectClose(times, [0, 1 / 3, 2 / 3], EPS, 'times (1000 ms, 3 frames → 3 fps)');
    const tr = anim.listChannels().find((c) => c.getTargetPath() === 'translation')!;
    expect(tr.getTargetNode()).toBe(rootNode);
    expectClose(tr.getSampler()!.getOutput()!.getArray()!, [-1, 2, 0, -2, 2, 0, -3, 2, 0], 0, 'ROOT keys');
    // Frame 2: ROOT at (−3,2,0), ARM turned 180°: v0 (−4,2,0); v1 ½(−3,2,1)+½(Rz180(−1,0,1)+(−3,3,0)); v2 (−2,3,0); v3 (−3,1,0)
    expectClose(posed(doc, 2), [-4, 2, 0, -2.5, 2.5, 1, -2, 3, 0, -3, 1, 0], EPS, 'frame 2');
    // Frame 1: ROOT at (−2,2,0), ARM's key (90° about Z) equals its rest: v3 Rz90(0,2,0)+(−2,3,0)
    expectClose(posed(doc, 1).slice(9), [-4, 3, 0], EPS, 'frame 1 v3');

    const glb = await new NodeIO().writeBinary(doc);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    // three.js sees a skinned mesh with both bones and a 2/3 s clip.
    const gltf = await loadWithThree(glb);
    let skinned: any;
    gltf.scene.traverse((o: any) => {
      if (o.isSkinnedMesh) skinned = o;
    });
    expect(skinned.skeleton.bones.map((b: any) => b.name)).toEqual(['ROOT', 'ARM']);
    expect(gltf.animations[0].duration).toBeCloseTo(2 / 3, 6);
  });

  it('round-trips through a .glb on disk: .skel and .anim byte-identical, .mesh within float32 tolerance', async () => {
    const input = files();
    const { document } = await legacyFormat.import(input, { main: 'twobone.mesh' });
    const io = new NodeIO();
    const path = join(mkdtempSync(join(tmpdir(), 'tso-')), 'twobone.glb');
    writeFileSync(path, await io.writeBinary(document));
    const back = await io.readBinary(new Uint8Array(readFileSync(path)));
    const { files: out, warnings } = await legacyFormat.export!(back, { name: 'twobone' });
    expect(warnings).toEqual([]);
    expect([...out.keys()].sort()).toEqual(['twobone-wave.anim', 'twobone.mesh', 'twobone.skel']);
    expect(firstByteDiff(out.get('twobone.skel')!, input.get('twobone.skel')!)).toBe(-1);
    expect(firstByteDiff(out.get('twobone-wave.anim')!, input.get('twobone-wave.anim')!)).toBe(-1);
    const a = readMesh(input.get('twobone.mesh')!);
    const b = readMesh(out.get('twobone.mesh')!);
    expect(b.boneNames).toEqual(a.boneNames);
    expect(b.bindings).toEqual(a.bindings);
    expect(Array.from(b.indices)).toEqual(Array.from(a.indices));
    expect(Array.from(b.blendData)).toEqual(Array.from(a.blendData));
    expect(Array.from(b.uvs)).toEqual(Array.from(a.uvs));
    // Tolerance: vertices go p → W·p (f64, stored f32) → B⁻¹·W·IBM(f32)·P. Each of the ~3
    // roundings is ≤ 2⁻²⁴ relative to the largest magnitude involved (R = 4 here).
    const tol = 4 * 2 ** -24 * 4;
    expectClose(b.realVertices, a.realVertices, tol, 'realVertices');
    expectClose(b.blendVertices, a.blendVertices, 0, 'blendVertices (kept raw in extras)');
  });

  it('without a skeleton: bones at the origin, bone-space positions, SKELETON_MISSING', async () => {
    const { document, warnings } = await legacyFormat.import(
      new Map([['twobone.mesh', writeMesh(twoBoneMesh())]]),
      { main: 'twobone.mesh' },
    );
    expect(warnings.map((w) => w.code)).toEqual(['SKELETON_MISSING']);
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    // v1 = ½·(0,0,1) + ½·(−1,0,1); others are the raw positions with X negated.
    expectClose(
      prim.getAttribute('POSITION')!.getArray()!,
      [-1, 0, 0, -0.5, 0, 1, -1, 0, 0, 0, 2, 0],
      0,
      'POSITION',
    );
    for (const n of document.getRoot().listNodes()) expect(Array.from(n.getTranslation())).toEqual([0, 0, 0]);
  });

  it('an .anim alone imports as one node per motion plus the animation', async () => {
    const { document } = await legacyFormat.import(
      new Map([['twobone-wave.anim', writeAnimation(twoBoneAnimation())]]),
      {},
    );
    const root = document.getRoot();
    expect(root.listNodes().map((n) => n.getName())).toEqual(['ROOT', 'ARM']);
    expect(root.listAnimations()[0].listChannels().length).toBe(2);
    const { files: out } = await legacyFormat.export!(document, { name: 'x' });
    expect(firstByteDiff(out.get('twobone-wave.anim')!, writeAnimation(twoBoneAnimation()))).toBe(-1);
    expect(readAnimation(out.get('twobone-wave.anim')!).motions[1].timeProps[0][0].props[0][0]).toEqual([
      'xevt',
      'wave_sound',
    ]);
  });

  it('an .anim whose bones are not in the skeleton gives a warning, not an error', async () => {
    const anim = twoBoneAnimation();
    anim.motions[1].boneName = 'TAIL';
    const set = files();
    set.set('twobone-wave.anim', writeAnimation(anim));
    const { warnings } = await legacyFormat.import(set, { main: 'twobone.mesh' });
    expect(warnings.map((w) => w.code)).toEqual(['ANIM_BONE_MISSING']);
  });
});

describe('a skeleton with two roots', () => {
  it('imports under one group node (valid skin) and exports the same .skel', async () => {
    const skel = twoBoneSkeleton();
    skel.bones[1].parentName = 'NULL';
    const bytes = writeSkeleton(skel);
    const { document } = await legacyFormat.import(
      new Map([
        ['m.mesh', writeMesh(twoBoneMesh())],
        ['s.skel', bytes],
      ]),
      { main: 'm.mesh' },
    );
    const report = await validateGlb(await new NodeIO().writeBinary(document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const { files: out, warnings } = await legacyFormat.export!(document, { name: 'm' });
    expect(warnings).toEqual([]);
    expect(firstByteDiff(out.get('m.skel')!, bytes)).toBe(-1);
  });
});

describe('an animation with two motions for one bone', () => {
  it('keeps one channel per path (valid glTF) and still writes the same .anim', async () => {
    const anim = twoBoneAnimation();
    anim.motions.push({ ...anim.motions[0], unknown: 3 });
    const bytes = writeAnimation(anim);
    const set = files();
    set.set('twobone-wave.anim', bytes);
    const { document, warnings } = await legacyFormat.import(set, { main: 'twobone.mesh' });
    expect(warnings.map((w) => w.code)).toEqual(['ANIM_DUPLICATE_MOTION']);
    const report = await validateGlb(await new NodeIO().writeBinary(document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const { files: out } = await legacyFormat.export!(document, { name: 'twobone' });
    expect(firstByteDiff(out.get('twobone-wave.anim')!, bytes)).toBe(-1);
  });
});
