/**
 * Skins keep their own file on the way back (issue 28): a skin that a class file other than the
 * mesh's `.uc` sets (`Skin=`, `MultiSkins(n)=`, with its own `TEXTURE IMPORT`) comes back as that
 * file — its own name and bytes — also when the model is renamed (`-o other.glb`, then
 * `--to unreal3d`), and the written `.uc` imports it for its slot, so the folder re-imports with
 * the same pixels. The same for a texture read from another package (mip 0 as its PCX).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryResources } from '@gltf-legacy/core';
import { decodeTexture, encodePcxIndexed } from '@gltf-legacy/textures';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { exportUnreal, importUnrealFiles, legacyFormat, parseUc, ucTextureImports } from '../src/index.js';
import { buildMeshPackage, buildTexturePackage, p8Texture } from './utx-builder.js';

const assets = join(import.meta.dirname, '../../../test-assets/unreal3d');
const read = (n: string) => new Uint8Array(readFileSync(join(assets, n)));

/** An 8×8 one-colour PCX (index 1 of a palette whose entry 1 is `rgb`). */
function pcx(rgb: [number, number, number]): Uint8Array {
  const pal = new Uint8Array(768);
  pal.set(rgb, 3);
  return encodePcxIndexed(8, 8, new Uint8Array(64).fill(1), pal);
}

/** A class setting the cube's skins; `meshImport`: it also imports the mesh (else it only uses it). */
const redCube = (meshImport: boolean) =>
  [
    'class RedCube extends Actor;',
    '',
    ...(meshImport
      ? ['#exec MESH IMPORT MESH=cube ANIVFILE=MODELS\\cube_a.3d DATAFILE=MODELS\\cube_d.3d X=0 Y=0 Z=0']
      : []),
    '#exec TEXTURE IMPORT NAME=RedSkin FILE=Textures\\Red_Skin.pcx GROUP=Skins',
    '#exec TEXTURE IMPORT NAME=BlueCaps FILE=Textures\\blue_caps.pcx GROUP=Skins',
    '',
    'defaultproperties',
    '{',
    "    Mesh=LodMesh'cube'",
    "    Skin=Texture'RedSkin'",
    "    MultiSkins(1)=Texture'BlueCaps'",
    '}',
    '',
  ].join('\r\n');

function modFolder(meshImport: boolean) {
  return new Map<string, Uint8Array>([
    ['Models/cube_d.3d', read('cube_d.3d')],
    ['Models/cube_a.3d', read('cube_a.3d')],
    ['Models/cube.uc', read('cube.uc')], // the mesh's own .uc (the primary one)
    ['Classes/RedCube.uc', new TextEncoder().encode(redCube(meshImport))],
    ['Textures/cube_sides.pcx', pcx([0, 200, 0])],
    ['Textures/cube_caps.pcx', pcx([200, 200, 0])],
    ['Textures/Red_Skin.pcx', pcx([220, 10, 10])],
    ['Textures/blue_caps.pcx', pcx([10, 10, 220])],
  ]);
}

/** First pixel of the base colour image of each slot's material, by slot. */
function slotColours(doc: import('@gltf-transform/core').Document): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  for (const m of doc.getRoot().listMaterials()) {
    const num = (m.getExtras() as { unreal3d?: { textureNum?: number } }).unreal3d?.textureNum;
    const img = m.getBaseColorTexture()?.getImage();
    if (num !== undefined && img) out[num] = [...decodeTexture(img, 'x.png').data.subarray(0, 3)];
  }
  return out;
}

/** Import → .glb bytes → NodeIO (what `-o x.glb` then `--to unreal3d` reads). */
async function throughGlb(doc: import('@gltf-transform/core').Document) {
  const io = new NodeIO().registerExtensions(legacyFormat.gltfExtensions ?? []);
  return io.readBinary(await io.writeBinary(doc));
}

describe('skins set by a class file come back as their own files', () => {
  it.each([
    ['a class that imports the mesh too', true],
    ['a class that only uses it (defaultproperties Mesh=)', false],
  ])(
    'Skin= and MultiSkins(1)= of Classes/RedCube.uc, %s: Red_Skin.pcx and blue_caps.pcx, as named and byte for byte, also renamed',
    async (_, meshImport) => {
      const folder = modFolder(meshImport);
      const { document } = await importUnrealFiles(
        new Map([
          ['cube_d.3d', folder.get('Models/cube_d.3d')!],
          ['cube_a.3d', folder.get('Models/cube_a.3d')!],
        ]),
        {
          main: 'cube_d.3d',
          resources: new MemoryResources(folder, 'mod'),
          resourcePath: 'Models/cube_d.3d',
        },
      );
      expect(slotColours(document)).toEqual({ 0: [220, 10, 10], 1: [10, 10, 220] });
      const doc = await throughGlb(document);
      for (const name of ['cube', 'other']) {
        const { files } = await exportUnreal(doc, { name });
        expect(
          Buffer.compare(files.get('Textures/Red_Skin.pcx')!, folder.get('Textures/Red_Skin.pcx')!),
          name,
        ).toBe(0);
        expect(
          Buffer.compare(files.get('Textures/blue_caps.pcx')!, folder.get('Textures/blue_caps.pcx')!),
          name,
        ).toBe(0);
        // nothing else: the mesh .uc's own skins are not what the slots show
        expect([...files.keys()].filter((k) => k.startsWith('Textures/')).sort(), name).toEqual([
          'Textures/Red_Skin.pcx',
          'Textures/blue_caps.pcx',
        ]);
        // the written folder converts again with the same skins
        const again = await importUnrealFiles(
          new Map([...files].filter(([k]) => !k.startsWith('Textures/'))),
          {
            main: `${name}_d.3d`,
            resources: new MemoryResources(files, 'out'),
            resourcePath: `${name}_d.3d`,
          },
        );
        expect(slotColours(again.document), name).toEqual({ 0: [220, 10, 10], 1: [10, 10, 220] });
      }
      // renamed: a fresh .uc that imports the class's skins under their own names
      const other = new TextDecoder().decode(
        (await exportUnreal(doc, { name: 'other' })).files.get('other.uc')!,
      );
      const imports = ucTextureImports(parseUc(other));
      expect(imports.get('redskin')?.file).toBe('Textures\\Red_Skin.pcx');
      expect(imports.get('bluecaps')?.file).toBe('Textures\\blue_caps.pcx');
    },
  );

  it('a texture of another package comes back as its PCX under its own name, renamed too', async () => {
    const tetra = buildMeshPackage('Tetra', [{ pkg: 'MySkins', group: 'Skins', name: 'Red' }]);
    const utx = buildTexturePackage([p8Texture('Red', false)]);
    const game = new MemoryResources(
      new Map([
        ['System/Tetra.u', tetra],
        ['Textures/MySkins.utx', utx],
      ]),
      'game',
    );
    const { document } = await legacyFormat.import(new Map([['Tetra.u', tetra]]), {
      resources: game,
      resourcePath: 'System/Tetra.u',
    });
    const doc = await throughGlb(document);
    const want = legacyFormat.entries!(utx, 'MySkins.utx')![0].read();
    for (const name of ['Tetra', 'other']) {
      const { files } = await exportUnreal(doc, { name });
      expect(
        [...files.keys()].filter((k) => k.startsWith('Textures/')),
        name,
      ).toEqual(['Textures/Red.pcx']);
      const back = decodeTexture(files.get('Textures/Red.pcx')!, 'Red.pcx');
      expect(
        Buffer.compare(Buffer.from(back.data), Buffer.from(decodeTexture(want, 'x.png').data)),
        name,
      ).toBe(0);
      const uc = new TextDecoder().decode(files.get(`${name}.uc`)!);
      expect(ucTextureImports(parseUc(uc)).get('red')?.file, name).toBe('Textures\\Red.pcx');
    }
  });
});
