/**
 * Skins from other packages (issue 28): a mesh slot or a class `Skin` default naming
 * `Pkg.Group.Name` is read from that package in the game folder (`System/`, `Textures/`, `.u` or
 * `.utx`), mip 0 as the glTF image; a package that is not there is `TEXTURE_MISSING` naming it and
 * every path tried. Test packages are written by `utx-builder.ts` (no corpus bytes copied).
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { MemoryResources } from '@gltf-legacy/core';
import { decodeTexture } from '@gltf-legacy/textures';
import { hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  GameTextureLookup,
  legacyFormat,
  packageGameDir,
  packageSearchPaths,
  readPackage,
} from '../src/index.js';
import { UT99_DIR } from './package-helpers.js';
import {
  buildMeshPackage,
  buildTexturePackage,
  dxt1Texture,
  p8Texture,
  rgba8Texture,
} from './utx-builder.js';

/** The RGBA pixels of the base colour texture of the material on skin slot `slot`. */
async function slotPixels(doc: import('@gltf-transform/core').Document, slot: number) {
  const m = doc
    .getRoot()
    .listMaterials()
    .find((x) => (x.getExtras() as { unreal3d?: { textureNum?: number } }).unreal3d?.textureNum === slot)!;
  const tex = m.getBaseColorTexture();
  return { material: m, rgba: tex ? decodeTexture(tex.getImage()!, 'x.png') : undefined };
}

const SKINS = () => buildTexturePackage([p8Texture('Red', true), rgba8Texture('Green'), dxt1Texture('Blue')]);

describe('textures of other packages', () => {
  it('P8 (masked, index 0 transparent), RGBA8 from Textures/PKG.utx; DXT1 through a class Skin', async () => {
    const tetra = buildMeshPackage('Tetra', [
      { pkg: 'MySkins', group: 'Skins', name: 'Red' },
      { pkg: 'MySkins', group: 'Skins', name: 'Green' },
    ]);
    const game = new MemoryResources(
      new Map([
        ['System/Tetra.u', tetra],
        ['textures/myskins.UTX', SKINS()], // any case, as the game ran on Windows
      ]),
      'game',
    );
    const { document, warnings } = await legacyFormat.import(new Map([['Tetra.u', tetra]]), {
      resources: game,
      resourcePath: 'System/Tetra.u',
    });
    expect(warnings.map((w) => w.code)).not.toContain('TEXTURE_MISSING');
    const red = await slotPixels(document, 0);
    expect(red.material.getAlphaMode()).toBe('MASK');
    const colours = [
      [10, 20, 30, 0],
      [255, 0, 0, 255],
      [0, 255, 0, 255],
      [0, 0, 255, 255],
    ];
    expect([red.rgba!.width, red.rgba!.height]).toEqual([8, 8]);
    for (let i = 0; i < 64; i++)
      expect([...red.rgba!.data.subarray(4 * i, 4 * i + 4)], `pixel ${i}`).toEqual(
        colours[((i % 8) + (i >> 3)) % 4],
      );
    const skin = (red.material.getExtras() as { unreal3d: { skin: Record<string, unknown> } }).unreal3d.skin;
    expect(skin).toMatchObject({ object: 'MySkins.Skins.Red', path: 'textures/myskins.UTX' });
    const green = await slotPixels(document, 1);
    for (let i = 0; i < 16; i++)
      expect([...green.rgba!.data.subarray(4 * i, 4 * i + 4)], `pixel ${i}`).toEqual([
        i * 16,
        255 - i * 16,
        7,
        200,
      ]);

    // slot 0 with no SETTEXTURE: the class's Skin default, a DXT1 texture of System/OtherSkins.u
    const withSkin = buildMeshPackage(
      'Tetra',
      [undefined, { pkg: 'MySkins', group: 'Skins', name: 'Green' }],
      {
        pkg: 'OtherSkins',
        group: 'Other',
        name: 'Blue',
      },
    );
    const game2 = new MemoryResources(
      new Map([
        ['System/Tetra.u', withSkin],
        ['System/OtherSkins.u', SKINS()],
        ['Textures/MySkins.utx', SKINS()],
      ]),
      'game',
    );
    const r2 = await legacyFormat.import(new Map([['Tetra.u', withSkin]]), {
      resources: game2,
      resourcePath: 'System/Tetra.u',
    });
    expect(r2.warnings.map((w) => w.code)).not.toContain('TEXTURE_MISSING');
    const blue = await slotPixels(r2.document, 0);
    for (let i = 0; i < 16; i++)
      expect([...blue.rgba!.data.subarray(4 * i, 4 * i + 4)], `pixel ${i}`).toEqual(
        i >> 2 === 1 ? [0, 0, 255, 255] : [255, 0, 0, 255],
      );
    expect(
      (blue.material.getExtras() as { unreal3d: { skin: { source: string } } }).unreal3d.skin.source,
    ).toBe('skin');
  });

  it('a package that is not in the game folder: TEXTURE_MISSING naming it and every path tried', async () => {
    const tetra = buildMeshPackage('Tetra', [{ pkg: 'Botpack', group: 'Skins', name: 'JSkull' }]);
    const game = new MemoryResources(new Map([['System/Tetra.u', tetra]]), 'game');
    const { document, warnings } = await legacyFormat.import(new Map([['Tetra.u', tetra]]), {
      resources: game,
      resourcePath: 'System/Tetra.u',
    });
    const missing = warnings.filter((w) => w.code === 'TEXTURE_MISSING');
    expect(missing).toHaveLength(1);
    expect(missing[0].message).toContain('Botpack.Skins.JSkull (package Botpack)');
    expect(missing[0].message).toContain(
      'tried System/Botpack.u, System/Botpack.utx, Textures/Botpack.utx, Textures/Botpack.u in game',
    );
    expect((await slotPixels(document, 0)).rgba).toBeUndefined();
    // the package is there but lacks the texture, or is not a package: still a warning, named
    for (const [bytes, says] of [
      [SKINS(), 'holds no texture JSkull'],
      [Uint8Array.from([1, 2, 3]), 'cannot be read'],
    ] as const) {
      const g = new MemoryResources(
        new Map([
          ['System/Tetra.u', tetra],
          ['Textures/Botpack.utx', bytes],
        ]),
        'game',
      );
      const r = await legacyFormat.import(new Map([['Tetra.u', tetra]]), {
        resources: g,
        resourcePath: 'System/Tetra.u',
      });
      expect(r.warnings.find((w) => w.code === 'TEXTURE_MISSING')?.message).toContain(says);
    }
  });

  it('search paths and the game folder of a package', () => {
    expect(packageSearchPaths('Botpack', 'System/HeadHunter.u')).toEqual([
      'System/Botpack.u',
      'System/Botpack.utx',
      'Textures/Botpack.utx',
      'Textures/Botpack.u',
    ]);
    expect(packageSearchPaths('X', 'mods/HeadHunter.u').slice(0, 2)).toEqual(['mods/X.u', 'mods/X.utx']);
    expect(packageGameDir('UT/System/HeadHunter.u')).toBe('UT');
    expect(packageGameDir('UT/system/HeadHunter.u')).toBe('UT');
    expect(packageGameDir('dl/HeadHunter.u')).toBe('dl');
    expect(legacyFormat.resourceRoot!('/g/UT/System/HeadHunter.u')).toBe('/g/UT');
  });

  it.runIf(hasCorpus('archives/unreal'))(
    'UT99 corpus: every Texture import (Botpack, UnrealShare; the map: Ancient, Crypt_FX, Engine) is missing from the mod folder, paths listed',
    async () => {
      const dir = UT99_DIR();
      const files = new Map<string, Uint8Array>();
      for (const sub of ['System', 'Maps'])
        for (const f of readdirSync(join(dir, sub))) files.set(`${sub}/${f}`, readBytes(join(dir, sub, f)));
      const game = new MemoryResources(files, 'Ut99Mods-v1.2.0');
      const seen = new Set<string>();
      for (const [path, bytes] of files) {
        const pkg = readPackage(bytes, path);
        const lookup = new GameTextureLookup(game, path);
        for (let k = 0; k < pkg.imports.length; k++) {
          if (pkg.imports[k].className !== 'Texture') continue;
          const ref = pkg.refPath(-k - 1);
          const owner = ref.split('.')[0];
          seen.add(owner);
          const answer = await lookup.find(ref);
          expect(answer.found, ref).toBeUndefined();
          expect(answer.tried, ref).toEqual(packageSearchPaths(owner, path));
        }
      }
      expect([...seen].sort()).toEqual(['Ancient', 'Botpack', 'Crypt_FX', 'Engine', 'UnrealShare']);
    },
  );
});
