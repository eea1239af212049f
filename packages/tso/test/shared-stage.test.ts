/**
 * The shared export stage in the TSO exporter (issue 17): on every file of corpus/gltf the export
 * reports exactly the stage codes `prepare(document, TSO_LIMITS)` reports, a strip comes out as
 * the same triangles, a third influence is the stage's WEIGHTS_TRUNCATED (largest two kept,
 * renormalized), off-grid keys are the stage's ANIMATION_RESAMPLED (exact at the frames), the
 * caller's document is untouched, and every code the package emits is listed once.
 */
import { emittedWarningCodes } from '@gltf-legacy/test-utils';
import { SHARED_WARNING_CODES } from '@gltf-legacy/core';
import { decodeQ15 } from '@gltf-legacy/quantize';
import { Document, Primitive } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  TSO_LIMITS,
  WARNING_CODES,
  exportTso,
  legacyFormat,
  readAnimation,
  readMesh,
  tsoLimits,
} from '../src/index.js';

function quad(mode: number) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType('VEC3')
    .setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]));
  const prim = doc.createPrimitive().setMode(mode).setAttribute('POSITION', pos);
  const mesh = doc.createMesh('quad').addPrimitive(prim);
  const node = doc.createNode('quad').setMesh(mesh);
  doc.createScene().addChild(node);
  return { doc, buffer, prim, mesh, node };
}

describe('shared export stage', () => {
  it('legacyFormat declares TSO_LIMITS: triangle lists, 2 influences, one key per frame', () => {
    expect(legacyFormat.limits).toBe(TSO_LIMITS);
    expect(TSO_LIMITS.modes).toEqual([Primitive.Mode.TRIANGLES]);
    expect(TSO_LIMITS.maxInfluences).toBe(2);
    expect(TSO_LIMITS.maxVertices).toBe(0xffffffff);
    expect(TSO_LIMITS.nodeTree).toBe(true);
    expect(TSO_LIMITS.animation?.sampling).toBe('grid');
    expect(TSO_LIMITS.animation?.interpolations).toEqual(['LINEAR']);
    // the rate: the clip's own (extras of an imported .anim), else the export option
    const doc = new Document();
    const own = doc.createAnimation('a').setExtras({ tso: { fps: 30 } });
    const foreign = doc.createAnimation('b');
    const fps = tsoLimits(24).animation!.fps as (a: unknown) => number;
    expect([fps(own), fps(foreign)]).toEqual([30, 24]);
  });

  it('the package lists only codes core does not, and every code it emits', () => {
    for (const code of Object.keys(WARNING_CODES))
      expect(Object.keys(SHARED_WARNING_CODES), code).not.toContain(code);
    const emitted = emittedWarningCodes(new URL('../src/', import.meta.url));
    expect(emitted.size).toBeGreaterThan(25);
    for (const code of emitted)
      expect(code in WARNING_CODES || code in SHARED_WARNING_CODES, code).toBe(true);
    // the stage's steps are no longer the package's: it emits none of their codes itself
    for (const code of ['PRIMITIVE_TRIANGULATED', 'PRIMITIVE_DROPPED', 'ANIMATION_RESAMPLED'])
      expect(emitted.has(code), code).toBe(false);
  });

  it('a triangle strip becomes the same triangles, points are dropped (both from the stage)', async () => {
    const { doc, prim, mesh } = quad(Primitive.Mode.TRIANGLE_STRIP);
    mesh.addPrimitive(
      doc
        .createPrimitive()
        .setMode(Primitive.Mode.POINTS)
        .setAttribute('POSITION', prim.getAttribute('POSITION')),
    );
    const { files, warnings } = await exportTso(doc, { name: 'q' });
    const codes = warnings.map((w) => w.code);
    expect(codes).toContain('PRIMITIVE_TRIANGULATED');
    expect(codes).toContain('PRIMITIVE_DROPPED');
    const m = readMesh(files.get('q.mesh')!);
    // TSO axes mirror X and reverse the winding: undo both to compare with the glTF strip.
    const corner = (v: number) => [-m.realVertices[v * 6], m.realVertices[v * 6 + 1]].join(',');
    const tris = [];
    for (let i = 0; i < m.indices.length; i += 3)
      tris.push([m.indices[i], m.indices[i + 2], m.indices[i + 1]].map(corner));
    // glTF strip 0 1 2 3: triangles (0 1 2) and (2 1 3)
    expect(tris).toEqual([
      ['0,0', '1,0', '0,1'],
      ['0,1', '1,0', '1,1'],
    ]);
    // the caller's document is untouched
    expect(prim.getMode()).toBe(Primitive.Mode.TRIANGLE_STRIP);
    expect(mesh.listPrimitives().length).toBe(2);
  });

  it('three influences: the stage keeps the largest two, renormalized (WEIGHTS_TRUNCATED)', async () => {
    const { doc, buffer, node, prim } = quad(Primitive.Mode.TRIANGLES);
    prim.setIndices(
      doc
        .createAccessor()
        .setBuffer(buffer)
        .setType('SCALAR')
        .setArray(new Uint16Array([0, 1, 2])),
    );
    const joints = [0, 1, 2].map((i) => doc.createNode(`j${i}`));
    for (const j of joints) doc.getRoot().listScenes()[0].addChild(j);
    const skin = doc.createSkin();
    for (const j of joints) skin.addJoint(j);
    node.setSkin(skin);
    const J = new Uint8Array(16);
    const W = new Float32Array(16);
    for (let v = 0; v < 4; v++) {
      J.set([0, 1, 2, 0], v * 4);
      W.set([0.5, 0.3, 0.2, 0], v * 4);
    }
    prim
      .setAttribute('JOINTS_0', doc.createAccessor().setBuffer(buffer).setType('VEC4').setArray(J))
      .setAttribute('WEIGHTS_0', doc.createAccessor().setBuffer(buffer).setType('VEC4').setArray(W));
    const { files, warnings } = await exportTso(doc, { name: 'w' });
    expect(warnings.find((w) => w.code === 'WEIGHTS_TRUNCATED')?.count).toBe(4);
    const m = readMesh(files.get('w.mesh')!);
    // every vertex: real vertex of j0, one blend vertex of j1 with weight 0.3 / 0.8
    expect(m.blendData.length / 2).toBe(4);
    for (let k = 0; k < 4; k++) expect(decodeQ15(m.blendData[k * 2])).toBeCloseTo(0.375, 4);
    expect(m.boneNames).toEqual(['j0', 'j1']);
    expect(prim.getAttribute('WEIGHTS_0')!.getArray()![2]).toBe(Math.fround(0.2)); // caller's weights untouched
    expect(prim.getAttribute('JOINTS_0')!.getArray()![2]).toBe(2);
  });

  it('keys off the frame grid: the stage samples them at 36 fps (ANIMATION_RESAMPLED)', async () => {
    const { doc, buffer, node } = quad(Primitive.Mode.TRIANGLES);
    const times = doc
      .createAccessor()
      .setBuffer(buffer)
      .setType('SCALAR')
      .setArray(new Float32Array([0, 0.1, 1]));
    const values = doc
      .createAccessor()
      .setBuffer(buffer)
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 0, 1, 0, 0, 10, 0]));
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(values).setInterpolation('LINEAR');
    doc
      .createAnimation('move')
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler),
      );
    const { files, warnings } = await exportTso(doc, { name: 'a' });
    expect(warnings.map((w) => w.code)).toContain('ANIMATION_RESAMPLED');
    const anim = readAnimation(files.get('a_move.anim')!);
    expect(anim.motions[0].frameCount).toBe(37); // 0 … 1 s at 36 fps
    const y = (k: number) => anim.translations[k * 3 + 1];
    expect(y(0)).toBe(0);
    expect(y(36)).toBeCloseTo(10, 5); // the last key
    expect(y(18)).toBeCloseTo(1 + ((0.5 - 0.1) / 0.9) * 9, 4); // 0.5 s, between keys 0.1 and 1
    expect(sampler.getInput()!.getCount()).toBe(3); // caller's keys untouched
  });

  it("meshNodes of the caller's document still select the parts when the stage had to clone it", async () => {
    const a = quad(Primitive.Mode.TRIANGLE_STRIP); // a strip: the stage clones the document
    const b = a.doc.createNode('other').setMesh(
      a.doc.createMesh('other').addPrimitive(
        a.doc.createPrimitive().setAttribute(
          'POSITION',
          a.doc
            .createAccessor()
            .setBuffer(a.buffer)
            .setType('VEC3')
            .setArray(new Float32Array([5, 0, 0, 6, 0, 0, 5, 1, 0])),
        ),
      ),
    );
    a.doc.getRoot().listScenes()[0].addChild(b);
    const { files } = await exportTso(a.doc, { name: 'p', meshNodes: [b] });
    const m = readMesh(files.get('p.mesh')!);
    expect(m.uvs.length / 2).toBe(3); // the 3 vertices of "other" only
    expect(m.boneNames).toEqual(['other']);
    expect(-m.realVertices[0]).toBe(5); // its first vertex (node at the origin; TSO mirrors X)
  });
  // Every corpus/gltf file against prepare(limits): tools/export-matrix, for all five formats at once.
});
