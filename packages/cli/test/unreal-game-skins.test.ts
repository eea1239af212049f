// Issue 28: skins from other packages on the command line — a package in a game's System/ reads
// the textures its imports name from the packages of that game folder (System/, Textures/, any
// case, nothing outside it), listed through the batch's folder index; a missing one is a
// TEXTURE_MISSING warning naming the paths tried. Packages are written by the unreal3d test
// builders into a temporary game folder.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeTexture } from '@gltf-legacy/textures';
import { validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import type { BatchReport } from '../src/index.js';
import { buildMeshPackage, buildTexturePackage } from '../../unreal3d/test/utx-builder.js';
import { runCli } from './run-cli.js';

function p8(name: string) {
  const palette = new Uint8Array(1024);
  palette.set([0, 0, 0, 255, 200, 100, 50, 255]);
  const data = new Uint8Array(16).fill(1);
  return { name, group: 'Skins', format: 'P8' as const, width: 4, height: 4, data, palette };
}

describe('Unreal packages: textures of other packages in the game folder', () => {
  it('System/Foo.u reads textures/Skins.UTX (any case); a package outside the game folder is not read', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'gltf-legacy-ugame-'));
    const game = join(tmp, 'UT');
    mkdirSync(join(game, 'System'), { recursive: true });
    mkdirSync(join(game, 'textures'), { recursive: true });
    mkdirSync(join(tmp, 'Textures'), { recursive: true });
    writeFileSync(
      join(game, 'System/Tetra.u'),
      buildMeshPackage('Tetra', [{ pkg: 'MySkins', group: 'Skins', name: 'Orange' }]),
    );
    writeFileSync(join(game, 'textures/myskins.UTX'), buildTexturePackage([p8('Orange')]));
    writeFileSync(
      join(game, 'System/Needs.u'),
      buildMeshPackage('Needy', [{ pkg: 'Botpack', group: 'Skins', name: 'Orange' }]),
    );
    // a Botpack above the game folder: outside the resource root, never read
    writeFileSync(join(tmp, 'Textures/Botpack.utx'), buildTexturePackage([p8('Orange')]));

    const out = join(tmp, 'out');
    const r = await runCli(['convert', join(game, 'System/Tetra.u'), '--out-dir', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toMatch(/TEXTURE_MISSING/);
    const bytes = new Uint8Array(readFileSync(join(out, 'Tetra/Tetra.glb')));
    const v = await validateGlb(bytes);
    expect(v.issues.numErrors, validatorErrors(v)).toBe(0);
    const doc = await new NodeIO().readBinary(bytes);
    const tex = doc.getRoot().listMaterials()[0].getBaseColorTexture()!;
    const rgba = decodeTexture(tex.getImage()!, 'x.png');
    expect([rgba.width, rgba.height, ...rgba.data.subarray(0, 4)]).toEqual([4, 4, 200, 100, 50, 255]);

    // the whole game folder as a batch: Needs.u warns with the paths tried under UT, still converts
    const report = join(tmp, 'report.json');
    const b = await runCli(['convert', game, '--out-dir', join(tmp, 'all'), '--report', report, '-q']);
    expect(b.code, b.err).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8')) as BatchReport;
    const needs = rep.records.find((x) => x.input.endsWith('Needs.u'))!;
    expect(needs.status).toBe('ok');
    const missing = needs.warnings.filter((w) => w.code === 'TEXTURE_MISSING');
    expect(missing).toHaveLength(1);
    expect(missing[0].message).toContain(
      'Botpack.Skins.Orange (package Botpack) not found (tried System/Botpack.u, System/Botpack.utx, Textures/Botpack.utx, Textures/Botpack.u in ',
    );
    expect(missing[0].message).toContain(game);
    const tetra = rep.records.find((x) => x.input.endsWith('Tetra.u'))!;
    expect(tetra.warnings.map((w) => w.code)).not.toContain('TEXTURE_MISSING');

    // renamed (-o other.glb), then --to unreal3d: the skin comes back as its own file, Orange.pcx
    const other = join(tmp, 'other.glb');
    const o = await runCli(['convert', join(game, 'System/Tetra.u'), '--mesh', 'Tetra', '-o', other]);
    expect(o.code, o.err).toBe(0);
    const back = await runCli(['convert', other, '--to', 'unreal3d', '--out-dir', join(tmp, 'back')]);
    expect(back.code, back.err).toBe(0);
    const pcx = decodeTexture(
      new Uint8Array(readFileSync(join(tmp, 'back/Textures/Orange.pcx'))),
      'Orange.pcx',
    );
    expect([...pcx.data.subarray(0, 4)]).toEqual([200, 100, 50, 255]);
    expect(readFileSync(join(tmp, 'back/other.uc'), 'latin1')).toMatch(
      /#exec TEXTURE IMPORT NAME=Orange FILE=Textures\\Orange\.pcx/,
    );
  });
});
