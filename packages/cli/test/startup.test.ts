// Issue 19: what the built command loads for one conversion. `dist/bin.js` is run as users run it,
// with a preload listing every module file; the bundle's source maps say which packages each
// loaded chunk holds. Needs `dist/` (CI builds before testing) and the corpus.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const HOOK = fileURLToPath(new URL('./module-list.mjs', import.meta.url));

/** The package an absolute source path belongs to: `@gltf-legacy/unreal3d`, `commander`, … */
function packageOf(source: string): string {
  const dep = /.*node_modules\/(@[^/]+\/[^/]+|[^/.][^/]*)\//.exec(source);
  if (dep) return dep[1];
  const own = /\/packages\/([^/]+)\//.exec(source);
  return own ? `@gltf-legacy/${own[1]}` : source;
}

/** Runs the CLI; the module files it loaded and the packages they hold (chunks: by source map). */
function loaded(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-startup-'));
  const list = join(dir, 'modules.txt');
  const p = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GLTF_LEGACY_MODULE_LIST: list },
  });
  expect(p.status, p.stderr).toBe(0);
  const files = readFileSync(list, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((f) => (f.startsWith('file:') ? fileURLToPath(f) : f));
  const packages = new Set<string>();
  for (const f of files) {
    if (existsSync(`${f}.map`) && f.includes('/packages/cli/dist/')) {
      const map = JSON.parse(readFileSync(`${f}.map`, 'utf8')) as { sources: string[] };
      for (const s of map.sources) packages.add(packageOf(s.includes(':') ? s : resolve(dirname(f), s)));
    } else packages.add(packageOf(f));
  }
  return { files, packages, dir };
}

describe.skipIf(!existsSync(BIN) || !hasCorpus('unreal3d'))('start-up of the built command', () => {
  it('convert Skull_d.3d loads the Unreal package and what it needs, nothing of the other formats, the validator, the viewer, sharp or commander', () => {
    const input = join(corpusRoot(), 'unreal3d', 'Skull_d.3d');
    const out = join(mkdtempSync(join(tmpdir(), 'gltf-legacy-startup-')), 'Skull.glb');
    const { files, packages } = loaded(['convert', input, '-o', out, '--static', '-q']);
    expect(existsSync(out)).toBe(true);
    expect(packages).toContain('@gltf-legacy/unreal3d');
    for (const never of [
      '@gltf-legacy/urho3d',
      '@gltf-legacy/grimrock',
      '@gltf-legacy/tso',
      '@gltf-legacy/unigine',
      '@gltf-legacy/viewer',
      'three',
      'gltf-validator',
      'sharp',
      'commander',
      'meshoptimizer',
      'draco3dgltf',
      'tinyglobby',
      // the export stage is loaded on first use (tsup.config.ts)
      '@gltf-legacy/prepare',
      '@gltf-transform/functions',
    ])
      expect(packages, never).not.toContain(never);
    // the bundle: a handful of chunk files instead of ~120 module files (issue 19)
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(20);
  });

  it('a batch (--out-dir, commander) of Unreal files still loads no other format', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-startup-'));
    const inputs = ['Skull_d.3d', 'Key_d.3d'].map((n) => join(corpusRoot(), 'unreal3d', n));
    const { packages } = loaded(['convert', ...inputs, '--out-dir', dir, '-j', '0', '--static', '-q']);
    expect(existsSync(join(dir, 'Key.glb'))).toBe(true);
    expect(packages).toContain('commander');
    for (const never of [
      '@gltf-legacy/urho3d',
      '@gltf-legacy/tso',
      'gltf-validator',
      '@gltf-legacy/viewer',
      'sharp',
    ])
      expect(packages, never).not.toContain(never);
  });

  it('exports through the lazily loaded export stage: Grimrock animations (resampleReason) and the other formats', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-startup-'));
    const model = join(corpusRoot(), 'grimrock', 'skeleton_warrior_axe.model');
    const glb = join(dir, 'axe.glb');
    expect(loaded(['convert', model, '-o', glb, '-q']).packages).not.toContain('@gltf-legacy/prepare');
    const back = loaded(['convert', glb, '--to', 'grimrock', '-o', join(dir, 'g', 'axe.model'), '-q']);
    expect(back.packages).toContain('@gltf-legacy/prepare');
    expect(readdirSync(join(dir, 'g')).filter((f) => f.endsWith('.animation')).length).toBe(5);
    for (const [id, name] of [
      ['urho3d', 'axe.mdl'],
      ['tso', 'axe.mesh'],
      ['unigine', 'axe.mesh'],
      ['unreal3d', 'axe_d.3d'],
    ]) {
      loaded(['convert', glb, '--to', id, '-o', join(dir, id, name), '-q']);
      expect(existsSync(join(dir, id, name)), id).toBe(true);
    }
  });
});
