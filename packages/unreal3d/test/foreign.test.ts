import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { documentStats, ExportError } from '@gltf-legacy/core';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { anivFrame, readAniv } from '../src/aniv.js';
import { readData } from '../src/data.js';
import { exportUnreal } from '../src/export.js';
import { importUnrealFiles } from '../src/index.js';
import { parseUc, ucMesh } from '../src/uc.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const gltfFiles = corpusFiles('gltf', ['.glb', '.gltf']);
/** Files that need decoders this repository does not install. */
const NEEDS_COMPRESSION = /"(KHR_draco_mesh_compression|EXT_meshopt_compression)"/;

/** Triangles of every mesh instance of the default scene (instanced meshes count per use). */
function sceneTriangles(doc: Document): number {
  let n = 0;
  const root = doc.getRoot();
  (root.getDefaultScene() ?? root.listScenes()[0])?.traverse((node) => {
    for (const p of node.getMesh()?.listPrimitives() ?? []) {
      const c = p.getIndices()?.getCount() ?? p.getAttribute('POSITION')?.getCount() ?? 0;
      const mode = p.getMode();
      if (mode === 4) n += Math.floor(c / 3);
      else if (mode === 5 || mode === 6) n += Math.max(0, c - 2);
    }
  });
  return n;
}

describe('export of foreign glTF', () => {
  it('finds the glTF corpus', () => expect(gltfFiles.length).toBeGreaterThan(20));
  for (const path of gltfFiles) {
    const name = basename(path);
    it(`${name} exports and re-imports`, async () => {
      if (NEEDS_COMPRESSION.test(readFileSync(path, 'latin1'))) {
        // draco3dgltf / meshoptimizer are not installed, so NodeIO cannot decode these files
        // (it throws while installing the missing decoder); nothing reaches our exporter.
        await expect(io.read(path)).rejects.toThrow();
        return;
      }
      const doc = await io.read(path);
      // geometry and animation only: skins of foreign files (JPEG decode + PCX quantization of up
      // to 2048² images, ~15 s for CesiumMilkTruck under load) are tested in textured.test.ts
      for (const t of doc.getRoot().listTextures()) t.dispose();
      let result: Awaited<ReturnType<typeof exportUnreal>>;
      try {
        // 2 fps keeps the re-imported morph-target documents small enough to validate quickly.
        result = await exportUnreal(doc, { name: 'm', fps: 2 });
      } catch (e) {
        expect(e).toBeInstanceOf(ExportError);
        expect(['TOO_MANY_VERTICES', 'NO_GEOMETRY', 'TOO_MANY_TRIANGLES']).toContain((e as ExportError).code);
        return;
      }
      const { files, warnings } = result;
      expect(warnings.some((w) => w.code === 'VALUE_QUANTIZED')).toBe(true);
      const data = readData(files.get('m_d.3d') as Uint8Array);
      const aniv = readAniv(files.get('m_a.3d') as Uint8Array, 'm_a.3d', {
        numVertices: data.header.numVertices,
      });
      const uc = ucMesh(parseUc(new TextDecoder().decode(files.get('m.uc'))), 'm');
      // Source triangle count is preserved (strips/fans as lists; points/lines dropped with a warning).
      if (!warnings.some((w) => w.code === 'PRIMITIVE_DROPPED'))
        expect(data.header.numPolys).toBe(sceneTriangles(doc));
      const animated = doc
        .getRoot()
        .listAnimations()
        .filter((a) => a.listChannels().length).length;
      expect(uc.sequences.length).toBe(Math.max(1, animated));
      expect(aniv.numFrames).toBe(uc.sequences.reduce((n, s) => n + s.numFrames, 0));
      // Everything fits the packed range.
      const f0 = anivFrame(aniv, 0);
      for (let i = 0; i < f0.length; i += 3) {
        expect(Math.abs(f0[i])).toBeLessThanOrEqual(1024);
        expect(Math.abs(f0[i + 2])).toBeLessThanOrEqual(512);
      }
      const back = await importUnrealFiles(files, { main: 'm_d.3d', normals: false });
      const stats = documentStats(back.document);
      expect(stats.triangles).toBe(data.header.numPolys);
      expect(stats.animations).toBe(uc.sequences.length);
      const glb = await io.writeBinary(back.document);
      // The validator needs ~1 s per 5 MB; the big morph-target re-imports (robot, MorphStressTest…)
      // are only size-checked here — corpus imports and Fox are validated in full.
      if (glb.length < 800_000) {
        const report = await validateGlb(glb);
        expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      }
    });
  }
});
