import { basename, dirname, join } from 'node:path';
import { documentStats } from '@gltf-legacy/core';
import { corpusFiles, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { fileSetFor } from './helpers.js';
import { parseUc, ucMesh, ucMeshForFile } from '../src/uc.js';
import { readdirSync, readFileSync } from 'node:fs';

const dataFiles = corpusFiles('unreal3d', ['_d.3d']);

function expectedSequences(path: string): number | undefined {
  const dir = dirname(path);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.uc'))) {
    const uc = parseUc(readFileSync(join(dir, f), 'utf8'));
    const m = ucMeshForFile(uc, basename(path));
    if (m) return ucMesh(uc, m).sequences.length;
  }
  return undefined;
}

describe('corpus import', () => {
  for (const path of dataFiles) {
    it(`${basename(path)} imports, validates with 0 errors, one animation per sequence`, async () => {
      const files = fileSetFor(path);
      expect(legacyFormat.sniff(files.get(basename(path)) as Uint8Array, basename(path))).toBe(true);
      const { document, warnings } = await legacyFormat.import(files, { main: basename(path) });
      const glb = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const stats = documentStats(document);
      const bytes = readBytes(path);
      const numPolys = bytes[0] | (bytes[1] << 8);
      expect(stats.triangles).toBe(numPolys);
      const seqs = expectedSequences(path);
      if (seqs === undefined) {
        expect(stats.animations).toBe(1);
        expect(warnings.some((w) => w.code === 'UC_MISSING')).toBe(true);
      } else expect(stats.animations).toBe(Math.max(1, seqs)); // no MESH SEQUENCE → one "All"
    });
  }
});
