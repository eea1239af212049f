import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { KeptBytesExtension } from '@gltf-legacy/core';
import {
  corpusFiles,
  expectClose,
  firstByteDiff,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat, MSFTLod, readMdl } from '../src/index.js';

const mdls = corpusFiles('urho', ['.mdl']);
const anis = corpusFiles('urho', ['.ani']);
const dir = mkdtempSync(join(tmpdir(), 'urho3d-rt-'));
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod, KeptBytesExtension]);

describe('corpus models: import → .glb (0 validator errors, bounds as stored) → disk → export is byte-identical', () => {
  for (const f of mdls) {
    it(basename(f), async () => {
      const main = basename(f);
      const siblings = [...mdls, ...anis].map((x) => basename(x));
      const files = new Map<string, Uint8Array>([[main, readBytes(f)]]);
      for (const c of legacyFormat.companions!(main, siblings)) files.set(c, readBytes(join(f, '..', c)));
      const { document, warnings } = await legacyFormat.import(files, { main });
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      // Bounds: union of the POSITION accessors equals the stored bounding box, mirrored (z → −z).
      const m = readMdl(files.get(main)!);
      const min = [Infinity, Infinity, Infinity];
      const max = [-Infinity, -Infinity, -Infinity];
      for (const mesh of document.getRoot().listMeshes())
        for (const p of mesh.listPrimitives()) {
          const a = p.getAttribute('POSITION')!;
          const arr = a.getArray()!;
          for (let i = 0; i < arr.length; i += 3)
            for (let c = 0; c < 3; c++) {
              min[c] = Math.min(min[c], arr[i + c]);
              max[c] = Math.max(max[c], arr[i + c]);
            }
        }
      // glTF space mirrors X (the model's +Z forward stays +Z): x → −x, so min x ↔ −max x.
      const want = [-m.bounds[3], m.bounds[1], m.bounds[2], -m.bounds[0], m.bounds[4], m.bounds[5]];
      const got = [...min, ...max];
      if (basename(f) === 'Basis.mdl') {
        // Basis.mdl stores a box 1.5 units larger on every side than its line vertices: check it encloses them.
        for (let c = 0; c < 3; c++) {
          expect(got[c]).toBeGreaterThanOrEqual(want[c]);
          expect(got[c + 3]).toBeLessThanOrEqual(want[c + 3]);
        }
      } else {
        expectClose(got, want, 1e-5, `${basename(f)} bounds`);
      }
      // Sanitized values are reported, never silent.
      for (const w of warnings) expect(w.code).toMatch(/^(NORMAL|TANGENT)_SANITIZED$/);
      const path = join(dir, `${main}.glb`);
      writeFileSync(path, glb);
      const back = await io.readBinary(new Uint8Array(readFileSync(path)));
      const out = await legacyFormat.export!(back, { name: main.replace(/\.mdl$/, '') });
      expect([...out.files.keys()].sort()).toEqual([...files.keys()].sort());
      for (const [name, bytes] of files) {
        const got = out.files.get(name)!;
        expect(
          firstByteDiff(got, bytes),
          `${name}: first differing byte (of ${bytes.length}, got ${got.length})`,
        ).toBe(-1);
      }
    });
  }
});
