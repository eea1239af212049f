/**
 * The package reader on every corpus package (archives/SOURCES.md): header, tables, classes as
 * SOURCES.md counts them, meshes, textures with palettes, ScriptText, and `inspect`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { decodeTextureMip, legacyFormat, packageMeshes, readPackage, unpackPackage } from '../src/index.js';
import { UT99_DIR } from './package-helpers.js';

// SOURCES.md: classes, vertex meshes, skeletal meshes, textures (each with a palette)
const expected: Record<string, { Class: number; LodMesh?: number; SkeletalMesh?: number; Texture?: number }> =
  {
    'HeadHunter.u': { Class: 17, LodMesh: 1, Texture: 2 },
    'KillConfirmed.u': { Class: 9, LodMesh: 1, Texture: 6 },
    'C4.u': { Class: 9, SkeletalMesh: 2, Texture: 27 },
    'Gibber.u': { Class: 19, Texture: 2 },
    'Infection.u': { Class: 18, Texture: 3 },
    'ItemSpawnerWeapon.u': { Class: 5, Texture: 2 },
    'Juggernaut.u': { Class: 11 },
    'EnergySword.u': { Class: 1 },
    'GuidedEnergyLance.u': { Class: 3 },
    'DeveloperMutator.u': { Class: 1 },
  };

describe.runIf(hasCorpus('archives/unreal'))('UE1 package reader on the UT99 corpus', () => {
  it('reads every package of the release folder with the classes SOURCES.md lists', () => {
    const dir = join(UT99_DIR(), 'System');
    const files = readdirSync(dir).sort();
    expect(files).toEqual(Object.keys(expected).sort());
    for (const f of files) {
      const pkg = readPackage(readBytes(join(dir, f)), f);
      expect(pkg.header.version).toBe(69);
      const count = (c: string) => pkg.exportsOf(c).length;
      const e = expected[f];
      expect(count('Class'), f).toBe(e.Class);
      expect(count('LodMesh'), f).toBe(e.LodMesh ?? 0);
      expect(count('SkeletalMesh'), f).toBe(e.SkeletalMesh ?? 0);
      expect(count('Texture'), f).toBe(e.Texture ?? 0);
      expect(count('Palette'), f).toBe(e.Texture ?? 0);
      // every texture is P8 with a palette of 256 colours and a mip 0 of its size
      for (const i of pkg.exportsOf('Texture')) {
        const t = pkg.readTexture(i);
        expect(t.format).toBe(0);
        const pal = pkg.readPalette(t.palette - 1);
        expect(pal.length).toBe(1024);
        const rgba = decodeTextureMip(t, pal, t.masked)!;
        expect(rgba.width * rgba.height).toBe(t.mips[0].data.length);
      }
      // every object path resolves (no cycle, no dangling outer)
      for (let k = 0; k < pkg.imports.length; k++) expect(pkg.refPath(-k - 1)).toMatch(/\w/);
    }
  });

  it('reads the map as a package with no mesh', () => {
    const pkg = readPackage(
      readBytes(join(UT99_DIR(), 'Maps/1HH-TestBox-Large.unr')),
      '1HH-TestBox-Large.unr',
    );
    expect(pkg.exportsOf('Level')).toHaveLength(1);
    expect(packageMeshes(pkg)).toEqual([]);
    expect(unpackPackage(pkg).size).toBe(0);
  });

  it('reads Skull and dogTag with their counts, scale and skin slot', () => {
    const hh = readPackage(readBytes(join(UT99_DIR(), 'System/HeadHunter.u')), 'HeadHunter.u');
    const skull = hh.readMesh(hh.findExport('Skull', 'LodMesh'));
    expect([skull.frameVerts, skull.animFrames, skull.triPolyFlags.length, skull.sequences.length]).toEqual([
      708, 30, 236, 0,
    ]);
    expect(skull.scale.map((v) => Math.fround(v))).toEqual([0.04, 0.04, 0.08].map(Math.fround));
    expect(skull.textures.map((t) => hh.refPath(t))).toEqual(['None', 'Skins.SKIN_Skull']);
    const kc = readPackage(readBytes(join(UT99_DIR(), 'System/KillConfirmed.u')), 'KillConfirmed.u');
    const tag = kc.readMesh(kc.findExport('dogTag', 'LodMesh'));
    expect([tag.frameVerts, tag.animFrames, tag.triPolyFlags.length]).toEqual([123, 30, 250]);
    expect(kc.refName(tag.textures[1])).toBe('DogTags');
    // the class source UCC compiled the mesh from is in the package
    const text = kc.readTextBuffer(
      kc.exports.findIndex((e) => e.name === 'ScriptText' && kc.refName(e.outer) === 'DogTagItemVisuals'),
    );
    expect(text).toMatch(/#exec MESH IMPORT MESH=DogTag/);
  });

  it('inspect lists exports by class, meshes with counts, textures, imports', () => {
    const bytes = readBytes(join(UT99_DIR(), 'System/HeadHunter.u'));
    const sections = legacyFormat.inspect!(new Map([['HeadHunter.u', bytes]]));
    const byTitle = new Map(sections.map((s) => [s.title, s]));
    expect(byTitle.get('HeadHunter.u (Unreal package)')!.facts!.version).toBe(69);
    expect(byTitle.get('meshes')!.rows).toEqual([
      ['Skull', 'LodMesh', 708, 30, 236, 0, '(none)', '1:SKIN_Skull'],
    ]);
    expect(byTitle.get('textures')!.rows!.map((r) => r.slice(0, 3))).toEqual([
      ['Skins.SKIN_Skull', 'P8', '128×128'],
      ['Icons.I_SkullIcon', 'P8', '64×64'],
    ]);
    expect(byTitle.get('imports')!.rows!.length).toBe(404);
    const c4 = legacyFormat.inspect!(new Map([['C4.u', readBytes(join(UT99_DIR(), 'System/C4.u'))]]));
    expect(c4.find((s) => s.title === 'meshes')!.rows!.map((r) => [r[0], r[1], r[6]])).toEqual([
      ['C4', 'SkeletalMesh', 'skipped: skeletal meshes are not converted'],
      ['C4Pickup', 'SkeletalMesh', 'skipped: skeletal meshes are not converted'],
    ]);
  });
});
