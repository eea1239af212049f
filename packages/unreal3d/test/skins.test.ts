import { MemoryResources, WarningCollector } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import {
  findClassFiles,
  nearestPow2,
  objectName,
  parseUc,
  skinCandidates,
  toPow2,
  ucDefaultSkins,
  ucTextureImports,
} from '../src/index.js';

const uc = (lines: string[]) => parseUc(lines.join('\r\n'));

describe('.uc skin lines', () => {
  it('objectName strips class, package and group, refuses None', () => {
    expect(objectName("Texture'LGDUtilities.Skins.Keycard'")).toBe('Keycard');
    expect(objectName("'Skin1'")).toBe('Skin1');
    expect(objectName('"Skin2"')).toBe('Skin2');
    expect(objectName('Skin3')).toBe('Skin3');
    expect(objectName('None')).toBeUndefined();
    expect(objectName("Texture'../../x'")).toBeUndefined();
  });

  it('TEXTURE IMPORT: first import of a name wins, FLAGS=2 / MASKED=1 are masked', () => {
    const imports = ucTextureImports(
      uc([
        '#exec TEXTURE IMPORT NAME=Jtex1 FILE=m_rifl.bmp GROUP=Skins FLAGS=2',
        '#exec TEXTURE IMPORT NAME=Jtex1 FILE=texture1.pcx GROUP=Skins PALETTE=Jtex1',
        '#exec texture import name=Leaf file=Textures\\Leaf.pcx masked=1',
        '#exec TEXTURE IMPORT NAME=Plain FILE=Textures\\Plain.pcx FLAGS=1',
      ]),
    );
    expect(imports.get('jtex1')).toMatchObject({ file: 'm_rifl.bmp', masked: true, line: 0 });
    expect(imports.get('leaf')?.masked).toBe(true);
    expect(imports.get('plain')?.masked).toBe(false);
  });

  it('defaultproperties: Skin, MultiSkins(n) and [n], meshes, comments', () => {
    const dp = ucDefaultSkins(
      [
        "function X() { Skin=Texture'NotThis'; }",
        'defaultproperties',
        '{',
        "    Skin=Texture'Pkg.Skins.Body'",
        "    MultiSkins(1)=Texture'Pkg.Skins.Arm' // right arm",
        '    MultiSkins[2]=Leg',
        "    // MultiSkins(3)=Texture'Commented'",
        "    /* MultiSkins(4)=Texture'Block' */",
        "    PlayerViewMesh=LodMesh'Pkg.Gun'",
        '    Mesh=Gun3P',
        '}',
        "MultiSkins(5)=Texture'After'",
      ].join('\n'),
    );
    expect(dp.skin?.name).toBe('Body');
    expect([...dp.multiSkins].map(([n, v]) => [n, v.name])).toEqual([
      [1, 'Arm'],
      [2, 'Leg'],
    ]);
    expect([...dp.meshes].sort()).toEqual(['gun', 'gun3p']);
  });

  it('slot order: MultiSkins[n], then Skin before SETTEXTURE on slot 0 and after it elsewhere', () => {
    const parsed = uc([
      '#exec MESH IMPORT MESH=Gun ANIVFILE=Models\\Gun_a.3d DATAFILE=Models\\Gun_d.3d',
      '#exec MESHMAP SETTEXTURE MESHMAP=Gun NUM=0 TEXTURE=Set0',
      '#exec MESHMAP SETTEXTURE MESHMAP=Gun NUM=1 TEXTURE=Set1',
      '#exec MESHMAP SETTEXTURE MESHMAP=Other NUM=1 TEXTURE=NotMine',
      'defaultproperties',
      '{',
      "  Skin=Texture'SkinAll'",
      "  MultiSkins(1)=Texture'Multi1'",
      '  Mesh=Gun',
      '}',
    ]);
    const names = (slot: number) => skinCandidates([{ parsed, meshName: 'Gun' }], slot).map((c) => c.name);
    expect(names(0)).toEqual(['SkinAll', 'Set0']);
    expect(names(1)).toEqual(['Multi1', 'Set1', 'SkinAll']);
    expect(names(2)).toEqual(['SkinAll']);
    // A class that draws another mesh does not skin this one.
    expect(
      skinCandidates(
        [{ parsed, meshName: 'Gun' }].map((s) => ({ ...s, meshName: 'Other' })),
        1,
      ).map((c) => c.name),
    ).toEqual(['NotMine']);
  });

  it('hostile text: a 1 MiB line of spaces or newlines is read in linear time (no backtracking blow-up)', () => {
    for (const filler of [' ', '\n', '\t(', 'x\n', ' \n']) {
      const text = `defaultproperties\n{\nSkin${filler.repeat(1 << 19)}=x\n${filler.repeat(1 << 19)}\n}`;
      const t0 = performance.now();
      ucDefaultSkins(text);
      expect(performance.now() - t0).toBeLessThan(3000); // quadratic would take minutes
    }
  });
});

describe('finding the class files', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const imp = (mesh: string, file: string) =>
    enc(`#exec MESH IMPORT MESH=${mesh} ANIVFILE=Models\\${file}_a.3d DATAFILE=Models\\${file}_d.3d\r\n`);

  it('Classes/ beside Models/ (any case), only the .uc files that import the data file', async () => {
    const res = new MemoryResources([
      ['Pkg/classes/Weapon.uc', imp('Gun', 'Gun')],
      ['Pkg/classes/Other.uc', imp('Box', 'Box')],
      ['Pkg/classes/Plain.uc', enc('class Plain extends Actor;')],
      ['Pkg/classes/readme.txt', imp('Gun', 'Gun')],
      ['Elsewhere/Classes/Gun.uc', imp('Gun', 'Gun')],
    ]);
    const w = new WarningCollector();
    const found = await findClassFiles(res, 'Pkg/Models/Gun_d.3d', 'Gun_d.3d', w);
    expect(found.map((f) => [f.path, f.meshName])).toEqual([['Pkg/classes/Weapon.uc', 'Gun']]);
    expect(w.list()).toEqual([]);
  });

  it('the search is bounded: UC_SEARCH_LIMITED beyond maxFiles or maxFileBytes', async () => {
    const files: [string, Uint8Array][] = [];
    for (let i = 0; i < 20; i++) files.push([`Classes/C${String(i).padStart(2, '0')}.uc`, imp('Gun', 'Gun')]);
    files.push(['Classes/Big.uc', new Uint8Array(5000)]);
    const w = new WarningCollector();
    const found = await findClassFiles(new MemoryResources(files), 'Models/Gun_d.3d', 'Gun_d.3d', w, {
      maxFiles: 8,
      maxFileBytes: 4096,
    });
    expect(found.length).toBe(7); // Big.uc (first in order) is skipped for its size
    expect(w.list().map((x) => x.code)).toEqual(['UC_SEARCH_LIMITED']);
  });
});

describe('power-of-two skins', () => {
  it('nearestPow2 rounds each side to the nearest power of two, capped', () => {
    expect([1, 2, 3, 5, 6, 600, 767, 768, 800, 1024, 5000].map(nearestPow2)).toEqual([
      1, 2, 4, 4, 8, 512, 512, 1024, 1024, 1024, 2048,
    ]);
  });

  it('toPow2 keeps power-of-two images and resamples others bilinearly', () => {
    const same = { width: 4, height: 2, data: new Uint8Array(32) };
    expect(toPow2(same)).toBe(same);
    // A 3×1 ramp 0, 90, 180 → 4×1 samples at source x = -0.125, 0.625, 1.375, 2.125 (clamped).
    const ramp = {
      width: 3,
      height: 1,
      data: new Uint8Array([0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]),
    };
    const r = toPow2(ramp);
    expect([r.width, r.height]).toEqual([4, 1]);
    expect([r.data[0], r.data[4], r.data[8], r.data[12]]).toEqual([0, 56, 124, 180]);
    expect(r.data[3]).toBe(255);
  });
});
