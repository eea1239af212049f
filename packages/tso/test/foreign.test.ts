import { basename } from 'node:path';
import { ExportError } from '@gltf-legacy/core';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readAnimation, readMesh, readSkeleton } from '../src/index.js';

const files = corpusFiles('gltf', ['.glb', '.gltf']);
// Draco / meshopt decoders are not installed: NodeIO cannot decode these (DenseSphere is Draco too), so they cannot
// reach our exporter at all. The test asserts that reading them fails (not that we export them).
const COMPRESSED = new Set(['BoxDraco.gltf', 'BoxMeshopt.glb', 'DenseSphere.glb']);

/** Triangles and vertices the exporter should write: every TRIANGLES/STRIP/FAN primitive of every mesh node. */
function expected(doc: Document) {
  let vertices = 0;
  let triangles = 0;
  let dropped = 0;
  let maxInfluences = 0;
  for (const node of doc.getRoot().listNodes()) {
    for (const prim of node.getMesh()?.listPrimitives() ?? []) {
      const mode = prim.getMode();
      const count = prim.getAttribute('POSITION')?.getCount() ?? 0;
      const n = prim.getIndices()?.getCount() ?? count;
      if (mode < 4) {
        dropped++;
        continue;
      }
      vertices += count;
      triangles += mode === 4 ? Math.floor(n / 3) : Math.max(0, n - 2);
      if (prim.getAttribute('JOINTS_1')) maxInfluences = 8;
      else if (prim.getAttribute('JOINTS_0')) maxInfluences = Math.max(maxInfluences, 4);
    }
  }
  return { vertices, triangles, dropped, maxInfluences };
}

// These tests check the plain `.mesh` mapping (every mesh node in one file): `outfit: 'never'`.
// The default for a textured glTF (an outfit, texture kept) is tested in outfit-assets.test.ts.
describe('export of foreign glTF', () => {
  it('has the foreign corpus', () => expect(files.length).toBeGreaterThan(40));

  it.each(files.map((f) => [basename(f), f]))(
    '%s exports and re-imports with counts preserved',
    async (name, f) => {
      const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
      if (COMPRESSED.has(name)) {
        await expect(io.read(f)).rejects.toThrow();
        return;
      }
      const doc = await io.read(f);
      const exp = expected(doc);
      const hasAnimatedOrMesh = exp.vertices > 0 || doc.getRoot().listAnimations().length > 0;
      if (!hasAnimatedOrMesh && exp.dropped === 0) {
        await expect(legacyFormat.export!(doc, { name: 'x', outfit: 'never' })).rejects.toBeInstanceOf(
          ExportError,
        );
        return;
      }
      let result: Awaited<ReturnType<NonNullable<typeof legacyFormat.export>>>;
      try {
        result = await legacyFormat.export!(doc, { name: 'x', outfit: 'never' });
      } catch (e) {
        // Only documents with nothing TSO can hold may fail, with a stable code.
        expect(e).toBeInstanceOf(ExportError);
        expect((e as ExportError).code).toBe('NOTHING_TO_EXPORT');
        expect(exp.vertices).toBe(0);
        return;
      }
      const { files: out, warnings } = result;
      const codes = warnings.map((w) => w.code);
      if (exp.dropped) expect(codes).toContain('PRIMITIVE_DROPPED');
      if (doc.getRoot().listTextures().length) expect(codes).toContain('TEXTURE_DROPPED');
      if (exp.vertices > 0) {
        const mesh = readMesh(out.get('x.mesh')!);
        expect(mesh.uvs.length / 2).toBe(exp.vertices);
        expect(mesh.indices.length / 3).toBe(exp.triangles);
        expect(mesh.bindings.reduce((s, b) => s + b.realVertexCount, 0)).toBe(exp.vertices);
        if (exp.maxInfluences > 2 && mesh.blendData.length) {
          // More than two influences somewhere: at most one blend vertex per real vertex remains.
          expect(new Set(Array.from(mesh.blendData.filter((_, i) => i % 2 === 1))).size).toBe(
            mesh.blendData.length / 2,
          );
        }
        // Re-import the written set: same counts (no welding, no splitting).
        const set = new Map([...out].filter(([n]) => n.endsWith('.mesh') || n.endsWith('.skel')));
        const back = await legacyFormat.import(set, { main: 'x.mesh' });
        const prim = back.document.getRoot().listMeshes()[0].listPrimitives()[0];
        expect(prim.getAttribute('POSITION')!.getCount()).toBe(exp.vertices);
        expect(prim.getIndices()!.getCount()).toBe(exp.triangles * 3);
        expect(back.warnings.map((w) => w.code)).not.toContain('BONE_NOT_IN_SKELETON');
        // Validate where the interesting structure is (skins, animations); static meshes are
        // covered by the corpus and asset tests (keeps this file fast).
        if (doc.getRoot().listSkins().length || doc.getRoot().listAnimations().length) {
          const report = await validateGlb(await new NodeIO().writeBinary(back.document));
          expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
        }
      }
      const skel = readSkeleton(out.get('x.skel')!);
      expect(skel.bones.filter((b) => b.parentName === 'NULL').length).toBe(1);
      const anims = [...out.keys()].filter((n) => n.endsWith('.anim'));
      expect(anims.length).toBe(
        doc
          .getRoot()
          .listAnimations()
          .filter((a) =>
            a
              .listChannels()
              .some((c) => c.getTargetPath() === 'translation' || c.getTargetPath() === 'rotation'),
          ).length,
      );
      for (const a of anims) {
        const anim = readAnimation(out.get(a)!);
        for (const m of anim.motions) expect(skel.bones.some((b) => b.name === m.boneName)).toBe(true);
      }
    },
  );

  it('CesiumMan: 4 influences → WEIGHTS_TRUNCATED, blend vertices, resampled animation', async () => {
    const f = files.find((x) => x.endsWith('CesiumMan.gltf'))!;
    const doc = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).read(f);
    const { files: out, warnings } = await legacyFormat.export!(doc, { name: 'cm', outfit: 'never' });
    const codes = warnings.map((w) => w.code);
    expect(codes).toContain('WEIGHTS_TRUNCATED');
    expect(codes).toContain('ANIMATION_RESAMPLED');
    expect(codes).toContain('VALUE_QUANTIZED');
    const mesh = readMesh(out.get('cm.mesh')!);
    expect(mesh.blendData.length).toBeGreaterThan(0);
    for (let j = 0; j < mesh.blendData.length; j += 2) {
      expect(mesh.blendData[j]).toBeGreaterThan(0);
      expect(mesh.blendData[j]).toBeLessThanOrEqual(0x4000); // the second weight is never the larger
    }
  });
});

describe('export of foreign glTF keeps the rest shape', () => {
  /** World-space rest positions of every triangle primitive (linear blend skinning at rest). */
  async function restPositions(doc: Document): Promise<Float64Array[]> {
    const { mat4 } = await import('gl-matrix');
    const axes: number[][] = [[], [], []];
    for (const node of doc.getRoot().listNodes()) {
      for (const prim of node.getMesh()?.listPrimitives() ?? []) {
        if (prim.getMode() < 4) continue;
        const P = prim.getAttribute('POSITION')!.getArray()!;
        const skin = node.getSkin();
        const J = prim.getAttribute('JOINTS_0')?.getArray();
        const W = prim.getAttribute('WEIGHTS_0')?.getArray();
        const mats = skin
          ? skin.listJoints().map((j, k) =>
              mat4.multiply(
                mat4.create(),
                j.getWorldMatrix(),
                skin
                  .getInverseBindMatrices()!
                  .getArray()!
                  .slice(k * 16, k * 16 + 16) as any,
              ),
            )
          : [node.getWorldMatrix()];
        for (let v = 0; v < P.length / 3; v++) {
          const out = [0, 0, 0];
          const infl = skin && J && W ? [0, 1, 2, 3].map((s) => [J[v * 4 + s], W[v * 4 + s]]) : [[0, 1]];
          const sum = infl.reduce((s, [, w]) => s + w, 0);
          for (const [j, w] of infl) {
            if (!w) continue;
            const m = mats[j];
            for (let c = 0; c < 3; c++)
              out[c] +=
                (w / sum) * (m[c] * P[v * 3] + m[4 + c] * P[v * 3 + 1] + m[8 + c] * P[v * 3 + 2] + m[12 + c]);
          }
          for (let c = 0; c < 3; c++) axes[c].push(out[c]);
        }
      }
    }
    return axes.map((a) => Float64Array.from(a).sort());
  }

  it.each(['Box.glb', 'RiggedSimple.gltf', 'CesiumMan.gltf', 'TwoCubes.glb'])(
    '%s: re-imported rest positions equal the original',
    async (name) => {
      const f = files.find((x) => basename(x) === name)!;
      const doc = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).read(f);
      const { files: out } = await legacyFormat.export!(doc, { name: 'x', outfit: 'never' });
      const set = new Map([...out].filter(([n]) => n.endsWith('.mesh') || n.endsWith('.skel')));
      const back = (await legacyFormat.import(set, { main: 'x.mesh' })).document;
      const a = await restPositions(doc);
      const b = await restPositions(back);
      let extent = 1;
      for (const axis of a) extent = Math.max(extent, Math.abs(axis[0]), Math.abs(axis[axis.length - 1]));
      // float32 storage of positions and bind matrices on both sides: a few ulps of the extent.
      for (let c = 0; c < 3; c++) {
        expect(b[c].length).toBe(a[c].length);
        for (let i = 0; i < a[c].length; i++)
          expect(Math.abs(a[c][i] - b[c][i])).toBeLessThan(2 ** -18 * extent);
      }
    },
  );
});

describe('export of foreign animations', () => {
  it.each(['RiggedSimple.gltf', 'CesiumMan.gltf'])(
    '%s: re-imported keys equal the original sampled at 36 fps',
    async (name) => {
      const { readSampler, sampleAt } = await import('@gltf-legacy/core');
      const f = files.find((x) => basename(x) === name)!;
      const doc = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).read(f);
      const { files: out, warnings } = await legacyFormat.export!(doc, { name: 'x', outfit: 'never' });
      expect(warnings.map((w) => w.code)).toContain('ANIMATION_RESAMPLED');
      const back = (await legacyFormat.import(out, { main: 'x.mesh' })).document;
      const a0 = doc.getRoot().listAnimations()[0];
      const b0 = back.getRoot().listAnimations()[0];
      let checked = 0;
      for (const ch of a0.listChannels()) {
        const path = ch.getTargetPath();
        if (path !== 'translation' && path !== 'rotation') continue;
        const target = ch.getTargetNode()!.getName();
        const twin = b0
          .listChannels()
          .find((c) => c.getTargetPath() === path && c.getTargetNode()!.getName() === target);
        expect(twin, `${target}/${path}`).toBeDefined();
        const sa = readSampler(ch.getSampler()!, path === 'rotation');
        const sb = readSampler(twin!.getSampler()!, path === 'rotation');
        const x = [0, 0, 0, 0];
        const y = [0, 0, 0, 0];
        for (let k = 0; k < sb.times.length; k += 7) {
          sampleAt(sa, k / 36, x);
          sampleAt(sb, sb.times[k], y);
          // Same quaternion up to sign; float32 of the times and values.
          const sign =
            path === 'rotation' && x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3] < 0 ? -1 : 1;
          for (let c = 0; c < sa.size; c++) expect(Math.abs(x[c] - sign * y[c])).toBeLessThan(1e-4);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    },
  );
});
