import { join } from 'node:path';
import { KeptBytesExtension, MemoryResources, textureSourcePath } from '@gltf-legacy/core';
import {
  corpusRoot,
  folderResources,
  hasCorpus,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { decodeTexture, encodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { beforeAll, describe, expect, it } from 'vitest';
import { legacyFormat, MSFTLod, readMaterialXml } from '../src/index.js';

const BIN = join(corpusRoot(), 'textured/urho/Urho3D/bin');
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod, KeptBytesExtension]);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Every prefab and model of textured/urho with the materials and texture files it must get. */
const CASES: { main: string; materials: string[]; textures: string[]; nodes?: string[] }[] = [
  {
    main: 'Data/Objects/Ninja.xml',
    materials: ['Ninja'],
    textures: ['Textures/NinjaSnowWar/Ninja.dds'],
    nodes: ['Ninja', '', 'Ninja_mesh'],
  },
  { main: 'Data/Objects/Potion.xml', materials: ['Potion'], textures: [], nodes: ['Potion', 'Potion_mesh'] },
  {
    main: 'Data/Objects/SnowCrate.xml',
    materials: ['SnowCrate'],
    textures: ['Textures/NinjaSnowWar/SnowCrate.dds'],
  },
  {
    main: 'Data/Models/NinjaSnowWar/Ninja.mdl',
    materials: ['Ninja'],
    textures: ['Textures/NinjaSnowWar/Ninja.dds'],
  },
  { main: 'Data/Models/NinjaSnowWar/Potion.mdl', materials: ['Potion'], textures: [] },
  {
    main: 'Data/Models/NinjaSnowWar/SnowCrate.mdl',
    materials: ['SnowCrate'],
    textures: ['Textures/NinjaSnowWar/SnowCrate.dds'],
  },
  { main: 'Data/Models/Mushroom.mdl', materials: ['Mushroom'], textures: ['Textures/Mushroom.dds'] },
  {
    main: 'Data/Models/Kachujin/Kachujin.mdl',
    materials: ['Kachujin'],
    textures: [
      'Models/Kachujin/Textures/Kachujin_diffuse.png',
      'Models/Kachujin/Textures/Kachujin_normal.png',
      'Models/Kachujin/Textures/Kachujin_specular.png',
    ],
  },
];

let resources: MemoryResources;
beforeAll(() => {
  resources = folderResources(BIN);
});

async function importMain(
  main: string,
  res: MemoryResources = resources,
  extra: Record<string, unknown> = {},
) {
  const bytes = (await res.read(main))!;
  return legacyFormat.import(new Map([[main, bytes]]), {
    main,
    resources: res,
    resourcePath: main,
    ...extra,
  });
}

/** RGBA of every texture of a document by the resource name it came from. */
function textureRgba(doc: Document): Map<string, { width: number; height: number; data: Uint8Array }> {
  const out = new Map();
  for (const t of doc.getRoot().listTextures())
    out.set(textureSourcePath(t) ?? t.getName(), fromGltfImage(t.getImage()!, t.getMimeType()));
  return out;
}

describe.skipIf(!hasCorpus('textured/urho'))('textured/urho: every prefab and model', () => {
  for (const c of CASES) {
    it(`${c.main}: valid .glb, the game's textures pixel for pixel, byte-identical export, same materials again`, async () => {
      const { document, warnings } = await importMain(c.main);
      const codes = warnings.map((w) => w.code);
      expect(codes.filter((x) => /MISSING|UNREADABLE/.test(x))).toEqual([]);
      const root = document.getRoot();
      expect(root.listMaterials().map((m) => m.getName())).toEqual(c.materials);
      for (const m of root.listMaterials()) expect(m.getMetallicFactor()).toBe(0);
      for (const mesh of root.listMeshes())
        for (const p of mesh.listPrimitives()) expect(c.materials).toContain(p.getMaterial()?.getName());
      if (c.nodes) expect(root.getDefaultScene()!.listChildren()[0].getName()).toBe(c.nodes[0]);
      expect(root.listScenes().length).toBe(1);

      // textures decode to the same RGBA as the game's files
      const rgba = textureRgba(document);
      expect([...rgba.keys()].sort()).toEqual([...c.textures].sort());
      for (const [path, img] of rgba) {
        const game = decodeTexture((await resources.read(`Data/${path}`))!, path);
        expect([img.width, img.height]).toEqual([game.width, game.height]);
        expect(Buffer.from(img.data).equals(Buffer.from(game.data)), path).toBe(true);
      }

      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);

      // export from the .glb: every file the game has is written back byte for byte
      const back = await legacyFormat.export!(await io.readBinary(glb), {});
      const keys = [...back.files.keys()];
      for (const k of keys) expect(k.split('/')).not.toContain('..');
      let identical = 0;
      for (const [k, bytes] of back.files) {
        const game = await resources.read(`Data/${k}`);
        if (!game || (k.startsWith('Objects/') && !c.main.endsWith('.xml'))) continue; // a lone model's new prefab
        expect(Buffer.from(bytes).equals(Buffer.from(game)), k).toBe(true);
        identical++;
      }
      expect(identical).toBe(keys.length - (c.main.endsWith('.xml') ? 0 : 1)); // a lone model gains a prefab
      for (const t of c.textures) expect(keys).toContain(t);

      // the exported folder is read again with the same materials and textures
      const out = new MemoryResources(back.files, 'export');
      const prefabKey = keys.find((k) => k.startsWith('Objects/'))!;
      const again = await importMain(prefabKey, out);
      expect(again.warnings.filter((w) => /MISSING/.test(w.code))).toEqual([]);
      const mats = (d: Document) =>
        d
          .getRoot()
          .listMaterials()
          .map((m) => [m.getName(), m.getBaseColorFactor(), m.getRoughnessFactor(), m.getDoubleSided()]);
      expect(mats(again.document)).toEqual(mats(document));
      const rgba2 = textureRgba(again.document);
      for (const [path, img] of rgba)
        expect(Buffer.from(rgba2.get(path)!.data).equals(Buffer.from(img.data))).toBe(true);
      // a lone model is found again by its material lookup, from the exported .mdl alone
      if (!c.main.endsWith('.xml')) {
        const mdlKey = keys.find((k) => k.endsWith('.mdl'))!;
        const lone = await importMain(mdlKey, out);
        expect(mats(lone.document)).toEqual(mats(document));
      }
    }, 60_000);
  }

  it('Ninja prefab: node tree and transforms (Position 0 -0.95 0 on the model node), animation companion', async () => {
    const { document } = await importMain('Data/Objects/Ninja.xml');
    const top = document.getRoot().getDefaultScene()!.listChildren()[0];
    expect(top.getName()).toBe('Ninja');
    const child = top.listChildren()[0];
    expect(child.getTranslation()).toEqual([-0, -0.95, 0]); // X mirrored (forward +Z stays +Z)
    expect(child.listChildren()[0].getName()).toBe('Ninja'); // the model's top node
    expect(document.getRoot().listSkins().length).toBe(1);
    expect(
      document
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual(['Idle1']);
  });

  it('an edited prefab and material are rewritten only where they changed', async () => {
    const { document } = await importMain('Data/Objects/Ninja.xml');
    const top = document.getRoot().getDefaultScene()!.listChildren()[0];
    top.listChildren()[0].setTranslation([-1, 2, 3]); // Urho (1, 2, 3) with X mirrored
    const mat = document.getRoot().listMaterials()[0];
    mat.setBaseColorFactor([1, 0.5, 0.25, 1]).setDoubleSided(true);
    const { files } = await legacyFormat.export!(document, {});
    const prefab = dec(files.get('Objects/Ninja.xml')!);
    const orig = dec((await resources.read('Data/Objects/Ninja.xml'))!);
    expect(prefab).toContain('<attribute name="Position" value="1 2 3" />');
    expect(prefab.split('\n').length).toBe(orig.split('\n').length);
    const changed = prefab.split('\n').filter((l, i) => l !== orig.split('\n')[i]);
    expect(changed).toEqual(['\t\t<attribute name="Position" value="1 2 3" />\r']); // the file has CRLF
    const m = readMaterialXml(files.get('Materials/NinjaSnowWar/Ninja.xml')!);
    expect(m.fields.parameters).toEqual([
      { name: 'MatSpecColor', value: '0 0 0 1' },
      { name: 'MatDiffColor', value: '1 0.5 0.25 1' },
    ]);
    expect(m.fields.cull).toBe('none');
    expect(m.fields.techniques[0].name).toBe('Techniques/Diff.xml');
    // the texture is unchanged: its original DDS bytes
    expect(files.get('Textures/NinjaSnowWar/Ninja.dds')!.length).toBe(174904);
  });

  it('an edited texture is written as PNG, or DDS on request, and the material points to it', async () => {
    const { document } = await importMain('Data/Models/Mushroom.mdl');
    const tex = document.getRoot().listTextures()[0];
    const img = fromGltfImage(tex.getImage()!, 'image/png');
    for (let i = 0; i < img.data.length; i += 4) img.data[i] = 255 - img.data[i];
    tex.setImage(encodeTexture(img, 'png'));
    const png = await legacyFormat.export!(document, {});
    expect(png.files.has('Textures/Mushroom.png')).toBe(true);
    expect(readMaterialXml(png.files.get('Materials/Mushroom.xml')!).fields.textures).toEqual([
      { unit: 'diffuse', name: 'Textures/Mushroom.png' },
    ]);
    expect(
      Buffer.from(decodeTexture(png.files.get('Textures/Mushroom.png')!).data).equals(Buffer.from(img.data)),
    ).toBe(true);
    const dds = await legacyFormat.export!(document, { textureFormat: 'dds' });
    let ddsEncoder = true;
    try {
      encodeTexture({ width: 4, height: 4, data: new Uint8Array(64) }, 'dds');
    } catch {
      ddsEncoder = false; // @gltf-legacy/textures without a DDS encoder: PNG with a warning
    }
    if (!ddsEncoder) {
      expect(dds.warnings.map((w) => w.code)).toContain('TEXTURE_FORMAT_FALLBACK');
      expect(dds.files.has('Textures/Mushroom.png')).toBe(true);
      return;
    }
    const d = decodeTexture(dds.files.get('Textures/Mushroom.dds')!, 'Mushroom.dds');
    expect([d.width, d.height]).toEqual([img.width, img.height]);
    let err = 0;
    for (let i = 0; i < d.data.length; i++) err += Math.abs(d.data[i] - img.data[i]);
    expect(err / d.data.length).toBeLessThan(8); // block compression
  });

  it('a normal map added in glTF is written and a stock technique follows (Diff → DiffNormal)', async () => {
    const { document } = await importMain('Data/Models/NinjaSnowWar/SnowCrate.mdl');
    const mat = document.getRoot().listMaterials()[0];
    const kachujin = await importMain('Data/Models/Kachujin/Kachujin.mdl');
    const normalPng = kachujin.document.getRoot().listMaterials()[0].getNormalTexture()!.getImage()!;
    mat.setNormalTexture(document.createTexture('crate_normal').setImage(normalPng).setMimeType('image/png'));
    const { files } = await legacyFormat.export!(document, {});
    const m = readMaterialXml(files.get('Materials/NinjaSnowWar/SnowCrate.xml')!);
    expect(m.fields.techniques.map((t) => t.name)).toEqual(['Techniques/DiffNormal.xml']);
    expect(m.fields.textures).toEqual([
      { unit: 'diffuse', name: 'Textures/NinjaSnowWar/SnowCrate.dds' },
      { unit: 'normal', name: 'Textures/crate_normal.png' },
    ]);
    expect(Buffer.from(files.get('Textures/crate_normal.png')!).equals(Buffer.from(normalPng))).toBe(true);
  });

  it('a lone model takes options.material; without resources it keeps placeholders', async () => {
    const r = await importMain('Data/Models/Mushroom.mdl', resources, {
      material: 'Materials/NinjaSnowWar/SnowCrate.xml',
    });
    expect(
      r.document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['SnowCrate']);
    const bytes = (await resources.read('Data/Models/Mushroom.mdl'))!;
    const bare = await legacyFormat.import(new Map([['Mushroom.mdl', bytes]]), { main: 'Mushroom.mdl' });
    expect(
      bare.document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['Mushroom_geometry0']);
    // a placeholder-only document exports as before: the .mdl alone
    const out = await legacyFormat.export!(bare.document, {});
    expect([...out.files.keys()]).toEqual(['Mushroom.mdl']);
  });
});
