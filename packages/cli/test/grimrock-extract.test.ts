/**
 * `gltf-legacy extract` of Grimrock `.dat` archives (issue 27) through core's container entries:
 * each entry under its recovered path, the rest as unnamed/<hash>.<kind>, bytes equal to the
 * archive's, nothing outside the output folder.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readGrimrockArchive, unnamedPath } from '@gltf-legacy/grimrock';
import { beforeEach, describe, expect, it } from 'vitest';
import { extractArchive } from '../src/index.js';

const REPO = resolve(import.meta.dirname, '../../..');
const corpus = resolve(REPO, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const LNR = join(corpus, 'archives/grimrock/LNR');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-dat-extract-'));
});

function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) =>
      join(d.parentPath, d.name)
        .slice(root.length + 1)
        .replace(/\\/g, '/'),
    )
    .sort();
}

describe.skipIf(!existsSync(LNR))('extract of the real .dat archives', () => {
  for (const file of ['Fetch Quest.dat', 'IO Dungeon 1.dat', 'LNR Script Framework Alpha Test.dat']) {
    it(`${file}: every entry under its recovered path or unnamed/<hash>.<kind>, byte-equal`, async () => {
      const path = join(LNR, file);
      const out = join(dir, 'out');
      const report = await extractArchive(path, { outDir: out });
      expect(report.format).toBe('grimrock');
      const archive = readGrimrockArchive(new Uint8Array(readFileSync(path)), file);
      const expected = archive.entries.map((e) => e.path ?? unnamedPath(e)).sort();
      expect(tree(out)).toEqual(expected);
      for (const e of archive.entries) {
        const got = readFileSync(join(out, e.path ?? unnamedPath(e)));
        expect(Buffer.compare(got, Buffer.from(e.data!)), e.path).toBe(0);
      }
      expect(report.entries.every((e) => !e.error)).toBe(true);
    }, 60_000);
  }
});

it('extract of test-assets crate_mod.dat gives the loose mod files back', async () => {
  const crate = join(REPO, 'test-assets/grimrock/crate_mod');
  const out = join(dir, 'crate');
  await extractArchive(join(crate, 'crate_mod.dat'), { outDir: out });
  for (const p of [
    'scripts/materials.lua',
    'models/crate.model',
    'textures/crate_dif.dds',
    'textures/crate_spec.dds',
  ])
    expect(
      readFileSync(join(out, 'mod_assets', p)).equals(readFileSync(join(crate, 'mod_assets', p))),
      p,
    ).toBe(true);
  expect(tree(out)).toContain('unnamed/f5d9c5df.modinfo');
});
