import { join } from 'node:path';
import * as quantize from '@gltf-legacy/quantize';
import { firstByteDiff, readBytes, TEST_ASSETS, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { KeptBytesExtension } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { makeAssets } from '../scripts/make-test-assets.mjs';
import * as lib from '../src/index.js';

const generated: Map<string, Uint8Array> = makeAssets({ ...lib, ...quantize });
const dir = join(TEST_ASSETS, 'unreal3d');
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);

describe('test-assets/unreal3d', () => {
  for (const [name, bytes] of generated) {
    it(`${name} is what scripts/make-test-assets.mjs writes`, () => {
      expect(firstByteDiff(readBytes(join(dir, name)), bytes)).toBe(-1);
    });
  }
  for (const base of ['cube', 'blade']) {
    it(`${base}_d.3d imports (0 validator errors) and exports back byte-identical`, async () => {
      const files = new Map([...generated].filter(([k]) => k.startsWith(base)));
      const { document } = await lib.importUnrealFiles(files, { main: `${base}_d.3d` });
      const report = await validateGlb(await io.writeBinary(document));
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const root = document.getRoot();
      if (base === 'cube') {
        expect(root.listAnimations().map((a) => a.getName())).toEqual(['Still', 'Pulse']);
        // Materials in order of first use: the caps (skin 1, two-sided) come first in the file.
        expect(root.listMaterials().map((m) => m.getName())).toEqual(['CubeCaps', 'CubeSides']);
        expect(root.listMaterials().map((m) => m.getDoubleSided())).toEqual([true, false]);
      } else {
        expect(root.listNodes().some((n) => n.getName() === 'WeaponTriangle')).toBe(true);
        const [blade, guard] = root.listMaterials();
        expect(blade.getAlphaMode()).toBe('MASK');
        expect(guard.getAlphaMode()).toBe('BLEND');
        expect(guard.getExtension('KHR_materials_unlit')).not.toBeNull();
      }
      const back = await io.readBinary(await io.writeBinary(document));
      const out = await lib.exportUnreal(back, { name: base });
      for (const [k, v] of files) expect(firstByteDiff(out.files.get(k) as Uint8Array, v), k).toBe(-1);
    });
  }
});
