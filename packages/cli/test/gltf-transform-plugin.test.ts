import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMATS } from '../src/index.js';

const run = promisify(execFile);
const pkg = resolve(import.meta.dirname, '..');
const bin = join(pkg, 'node_modules', '.bin', 'gltf-transform');
/** The built config module: CI builds before testing (turbo `test` depends on `build`). */
const config = join(pkg, 'dist', 'gltf-transform.config.js');
const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-gt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Skull (Unreal) round-trips byte-exact through glTF; any registered format will do for the plugin.
const SAMPLES: [string, string, string, string[]][] = [
  ['unreal3d', 'unreal3d', 'Skull_d.3d', ['Skull_d.3d', 'Skull_a.3d', 'Skull.uc']],
  ['urho3d', 'urho', 'Box.mdl', ['Box.mdl']],
  ['grimrock', 'grimrock', 'stone_dagger.model', ['stone_dagger.model']],
];
const sample = SAMPLES.find(([id]) => FORMATS.some((f) => f.id === id));

describe('gltf-transform plugin (the real gltf-transform binary with --config)', () => {
  it('the config module is built (run `pnpm build` first)', () => {
    expect(existsSync(config), `${config} is missing: build the package first`).toBe(true);
  });

  it('lists legacy-import and legacy-export in its help', async () => {
    const { stdout } = await run(bin, ['--config', config, '--help'], { cwd: dir });
    expect(stdout).toMatch(/legacy-import\s+Convert a legacy game model to glTF/);
    expect(stdout).toMatch(/legacy-export\s+Convert glTF to a legacy game format/);
  });

  it.skipIf(!sample)(
    `legacy-import → .glb (valid) → legacy-export (${sample?.[0] ?? 'no format registered yet'})`,
    async () => {
      const [id, folder, file, expected] = sample!;
      const input = corpusFiles(folder, [file]).find((p) => p.endsWith(`/${file}`))!;
      expect(input).toBeDefined();
      const imp = await run(bin, ['legacy-import', input, join(dir, 'model.glb'), '--config', config], {
        cwd: dir,
      });
      expect(imp.stderr + imp.stdout).toContain(`${id}: ${file}`);
      const glb = new Uint8Array(readFileSync(join(dir, 'model.glb')));
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const out = join(dir, 'out', file);
      await run(bin, ['legacy-export', join(dir, 'model.glb'), out, '--format', id, '--config', config], {
        cwd: dir,
      });
      for (const name of expected) expect(existsSync(join(dir, 'out', name)), name).toBe(true);
      if (id === 'unreal3d') {
        // Unreal vertex meshes survive the trip through gltf-transform's NodeIO byte for byte
        for (const name of expected)
          expect(
            readFileSync(join(dir, 'out', name)).equals(readFileSync(join(dirname(input), name))),
            name,
          ).toBe(true);
      }
    },
  );

  it('a broken input fails with a non-zero exit and our error code', async () => {
    const bad = join(dir, 'bad.bin');
    await import('node:fs/promises').then((fs) => fs.writeFile(bad, 'not a model'));
    const failure = await run(bin, ['legacy-import', bad, join(dir, 'bad.glb'), '--config', config], {
      cwd: dir,
    }).then(
      () => undefined,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failure?.code).toBe(1);
    expect(`${failure?.stdout}${failure?.stderr}`).toContain('bad.bin: not a format gltf-legacy reads');
    expect(existsSync(join(dir, 'bad.glb'))).toBe(false);
  });
});
