import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { corpusFiles, expectClose, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readMesh, writeSkeleton } from '../src/index.js';
import { syntheticAdultSkeleton } from './fixtures.js';

const meshes = corpusFiles('tso', ['.mesh']);
const skel = writeSkeleton(syntheticAdultSkeleton());

describe('corpus meshes bound to a (synthetic) skeleton', () => {
  it.each(meshes.map((f) => [basename(f), f]))(
    '%s: valid skin, round trip within float32 tolerance',
    async (name, f) => {
      const bytes = readBytes(f);
      const { document, warnings } = await legacyFormat.import(
        new Map([
          [name, bytes],
          ['adult.skel', skel],
        ]),
        { main: name },
      );
      expect(warnings).toEqual([]);
      const skin = document.getRoot().listSkins()[0];
      expect(skin.listJoints().length).toBe(syntheticAdultSkeleton().bones.length);
      const io = new NodeIO();
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const path = join(mkdtempSync(join(tmpdir(), 'tso-')), 'm.glb');
      writeFileSync(path, glb);
      const back = await io.readBinary(new Uint8Array(readFileSync(path)));
      const { files } = await legacyFormat.export!(back, { name: 'm' });
      expect([...files.keys()].sort()).toEqual(['m.mesh', 'm.skel']);
      expect(Buffer.compare(files.get('m.skel')!, skel)).toBe(0);
      const a = readMesh(bytes);
      const b = readMesh(files.get('m.mesh')!);
      expect(b.boneNames).toEqual(a.boneNames);
      expect(b.bindings).toEqual(a.bindings);
      expect(Buffer.compare(Buffer.from(b.indices.buffer), Buffer.from(a.indices.buffer))).toBe(0);
      expect(Array.from(b.blendData)).toEqual(Array.from(a.blendData));
      expect(Array.from(b.uvs)).toEqual(Array.from(a.uvs));
      expect(Array.from(b.blendVertices)).toEqual(Array.from(a.blendVertices));
      // Tolerance from float32 error of the bone transforms: a vertex goes p → P = W·p (rounded to
      // f32) → B⁻¹·W·IBM·P with IBM stored as f32. Each rounding is ≤ 2⁻²⁴ relative to the largest
      // magnitude R in play (world positions and bone translations), and ~4 of them add up through
      // 3-term dot products: |Δ| ≤ 16·2⁻²⁴·R.
      const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
      const P = prim.getAttribute('POSITION')!.getArray()!;
      let R = 1;
      for (const v of P) R = Math.max(R, Math.abs(v));
      for (const n of document.getRoot().listNodes())
        for (const v of n.getWorldMatrix().slice(12, 15)) R = Math.max(R, Math.abs(v));
      expectClose(b.realVertices, a.realVertices, 16 * 2 ** -24 * R, `${name} realVertices`);
    },
  );
});

describe('extras stripped (as after an editor that drops them)', () => {
  const withBlends = meshes.filter((f) => /Grim-Hood|au-blue\.|flipflops/.test(f));
  it.each(withBlends.map((f) => [basename(f), f]))(
    '%s: the generic export keeps the rest shape and the blends',
    async (name, f) => {
      const bytes = readBytes(f);
      const set = new Map([
        [name, bytes],
        ['adult.skel', skel],
      ]);
      const { document } = await legacyFormat.import(set, { main: name });
      const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
      const before = Array.from(prim.getAttribute('POSITION')!.getArray()!);
      for (const m of document.getRoot().listMeshes()) m.setExtras({});
      prim.setAttribute('_TSO_NORMAL', null);
      const { files, warnings } = await legacyFormat.export!(document, { name: 'g' });
      expect(warnings.map((w) => w.code)).not.toContain('WEIGHTS_TRUNCATED');
      const orig = readMesh(bytes);
      const out = readMesh(files.get('g.mesh')!);
      expect(out.uvs.length).toBe(orig.uvs.length);
      expect(out.indices.length).toBe(orig.indices.length);
      // A blend vertex on the same bone as its real vertex is just a moved real vertex (glTF merges
      // the two influences) and a weight-0 blend does nothing (the corpus has some): only blends
      // across two bones with w > 0 come back as blend vertices.
      const boneOfReal = (m: typeof orig, v: number) =>
        m.bindings.find((b) => v >= b.firstRealVertex && v < b.firstRealVertex + b.realVertexCount)!
          .boneIndex;
      const boneOfBlend = (m: typeof orig, j: number) =>
        m.bindings.find(
          (b) => b.blendVertexCount && j >= b.firstBlendVertex && j < b.firstBlendVertex + b.blendVertexCount,
        )!.boneIndex;
      const cross = (m: typeof orig) => {
        const w: number[] = [];
        for (let j = 0; j < m.blendData.length / 2; j++) {
          if (m.blendData[j * 2] > 0 && boneOfBlend(m, j) !== boneOfReal(m, m.blendData[j * 2 + 1]))
            w.push(m.blendData[j * 2]);
        }
        return w.sort((a, b) => a - b);
      };
      // Same blend weights (as a multiset): Q1.15 codes survive glTF float weights exactly.
      expect(cross(out)).toEqual(cross(orig));
      expect(out.blendData.length / 2).toBe(cross(orig).length);
      // Re-import: the rest positions are the same set of points (order regrouped by bone).
      const back = await legacyFormat.import(
        new Map([
          ['g.mesh', files.get('g.mesh')!],
          ['adult.skel', skel],
        ]),
        { main: 'g.mesh' },
      );
      const after = Array.from(
        back.document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!.getArray()!,
      );
      const key = (a: number[]) => {
        const pts: number[][] = [];
        for (let i = 0; i < a.length; i += 3) pts.push([a[i], a[i + 1], a[i + 2]]);
        return pts.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
      };
      const A = key(before);
      const B = key(after);
      let R = 1;
      for (const v of before) R = Math.max(R, Math.abs(v));
      for (let i = 0; i < A.length; i++) expectClose(B[i], A[i], 2 ** -16 * R, `${name} point ${i}`);
    },
  );
});
