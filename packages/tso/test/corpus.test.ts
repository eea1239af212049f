import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, firstByteDiff, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readMesh, writeMesh } from '../src/index.js';

const meshes = corpusFiles('tso', ['.mesh']);
const unigine = corpusFiles('unigine', ['.mesh', '.anim']);

describe('tso corpus', () => {
  it('has the 14 corpus meshes', () => {
    expect(meshes.length).toBe(14);
  });

  it.each(meshes.map((f) => [basename(f), f]))('%s parses and writes back byte-identical', (_, f) => {
    const bytes = readBytes(f);
    const mesh = readMesh(bytes, basename(f));
    expect(mesh.version).toBe(2);
    // Every face index is a real vertex; every real vertex belongs to exactly one binding.
    const real = mesh.uvs.length / 2;
    expect(mesh.bindings.reduce((s, b) => s + b.realVertexCount, 0)).toBe(real);
    expect(mesh.vertexCount2).toBe(real);
    const out = writeMesh(mesh);
    expect(firstByteDiff(out, bytes)).toBe(-1);
  });

  it.each(meshes.map((f) => [basename(f), f]))(
    '%s imports to a valid glb and round-trips through a .glb on disk',
    async (_, f) => {
      const bytes = readBytes(f);
      const name = basename(f);
      const { document, warnings } = await legacyFormat.import(new Map([[name, bytes]]), { main: name });
      expect(warnings.map((w) => w.code)).toContain('SKELETON_MISSING');
      const mesh = readMesh(bytes);
      const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
      expect(prim.getAttribute('POSITION')!.getCount()).toBe(mesh.uvs.length / 2);
      expect(prim.getIndices()!.getCount()).toBe(mesh.indices.length);
      // Weight sums are 1 for every vertex.
      const w = prim.getAttribute('WEIGHTS_0')!.getArray()!;
      for (let v = 0; v < w.length; v += 4)
        expect(Math.abs(w[v] + w[v + 1] + w[v + 2] + w[v + 3] - 1)).toBeLessThan(1e-6);
      const io = new NodeIO();
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const dir = mkdtempSync(join(tmpdir(), 'tso-'));
      const path = join(dir, 'm.glb');
      writeFileSync(path, glb);
      const back = await io.readBinary(new Uint8Array(readFileSync(path)));
      const { files } = await legacyFormat.export!(back, { name: 'm' });
      expect([...files.keys()]).toEqual(['m.mesh']);
      expect(firstByteDiff(files.get('m.mesh')!, bytes)).toBe(-1);
    },
  );

  it('sniffs every corpus mesh as tso and no Unigine file', () => {
    for (const f of meshes) expect(legacyFormat.sniff(readBytes(f), basename(f)), f).toBe(true);
    expect(unigine.length).toBeGreaterThan(20);
    for (const f of unigine) expect(legacyFormat.sniff(readBytes(f), basename(f)), f).toBe(false);
  });

  it('survives truncation, byte flips and huge counts with FormatError only', () => {
    const t0 = Date.now();
    for (const f of meshes.filter((_, i) => i % 3 === 0)) {
      const bytes = readBytes(f);
      const check = (b: Uint8Array) => {
        try {
          readMesh(b);
        } catch (e) {
          expect(e, String(e)).toBeInstanceOf(FormatError);
          expect((e as FormatError).code).toMatch(/^[A-Z_]+$/);
        }
      };
      const step = Math.max(1, Math.floor(bytes.length / 60));
      for (let cut = 0; cut < bytes.length; cut += step) check(bytes.subarray(0, cut));
      for (let at = 0; at < bytes.length; at += step) {
        const b = bytes.slice();
        b[at] ^= 0xff;
        check(b);
      }
      // Blow every count field of the file up to 0xFFFFFFFF (offsets from the parsed model).
      const m = readMesh(bytes);
      let at = 4;
      const counts = [at];
      at += 4 + m.boneNames.reduce((s2, n) => s2 + 1 + n.length, 0);
      counts.push(at); // faceCount
      at += 4 + m.indices.length * 4;
      counts.push(at); // bindingCount
      at += 4 + m.bindings.length * 20;
      counts.push(at); // realVertexCount
      at += 4 + m.uvs.length * 4;
      counts.push(at); // blendVertexCount
      at += 4 + m.blendData.length * 4;
      for (const c of counts) {
        const b = bytes.slice();
        b.fill(0xff, c, c + 4);
        expect(() => readMesh(b)).toThrow(FormatError);
      }
      // vertexCount2 is read and ignored (as FreeSO does): any value parses.
      const v2 = bytes.slice();
      v2.fill(0xff, at, at + 4);
      expect(readMesh(v2).vertexCount2).toBe(0xffffffff);
      // And each of the first 64 u32 slots.
      for (let at = 0; at + 4 <= Math.min(bytes.length, 256); at += 4) {
        const b = bytes.slice();
        b.fill(0xff, at, at + 4);
        check(b);
      }
    }
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});
