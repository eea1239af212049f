import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { firstByteDiff, readBytes, TEST_ASSETS, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.js';
// @ts-expect-error plain .mjs generator without types
import { makeTestAssets } from '../scripts/make-test-assets.mjs';

const dir = join(TEST_ASSETS, 'urho3d');

describe('golden test assets', () => {
  it('the generator reproduces every file in test-assets/urho3d byte for byte', async () => {
    const made: Map<string, Uint8Array> = await makeTestAssets(lib);
    // files only: quirks/ holds the hand-made quirk files (test/quirks.test.ts checks them)
    const onDisk = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.md'))
      .map((e) => e.name);
    expect(onDisk.sort()).toEqual([...made.keys()].sort());
    for (const [name, bytes] of made) expect(firstByteDiff(readBytes(join(dir, name)), bytes), name).toBe(-1);
  });

  it('each model converts (with its companions) to a valid glTF with the expected content', async () => {
    const names = readdirSync(dir);
    const expected: Record<
      string,
      { skinned: boolean; lods: number; morphs: number; animations: number; mode: number }
    > = {
      'worm.mdl': { skinned: true, lods: 1, morphs: 0, animations: 1, mode: 4 },
      'pyramid_lod_morph.mdl': { skinned: false, lods: 2, morphs: 1, animations: 0, mode: 4 },
      'axes_lines.mdl': { skinned: false, lods: 1, morphs: 0, animations: 0, mode: 1 },
    };
    for (const [main, want] of Object.entries(expected)) {
      const files = new Map([[main, readBytes(join(dir, main))]]);
      for (const c of lib.legacyFormat.companions!(main, names)) files.set(c, readBytes(join(dir, c)));
      const { document } = await lib.legacyFormat.import(files, { main });
      const report = await validateGlb(
        await new NodeIO().registerExtensions(lib.legacyFormat.gltfExtensions).writeBinary(document),
      );
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const root = document.getRoot();
      expect(root.listSkins().length > 0, main).toBe(want.skinned);
      expect(root.listMeshes().length, main).toBe(want.lods);
      expect(root.listMeshes()[0].listPrimitives()[0].listTargets().length).toBe(want.morphs);
      expect(root.listMeshes()[0].listPrimitives()[0].getMode()).toBe(want.mode);
      expect(root.listAnimations().length).toBe(want.animations);
    }
  });

  it('the package lists and unpacks its three entries', () => {
    const files = lib.legacyFormat.unpack!(readBytes(join(dir, 'worm_package.pak')), 'worm_package.pak');
    expect([...files.keys()]).toEqual(['Models/worm.mdl', 'Models/worm_Wiggle.ani', 'Models/axes_lines.mdl']);
    expect(firstByteDiff(files.get('Models/worm.mdl')!, readBytes(join(dir, 'worm.mdl')))).toBe(-1);
  });
});
