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
