// Issue 28: Unreal packages (.u) as container inputs — one .glb per mesh (out/PACKAGE/MESH.glb),
// --mesh picks one, a game's System/ folder converts every mesh of every package, a package
// without meshes is a one-line answer, a SkeletalMesh is named and skipped; inspect lists exports.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BatchReport } from '../src/index.js';
import { runCli } from './run-cli.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const ut = join(corpus, 'archives/unreal/Ut99Mods-v1.2.0');

const run = runCli;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-upkg-'));
});

describe.runIf(existsSync(ut))('Unreal packages on the command line', () => {
  it('convert Foo.u --out-dir writes out/Foo/MESH.glb with 0 validator errors; --mesh picks one', async () => {
    const r = await run(['convert', join(ut, 'System/HeadHunter.u'), '--out-dir', dir]);
    expect(r.code, r.err).toBe(0);
    const glb = join(dir, 'HeadHunter/Skull.glb');
    const v = await validateGlb(new Uint8Array(readFileSync(glb)));
    expect(v.issues.numErrors, validatorErrors(v)).toBe(0);
    const one = await run([
      'convert',
      join(ut, 'System/KillConfirmed.u'),
      '--mesh',
      'DOGTAG',
      '--out-dir',
      dir,
    ]);
    expect(one.code, one.err).toBe(0);
    expect(existsSync(join(dir, 'KillConfirmed/dogTag.glb'))).toBe(true);
    const none = await run([
      'convert',
      join(ut, 'System/KillConfirmed.u'),
      '--mesh',
      'Skull',
      '--out-dir',
      dir,
    ]);
    expect(none.code).not.toBe(0);
    expect(none.err).toMatch(/ENTRY_NOT_FOUND.*has no model named Skull \(it has: dogTag\)/);
  });

  it('a whole release folder converts every mesh of every package, with one-line answers for the rest', async () => {
    const report = join(dir, 'report.json');
    const r = await run(['convert', ut, '--out-dir', join(dir, 'all'), '--report', report, '-q']);
    expect(r.code, r.err).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8')) as BatchReport;
    expect(rep.records).toHaveLength(11); // 10 .u + the map
    const outputs = rep.records
      .flatMap((x) => x.outputs)
      .map((o) => o.replace(/\\/g, '/').replace(/^.*\/all\//, ''));
    expect(outputs.sort()).toEqual(['System/HeadHunter/Skull.glb', 'System/KillConfirmed/dogTag.glb']);
    for (const rec of rep.records) expect(rec.status, rec.input).toBe('ok');
    const c4 = rep.records.find((x) => x.input.endsWith('C4.u'))!;
    expect(c4.warnings.map((w) => w.code).sort()).toEqual([
      'CONTAINER_EMPTY',
      'MESH_SKIPPED',
      'MESH_SKIPPED',
    ]);
    expect(c4.warnings.find((w) => w.code === 'MESH_SKIPPED')!.message).toMatch(
      /SkeletalMesh C4 was skipped/,
    );
    const map = rep.records.find((x) => x.input.endsWith('.unr'))!;
    expect(map.warnings.map((w) => w.message)).toEqual([
      '1HH-TestBox-Large.unr holds no mesh to convert (1 Level)',
    ]);
  });

  it('inspect Foo.u lists exports by class, the mesh with its counts, textures and imports', async () => {
    const r = await run(['inspect', join(ut, 'System/HeadHunter.u')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/LodMesh\s+1/);
    expect(r.out).toMatch(/Skull\s+LodMesh\s+708\s+30\s+236/);
    expect(r.out).toMatch(/Skins\.SKIN_Skull\s+P8\s+128×128/);
    expect(r.out).toMatch(/Botpack/);
  });
});
