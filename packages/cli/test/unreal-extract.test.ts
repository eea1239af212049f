// Issue 28: `gltf-legacy extract Foo.utx --out-dir DIR` writes a package's textures as PNG named
// by object (Group/Name.png), through the generic container extract (LegacyFormat.entries).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeTexture } from '@gltf-legacy/textures';
import { describe, expect, it } from 'vitest';
import { buildTexturePackage, dxt1Texture, p8Texture } from '../../unreal3d/test/utx-builder.js';
import { runCli } from './run-cli.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const ut = join(corpus, 'archives/unreal/Ut99Mods-v1.2.0');

describe('extract of an Unreal package', () => {
  it('a .utx: one PNG per texture under its group, pixels of mip 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-uextract-'));
    const utx = join(dir, 'MySkins.utx');
    writeFileSync(utx, buildTexturePackage([p8Texture('Red', true), dxt1Texture('Blue')]));
    const out = join(dir, 'out');
    const r = await runCli(['extract', utx, '--out-dir', out]);
    expect(r.code, r.err).toBe(0);
    const red = decodeTexture(new Uint8Array(readFileSync(join(out, 'Skins/Red.png'))), 'Red.png');
    expect([red.width, red.height, ...red.data.subarray(0, 8)]).toEqual([
      8, 8, 10, 20, 30, 0, 255, 0, 0, 255,
    ]);
    const blue = decodeTexture(new Uint8Array(readFileSync(join(out, 'Other/Blue.png'))), 'Blue.png');
    expect([...blue.data.subarray(16, 20)]).toEqual([0, 0, 255, 255]); // row 1 is colour 1
    const list = await runCli(['extract', utx, '--list']);
    expect(list.out).toMatch(/Skins\/Red\.png/);
  });

  it.runIf(existsSync(ut))('HeadHunter.u: Skins/SKIN_Skull.png, 128×128', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gltf-legacy-uextract-'));
    const r = await runCli(['extract', join(ut, 'System/HeadHunter.u'), '--out-dir', out]);
    expect(r.code, r.err).toBe(0);
    const skull = decodeTexture(new Uint8Array(readFileSync(join(out, 'Skins/SKIN_Skull.png'))), 'x.png');
    expect([skull.width, skull.height]).toEqual([128, 128]);
  });
});
