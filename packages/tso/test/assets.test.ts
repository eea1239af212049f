import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_ASSETS, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat, writeAnimation, writeMesh, writeSkeleton } from '../src/index.js';
import { handCube, twoBoneAnimation, twoBoneMesh, twoBoneSkeleton } from './fixtures.js';

const DIR = join(TEST_ASSETS, 'tso');

/** The sample files, made by our writer from test/fixtures.ts (deterministic). */
export const ASSETS: Record<string, () => Uint8Array> = {
  'twobone.mesh': () => writeMesh(twoBoneMesh()),
  'twobone.skel': () => writeSkeleton(twoBoneSkeleton()),
  'twobone-wave.anim': () => writeAnimation(twoBoneAnimation()),
  'hand-cube.mesh': () => writeMesh(handCube()),
};

describe('test-assets/tso', () => {
  // Run with UPDATE_TEST_ASSETS=1 to (re)write the files; otherwise they must match.
  it.each(Object.keys(ASSETS))('%s matches the fixture bytes', (name) => {
    const bytes = ASSETS[name]();
    const path = join(DIR, name);
    if (process.env.UPDATE_TEST_ASSETS || !existsSync(path)) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(path, bytes);
    }
    expect(Buffer.compare(readFileSync(path), bytes)).toBe(0);
  });

  it('each main file converts with its companions to a valid glb', async () => {
    const names = Object.keys(ASSETS);
    for (const main of names) {
      const bytes = readFileSync(join(DIR, main));
      expect(legacyFormat.sniff(bytes, main)).toBe(true);
      const set = new Map([[main, new Uint8Array(bytes)]]);
      for (const c of legacyFormat.companions!(main, names))
        if (!main.endsWith('.anim')) set.set(c, new Uint8Array(readFileSync(join(DIR, c))));
      const { document } = await legacyFormat.import(set, { main });
      const report = await validateGlb(await new NodeIO().writeBinary(document));
      expect(report.issues.numErrors, `${main}: ${validatorErrors(report)}`).toBe(0);
    }
  });
});
