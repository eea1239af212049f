/**
 * Skins of package meshes: the mesh's own slots (textures of the package written as PCX with the
 * palette as stored), and the `Skin` / `MultiSkins` defaults of the classes whose `Mesh` default is
 * the mesh (found at the end of the class export, see `class-defaults.ts`), carried into the
 * `.uc` the importer reads like any class file.
 */
import { join } from 'node:path';
import { decodePcx } from '@gltf-legacy/textures';
import { hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  classDefaults,
  decodeTextureMip,
  legacyFormat,
  meshClassSkins,
  parseUc,
  readPackage,
  skinCandidates,
  ucDefaultSkins,
  unpackPackage,
} from '../src/index.js';
import { buildPackage } from './package-builder.js';
import { UT99_DIR } from './package-helpers.js';

describe('class defaults', () => {
  // names: 0 None, 1 Core, 2 Package, 3 Engine, 4 Class, 5 LodMesh, 6 Texture, 7 Mesh, 8 Skin,
  // 9 MultiSkins, 10 dogTag, 11 Visuals, 12 Red, 13 Blue, 14 Botpack
  const names = [
    'None',
    'Core',
    'Package',
    'Engine',
    'Class',
    'LodMesh',
    'Texture',
    'Mesh',
    'Skin',
    'MultiSkins',
    'dogTag',
    'Visuals',
    'Red',
    'Blue',
    'Botpack',
  ];
  const bytecode = [0x07, 0x05, 0x09, 0x85, 0x02, 0x33, 0x44, 0x07]; // stray Mesh/MultiSkins-like bytes
  const defaults = [7, 0x05, 1, 8, 0x05, 0x80 | 5, 9, 0x85, 2, 0x80 | 6, 0];
  const pkg = () =>
    readPackage(
      buildPackage({
        names,
        imports: [
          { classPackage: 1, className: 2, outer: 0, name: 3 }, // -1 Engine
          { classPackage: 1, className: 4, outer: -1, name: 5 }, // -2 Engine.LodMesh
          { classPackage: 1, className: 4, outer: -1, name: 6 }, // -3 Engine.Texture
          { classPackage: 1, className: 2, outer: 0, name: 14 }, // -4 Botpack
          { classPackage: 3, className: 6, outer: -4, name: 12 }, // -5 Botpack.Red
          { classPackage: 3, className: 6, outer: -4, name: 13 }, // -6 Botpack.Blue
        ],
        exports: [
          { classRef: -2, name: 10, data: Uint8Array.from([0]) },
          { classRef: 0, name: 11, data: Uint8Array.from([...bytecode, ...defaults]) },
        ],
      }),
      't.u',
    );

  it('finds the defaults after the bytecode: the chain that ends with None at the end of the export', () => {
    const p = pkg();
    const props = classDefaults(p, 1)!;
    expect(props.items.map((x) => [x.name, x.arrayIndex, x.value])).toEqual([
      ['Mesh', 0, 1],
      ['Skin', 0, -5],
      ['MultiSkins', 2, -6],
    ]);
    const s = meshClassSkins(p, 0);
    expect(s.classes).toEqual(['Visuals']);
    expect(p.refPath(s.skin!)).toBe('Botpack.Red');
    expect([...s.multiSkins].map(([n, r]) => [n, p.refPath(r)])).toEqual([[2, 'Botpack.Blue']]);
  });

  it('UT99 corpus: the classes that use Skull and dogTag, found by their Mesh default', () => {
    if (!hasCorpus('archives/unreal')) return;
    const hh = readPackage(readBytes(join(UT99_DIR(), 'System/HeadHunter.u')), 'HeadHunter.u');
    expect(meshClassSkins(hh, hh.findExport('Skull', 'LodMesh')).classes.sort()).toEqual([
      'SkullItem',
      'SkullItemProj',
    ]);
    const kc = readPackage(readBytes(join(UT99_DIR(), 'System/KillConfirmed.u')), 'KillConfirmed.u');
    const tags = meshClassSkins(kc, kc.findExport('dogTag', 'LodMesh'));
    expect(tags.classes).toEqual(['DogTagItemVisuals']);
    // these classes set no Skin/MultiSkins default (they swap MultiSkins[1] in code)
    expect([tags.skin, tags.multiSkins.size]).toEqual([undefined, 0]);
    expect(classDefaults(kc, kc.findExport('DogTagItemVisuals', 'Class'))!.number('AmbientGlow', 0)).toBe(
      255,
    );
  });
});

describe.runIf(hasCorpus('archives/unreal'))('package skins', () => {
  it('the mesh slot texture is the P8 mip 0 with its palette, masked index 0 transparent in the glTF', async () => {
    const bytes = readBytes(join(UT99_DIR(), 'System/HeadHunter.u'));
    const pkg = readPackage(bytes, 'HeadHunter.u');
    const entries = unpackPackage(pkg);
    const pcx = decodePcx(entries.get('Textures/SKIN_Skull.pcx')!);
    const tex = pkg.readTexture(pkg.findExport('SKIN_Skull', 'Texture'));
    const pal = pkg.readPalette(tex.palette - 1);
    const rgba = decodeTextureMip(tex, pal, false)!;
    expect([pcx.width, pcx.height]).toEqual([128, 128]);
    expect(Buffer.compare(Buffer.from(pcx.data), Buffer.from(rgba.data))).toBe(0);
    // the .uc imports it masked into slot 1, as SkullItem's #exec did (FLAGS=2)
    const uc = new TextDecoder().decode(entries.get('Skull.uc')!);
    expect(uc).toMatch(
      /#exec TEXTURE IMPORT NAME=SKIN_Skull FILE=Textures\\SKIN_Skull\.pcx GROUP=Skins FLAGS=2/,
    );
    expect(uc).toMatch(/#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=SKIN_Skull/);
    const { document } = await legacyFormat.import(new Map([['HeadHunter.u', bytes]]));
    const mat = document.getRoot().listMaterials()[0];
    expect(mat.getAlphaMode()).toBe('MASK');
    const img = mat.getBaseColorTexture()!.getImage()!;
    expect(img.length).toBeGreaterThan(1000);
    // pixels of palette index 0 are transparent, the others opaque
    const { decodeTexture } = await import('@gltf-legacy/textures');
    const png = decodeTexture(img, 'x.png');
    const mip = tex.mips[0].data;
    for (let i = 0; i < mip.length; i += 97)
      expect(png.data[4 * i + 3], `pixel ${i}`).toBe(mip[i] === 0 ? 0 : 255);
  });

  it('Skin / MultiSkins defaults become the .uc defaultproperties the skin search reads', () => {
    const text =
      "defaultproperties\r\n{\r\n    DrawType=DT_Mesh\r\n    Mesh=dogTag\r\n    Skin=Texture'Red'\r\n    MultiSkins(2)=Texture'Blue'\r\n}";
    const d = ucDefaultSkins(text);
    expect(d.skin?.name).toBe('Red');
    expect(d.multiSkins.get(2)?.name).toBe('Blue');
    const c = skinCandidates([{ parsed: parseUc(text), meshName: 'dogTag' }], 2);
    expect(c.map((x) => x.name)).toEqual(['Blue', 'Red']);
  });
});
